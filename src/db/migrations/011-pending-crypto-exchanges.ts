/**
 * Conversions are created `pending` and settle on the sandbox clock like transfers (or fail through the
 * control API). A conversion in flight has a row here from its creation until it settles or fails: the
 * tick finds the due ones by `created_at` without scanning every conversion ever made. (The conversions
 * table itself comes from a later-numbered migration, so this one only adds a table of its own.) Rows
 * from before were settled at once: they stay `success` and have no row here.
 */
export const sql = /* sql */ `
CREATE TABLE crypto_exchanges_in_flight (
  exchange_id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL
);
CREATE INDEX crypto_exchanges_in_flight_due ON crypto_exchanges_in_flight(created_at, exchange_id);
`;
