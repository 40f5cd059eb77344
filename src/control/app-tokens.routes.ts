import { ApiError } from '../shared/api-error.js';
import { ok, type Handlers } from '../http/operation.js';
import type { AppToken } from '../identities/identities.api.js';
import type { ServicesWith } from '../module.types.js';
import { formatTimestamp } from '../shared/clock.js';
import { newAccessToken } from '../shared/credentials.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities'>;

/** The lifetime and scope of a token when the request names none (sandbox's choice: the usual OAuth2 hour). */
export const DEFAULT_TOKEN_SECONDS = 3600;
export const DEFAULT_TOKEN_SCOPE = 'read write';

/**
 * A token as the control API and the dashboard show it: RFC 6749 §5.1 fields, plus its expiry time; an
 * expired one (recorded, or reached and not yet recorded) says so, with 0 seconds left.
 */
export function appTokenView(row: AppToken, now: number) {
  const expired = row.expired_at !== null || row.expires_at <= now;
  return {
    access_token: row.access_token,
    token_type: 'Bearer' as const,
    // Rounded up: a live token never shows 0 seconds left.
    expires_in: expired ? 0 : Math.max(0, Math.ceil((row.expires_at - now) / 1_000_000)),
    scope: row.scope,
    expires_at: formatTimestamp(row.expires_at),
    ...(expired && {
      expired: true as const,
      expired_at: formatTimestamp(row.expired_at ?? row.expires_at),
    }),
  };
}

/**
 * OAuth2 access tokens of HMAC apps (docs/design.md#authentication): issued, listed and revoked here,
 * accepted as `Authorization: Bearer` on every developer operation (src/http/run-operation.ts).
 */
export function appTokenHandlers(s: ModuleServices): Handlers {
  // The app's tokens live on its workspace's clock.
  const enabledApp = (apiKey: string) => {
    const app = s.identities.appByKey(apiKey);
    if (!app) throw ApiError.notFound();
    s.tenants.enter(app.workspace_id);
  };
  return {
    createAppToken: ({ params, body }) => {
      enabledApp(params.api_key);
      const now = s.clock.now();
      const row = {
        access_token: newAccessToken(),
        api_key: params.api_key,
        scope: body?.scope ?? DEFAULT_TOKEN_SCOPE,
        created_at: now,
        expires_at: now + (body?.expires_in_seconds ?? DEFAULT_TOKEN_SECONDS) * 1_000_000,
      };
      s.unitOfWork(() => s.identities.appTokens.insert(row));
      return ok(appTokenView({ ...row, revoked_at: null, expired_at: null }, now), 201);
    },
    listAppTokens: ({ params, query }) => {
      enabledApp(params.api_key);
      const now = s.clock.now();
      const tokens = s.identities.appTokens;
      const rows =
        query.include === 'expired'
          ? tokens.unrevoked(params.api_key)
          : tokens.live(params.api_key, now);
      return ok({ tokens: rows.map((r) => appTokenView(r, now)) });
    },
    revokeAppToken: ({ params }) => {
      enabledApp(params.api_key);
      // An unknown, expired or already revoked token, or one of another app, is not found.
      if (
        !s.unitOfWork(() =>
          s.identities.appTokens.revoke(params.api_key, params.access_token, s.clock.now()),
        )
      )
        throw ApiError.notFound();
      return { status: 204 };
    },
  };
}
