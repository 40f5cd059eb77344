import type { Db } from '../db/open.js';
import type { AppRow } from './identities.repo.js';

export interface AppTokenRow {
  access_token: string;
  api_key: string;
  scope: string;
  /** Sandbox-clock microseconds, like every timestamp of the database. */
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** When it expired, recorded by the clock's due work: never live again, whatever the clock does after. */
  expired_at: number | null;
}

/**
 * OAuth2 access tokens of HMAC apps. SQL only; no rules. A token is live while it is not revoked, its
 * expiry is after `now` (the sandbox clock) and was never recorded as reached (`expired_at`, so a clock
 * moved back revives nothing), and its app is enabled (a deleted workspace disables its apps, and so
 * their tokens).
 */
export function createAppTokenRepository(db: Db) {
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
       WHERE t.access_token = ? AND t.revoked_at IS NULL AND t.expired_at IS NULL AND t.expires_at > ? AND a.disabled = 0`,
  );
  const markExpired = db.prepare(
    'UPDATE app_access_tokens SET expired_at = expires_at WHERE expired_at IS NULL AND revoked_at IS NULL AND expires_at <= ?',
  );
  const anyDue = db.prepare(
    'SELECT 1 FROM app_access_tokens WHERE expired_at IS NULL AND revoked_at IS NULL AND expires_at <= ? LIMIT 1',
  );
  return {
    insert: (row: Omit<AppTokenRow, 'revoked_at' | 'expired_at'>) => void insert.run(row),
    /** The app's live tokens, oldest first. */
    live: (apiKey: string, now: number) => live.all(apiKey, now) as AppTokenRow[],
    /** The app's tokens that were not revoked, live and expired alike, oldest first. */
    unrevoked: (apiKey: string) => unrevoked.all(apiKey) as AppTokenRow[],
    /** True when a live token of this app was revoked now. */
    revoke: (apiKey: string, token: string, now: number) => revoke.run({ key: apiKey, token, now }).changes === 1,
    /** The enabled app a live token belongs to. */
    appOfToken: (token: string, now: number) => appOfToken.get(token, now) as AppRow | undefined,
    /** Record every token whose expiry `now` has reached as expired (at its `expires_at`); how many. */
    markExpired: (now: number) => markExpired.run(now).changes,
    /** True when some token has reached its expiry without being recorded as expired yet (a read only). */
    anyDue: (now: number) => anyDue.get(now) !== undefined,
  };
}

export type AppTokenRepository = ReturnType<typeof createAppTokenRepository>;
