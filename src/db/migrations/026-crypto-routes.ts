/**
 * Crypto routes (`POST /v3/crypto-routes/`, `DELETE /v3/crypto-routes/{id}/`, as the 2015 docs show them): a
 * developer's monitored address and the stock address its coins go to. Deleting one removes the row.
 */
export const sql = /* sql */ `
CREATE TABLE crypto_routes (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  monitored_address TEXT NOT NULL,
  stock_address TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX crypto_routes_owner ON crypto_routes(owner_id, created_at, id);
`;
