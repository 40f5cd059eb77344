/**
 * Buy orders become a lifecycle (pending_payment → payment_received → released, or canceled / escrow_expired):
 * the wallet a release credits, the times the real resource shows, the payment instructions, and the ledger
 * transaction of the release. Fixture history and rows from before this migration keep NULLs where they have
 * no such fact (no wallet recorded: the owner's wallet in the order's currency is used).
 */
export const sql = /* sql */ `
ALTER TABLE buy_orders ADD COLUMN account_id TEXT REFERENCES accounts(id);
ALTER TABLE buy_orders ADD COLUMN instructions TEXT;
ALTER TABLE buy_orders ADD COLUMN marked_paid_at INTEGER;
ALTER TABLE buy_orders ADD COLUMN canceled_at INTEGER;
ALTER TABLE buy_orders ADD COLUMN status_changed_at INTEGER;
-- 1 when the sandbox clock releases the order by itself once paid (orders created through the API).
ALTER TABLE buy_orders ADD COLUMN auto_release INTEGER NOT NULL DEFAULT 0;
ALTER TABLE buy_orders ADD COLUMN credit_transaction_id TEXT REFERENCES ledger_transactions(id);
CREATE INDEX buy_orders_awaiting_payment ON buy_orders(expires_at, id) WHERE status = 'pending_payment';
CREATE INDEX buy_orders_awaiting_release ON buy_orders(marked_paid_at, id) WHERE status = 'payment_received' AND auto_release = 1;
`;
