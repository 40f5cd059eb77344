/**
 * OAuth2 access tokens of HMAC apps (docs/design.md#authentication): issued through the control API,
 * accepted as `Authorization: Bearer` on the developer API until they expire on the sandbox clock or
 * are revoked. Kept in plain text like the merchant tokens: the sandbox shows them back to QA.
 */
export const sql = /* sql */ `
CREATE TABLE app_access_tokens (
  access_token TEXT PRIMARY KEY,
  api_key TEXT NOT NULL REFERENCES apps(api_key),
  scope TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX app_access_tokens_app ON app_access_tokens(api_key, created_at);
`;
