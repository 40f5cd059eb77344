/**
 * Conversions are created `pending` and settle on the sandbox clock like crypto payments (or fail through
 * the control API). The tick finds the due ones through this partial index, oldest first, without
 * scanning every conversion ever made; it holds only the pending rows, so SQLite keeps it in step with
 * `status` by itself. Rows from before conversions were held pending are `success` and stay out of it.
 *
 * A database that ran the earlier side table of in-flight conversions (a migration since removed) drops
 * it here: nothing reads or writes it any more.
 */
export const sql = /* sql */ `
CREATE INDEX crypto_exchanges_pending ON crypto_exchanges(created_at, id) WHERE status = 'pending';
DROP TABLE IF EXISTS crypto_exchanges_in_flight;
`;
