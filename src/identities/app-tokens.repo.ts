import type { Db } from '../db/open.js';
import type { App, AppToken, AppTokensApi } from './identities.api.js';

type AppTokenRow = AppToken;

/**
 * OAuth2 access tokens of HMAC apps. SQL only; no rules. A token is live while it is not revoked, its
 * expiry is after `now` (the sandbox clock) and its app is enabled (a deleted workspace disables its
 * apps, and so their tokens).
 */
export function createAppTokenRepository(db: Db): AppTokensApi {
  const insert = db.prepare(
    `INSERT INTO app_access_tokens (access_token, api_key, scope, created_at, expires_at)
     VALUES (@access_token, @api_key, @scope, @created_at, @expires_at)`,
  );
  const live = db.prepare(
    'SELECT * FROM app_access_tokens WHERE api_key = ? AND revoked_at IS NULL AND expires_at > ? ORDER BY created_at, rowid',
  );
  const revoke = db.prepare(
    `UPDATE app_access_tokens SET revoked_at = @now
       WHERE access_token = @token AND api_key = @key AND revoked_at IS NULL AND expires_at > @now`,
  );
  const appOfToken = db.prepare(
    `SELECT a.* FROM app_access_tokens t JOIN apps a ON a.api_key = t.api_key
       WHERE t.access_token = ? AND t.revoked_at IS NULL AND t.expires_at > ? AND a.disabled = 0`,
  );
  return {
    insert: (row: Omit<AppTokenRow, 'revoked_at'>) => void insert.run(row),
    /** The app's live tokens, oldest first. */
    live: (apiKey: string, now: number) => live.all(apiKey, now) as AppTokenRow[],
    /** True when a live token of this app was revoked now. */
    revoke: (apiKey: string, token: string, now: number) => revoke.run({ key: apiKey, token, now }).changes === 1,
    /** The enabled app a live token belongs to. */
    appOfToken: (token: string, now: number) => appOfToken.get(token, now) as App | undefined,
  };
}
