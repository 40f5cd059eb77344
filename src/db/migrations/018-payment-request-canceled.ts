/**
 * A payment request can be canceled by its requester (`DELETE /v3/payment-requests/{id}/`, as a
 * published PHP client calls it): the status gains `canceled`. SQLite cannot change a CHECK constraint,
 * so the table is rebuilt with the same columns, rows and indexes.
 */
export const sql = /* sql */ `
CREATE TABLE payment_requests_next (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  receiving_account_id TEXT NOT NULL,
  payer_id TEXT NOT NULL,
  payer_contact_info TEXT NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  message TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'declined', 'expired', 'canceled')),
  ledger_transaction_id TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
INSERT INTO payment_requests_next
  SELECT id, owner_id, receiving_account_id, payer_id, payer_contact_info, amount, currency, message, status,
         ledger_transaction_id, created_at, expires_at, updated_at
  FROM payment_requests;
DROP TABLE payment_requests;
ALTER TABLE payment_requests_next RENAME TO payment_requests;
CREATE INDEX payment_requests_owner ON payment_requests(owner_id, created_at DESC, id DESC);
CREATE INDEX payment_requests_pending ON payment_requests(expires_at, id) WHERE status = 'pending';
`;
