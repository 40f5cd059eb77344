/**
 * A wallet's room counts what is already on its way to it (docs/design.md#money-bounds): buy orders paid
 * and not yet released into it, and `coins_transfer` sell orders debited and not yet paid out to it. Every
 * send asks, so both are found through partial indexes of just those rows, by the account they credit,
 * instead of a scan of every order ever made. SQLite keeps a partial index in step with the status by itself.
 */
export const sql = /* sql */ `
CREATE INDEX buy_orders_paid_into ON buy_orders(account_id) WHERE status = 'payment_received';
CREATE INDEX sell_orders_paying_to ON sell_orders(target_account_id)
  WHERE debit_transaction_id IS NOT NULL AND delivery_status IN ('pending_payment', 'processing');
`;
