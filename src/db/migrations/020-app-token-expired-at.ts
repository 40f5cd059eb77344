/**
 * What has expired stays expired (docs/design.md#authentication): an app's OAuth2 token records the
 * moment it expired on the sandbox clock (set by the clock's due work at `expires_at`), so moving the
 * clock back (`POST /_sandbox/clock/reset`) never makes it live again. A token already past its expiry
 * when this runs is recorded as expired at its `expires_at`, judged by the system time (the sandbox's
 * offset is not known to SQL; the tick records the rest as soon as the sandbox runs).
 */
export const sql = /* sql */ `
ALTER TABLE app_access_tokens ADD COLUMN expired_at INTEGER;
UPDATE app_access_tokens SET expired_at = expires_at
  WHERE revoked_at IS NULL AND expires_at <= CAST((julianday('now') - 2440587.5) * 86400000000 AS INTEGER);
CREATE INDEX app_access_tokens_unexpired ON app_access_tokens(expires_at) WHERE expired_at IS NULL AND revoked_at IS NULL;
`;
