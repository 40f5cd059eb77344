import type { Db } from '../db/open.js';
import { earliestOf } from '../db/tenant-sql.js';
import type { App, AppToken, AppTokensApi } from './identities.api.js';

type AppTokenRow = AppToken;

/**
 * OAuth2 access tokens of HMAC apps. SQL only; no rules. A token is live while it is not revoked, its
 * expiry is after `now` (the sandbox clock) and was never recorded as reached (`expired_at`, so a clock
 * moved back revives nothing), and its app is enabled (a deleted workspace disables its apps, and so
 * their tokens).
 */
/** The workspace of a token's app, in SQL (the token rows' own table is `app_access_tokens`). */
const APP_WORKSPACE =
  '(SELECT workspace_id FROM apps WHERE apps.api_key = app_access_tokens.api_key)';

export function createAppTokenRepository(db: Db): AppTokensApi {
  const insert = db.prepare(
    `INSERT INTO app_access_tokens (access_token, api_key, scope, created_at, expires_at)
     VALUES (@access_token, @api_key, @scope, @created_at, @expires_at)`,
  );
  const live = db.prepare(
    `SELECT * FROM app_access_tokens
       WHERE api_key = ? AND revoked_at IS NULL AND expired_at IS NULL AND expires_at > ? ORDER BY created_at, rowid`,
  );
  const unrevoked = db.prepare(
    'SELECT * FROM app_access_tokens WHERE api_key = ? AND revoked_at IS NULL ORDER BY created_at, rowid',
  );
  const revoke = db.prepare(
    `UPDATE app_access_tokens SET revoked_at = @now
       WHERE access_token = @token AND api_key = @key AND revoked_at IS NULL AND expired_at IS NULL AND expires_at > @now`,
  );
  const appOfToken = db.prepare(
    `SELECT a.* FROM app_access_tokens t JOIN apps a ON a.api_key = t.api_key
       WHERE t.access_token = ? AND t.revoked_at IS NULL AND t.expired_at IS NULL AND t.expires_at > ? + ws_offset(a.workspace_id)
         AND a.disabled = 0`,
  );
  // Each token expires on its app's workspace clock (docs/design.md#the-clock): `?` is the sandbox time.
  const markExpired = db.prepare(
    `UPDATE app_access_tokens SET expired_at = expires_at WHERE expired_at IS NULL AND revoked_at IS NULL
       AND expires_at <= @now + ws_max_offset() AND expires_at <= @now + ws_offset(${APP_WORKSPACE})`,
  );
  const anyDue = db.prepare(
    `SELECT 1 FROM app_access_tokens WHERE expired_at IS NULL AND revoked_at IS NULL
       AND expires_at <= @now + ws_max_offset() AND expires_at <= @now + ws_offset(${APP_WORKSPACE}) LIMIT 1`,
  );
  // The guard of the due work (src/clock/due-work.ts): the partial index gives the earliest live expiry.
  const nextExpiry = earliestOf(
    db,
    'app_access_tokens',
    'expires_at',
    'expired_at IS NULL AND revoked_at IS NULL',
    'api_key IN (SELECT api_key FROM apps WHERE workspace_id = @ws)',
  );
  return {
    insert: (row: Omit<AppTokenRow, 'revoked_at' | 'expired_at'>) => void insert.run(row),
    /** The app's live tokens, oldest first. */
    live: (apiKey: string, now: number) => live.all(apiKey, now) as AppTokenRow[],
    /** The app's tokens that were not revoked, live and expired alike, oldest first. */
    unrevoked: (apiKey: string) => unrevoked.all(apiKey) as AppTokenRow[],
    /** True when a live token of this app was revoked now. */
    revoke: (apiKey: string, token: string, now: number) =>
      revoke.run({ key: apiKey, token, now }).changes === 1,
    /** The enabled app a live token belongs to; `now` is the sandbox time, each token expires on its app's clock. */
    appOfToken: (token: string, now: number) => appOfToken.get(token, now) as App | undefined,
    /** Record every token whose expiry its app's clock has reached as expired (at its `expires_at`); `now` is the sandbox time; how many. */
    markExpired: (now: number) => markExpired.run({ now }).changes,
    /** True when some token has reached its expiry without being recorded as expired yet (a read only). */
    anyDue: (now: number) => anyDue.get({ now }) !== undefined,
    /** The earliest expiry not yet recorded (on its app's clock): of every token, or of one workspace's apps'. */
    nextExpiry,
  };
}
