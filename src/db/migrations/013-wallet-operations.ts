/**
 * Wallet operations of the developer API: conversions between a user's own accounts, payments sent
 * from an account to an address, and requests for money from another wallet.
 */
export const sql = /* sql */ `
CREATE TABLE crypto_exchanges (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  source_account_id TEXT NOT NULL,
  target_account_id TEXT NOT NULL,
  rate TEXT NOT NULL,
  source_amount INTEGER NOT NULL,
  target_amount INTEGER NOT NULL,
  source_currency TEXT NOT NULL,
  target_currency TEXT NOT NULL,
  owner_payment TEXT NOT NULL,
  trader_payment TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX crypto_exchanges_owner ON crypto_exchanges(owner_id, created_at DESC, id DESC);

CREATE TABLE crypto_payments (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  account_id TEXT NOT NULL,
  target_account_id TEXT NOT NULL,
  target_address TEXT NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  message TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
  created_at INTEGER NOT NULL
);
CREATE INDEX crypto_payments_owner ON crypto_payments(owner_id, created_at DESC, id DESC);
CREATE INDEX crypto_payments_pending ON crypto_payments(created_at, id) WHERE status = 'pending';

CREATE TABLE payment_requests (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL,
  receiving_account_id TEXT NOT NULL,
  payer_id TEXT NOT NULL,
  payer_contact_info TEXT NOT NULL,
  amount INTEGER NOT NULL,
  currency TEXT NOT NULL,
  message TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'paid', 'declined', 'expired')),
  ledger_transaction_id TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX payment_requests_owner ON payment_requests(owner_id, created_at DESC, id DESC);
CREATE INDEX payment_requests_pending ON payment_requests(expires_at, id) WHERE status = 'pending';
`;
