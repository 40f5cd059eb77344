/** Identities, wallet accounts with a double-entry ledger, outlets, invoices and the event outbox. */
export const sql = /* sql */ `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE workspaces (
  id TEXT PRIMARY KEY,
  created_at INTEGER NOT NULL,
  expires_at INTEGER,
  deleted_at INTEGER
);

CREATE TABLE users (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('customer', 'developer')),
  name TEXT NOT NULL,
  email TEXT UNIQUE,
  mobile_number TEXT UNIQUE,
  password TEXT,
  workspace_id TEXT REFERENCES workspaces(id),
  created_at INTEGER NOT NULL
);
CREATE INDEX users_kind ON users(kind, created_at, id);

CREATE TABLE accounts (
  id TEXT PRIMARY KEY,
  owner_type TEXT NOT NULL CHECK (owner_type IN ('merchant', 'user', 'system')),
  owner_id TEXT NOT NULL,
  name TEXT NOT NULL,
  currency TEXT NOT NULL,
  balance INTEGER NOT NULL DEFAULT 0,
  pending_balance INTEGER NOT NULL DEFAULT 0,
  default_address TEXT NOT NULL,
  allow_negative INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  CHECK (allow_negative = 1 OR balance >= 0)
);
CREATE INDEX accounts_owner ON accounts(owner_type, owner_id, created_at DESC, id DESC);

CREATE TABLE ledger_transactions (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  reference TEXT,
  created_at INTEGER NOT NULL
);
CREATE TABLE ledger_entries (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  transaction_id TEXT NOT NULL REFERENCES ledger_transactions(id),
  account_id TEXT NOT NULL REFERENCES accounts(id),
  amount INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX ledger_entries_account ON ledger_entries(account_id);
CREATE INDEX ledger_entries_tx ON ledger_entries(transaction_id);
CREATE TRIGGER ledger_entries_append_only_update BEFORE UPDATE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;
CREATE TRIGGER ledger_entries_append_only_delete BEFORE DELETE ON ledger_entries
BEGIN SELECT RAISE(ABORT, 'ledger entries are append-only'); END;

CREATE TABLE merchants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  merchant_api_token TEXT NOT NULL UNIQUE,
  bearer_token TEXT UNIQUE,
  callback_url TEXT,
  redirect_url TEXT,
  enabled_payment_collectors TEXT NOT NULL,
  max_invoice_amount INTEGER NOT NULL,
  invoice_lifetime_seconds INTEGER NOT NULL,
  callback_auth TEXT NOT NULL CHECK (callback_auth IN ('https-only', 'always', 'never')),
  wallet_account_id TEXT NOT NULL REFERENCES accounts(id),
  workspace_id TEXT REFERENCES workspaces(id),
  disabled INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

CREATE TABLE apps (
  api_key TEXT PRIMARY KEY,
  api_secret TEXT NOT NULL,
  name TEXT NOT NULL,
  owner_id TEXT NOT NULL REFERENCES users(id),
  mfa_whitelisted INTEGER NOT NULL,
  otp_secret TEXT NOT NULL,
  last_nonce TEXT,
  workspace_id TEXT REFERENCES workspaces(id),
  disabled INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL
);

CREATE TABLE outlets (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('payin', 'payout')),
  name TEXT NOT NULL,
  collector TEXT,
  category TEXT,
  currency TEXT NOT NULL,
  instructions TEXT NOT NULL DEFAULT '',
  position INTEGER NOT NULL
);
CREATE TABLE payout_outlet_fees (
  id TEXT PRIMARY KEY,
  outlet_id TEXT NOT NULL REFERENCES outlets(id),
  currency TEXT NOT NULL,
  from_amount INTEGER NOT NULL,
  until_amount INTEGER NOT NULL,
  fee_amount INTEGER NOT NULL,
  fee_percent TEXT NOT NULL,
  position INTEGER NOT NULL
);
CREATE INDEX payout_outlet_fees_outlet ON payout_outlet_fees(outlet_id, from_amount);

CREATE TABLE invoices (
  id TEXT PRIMARY KEY,
  merchant_id TEXT NOT NULL REFERENCES merchants(id),
  status TEXT NOT NULL CHECK (status IN ('pending', 'fully_paid', 'expired', 'canceled')),
  amount INTEGER NOT NULL CHECK (amount > 0),
  amount_received INTEGER NOT NULL DEFAULT 0,
  currency TEXT NOT NULL,
  external_transaction_id TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  metadata TEXT NOT NULL DEFAULT '{}',
  supported_payment_collectors TEXT NOT NULL,
  current_payment_reference_number TEXT UNIQUE,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  UNIQUE (merchant_id, external_transaction_id)
);
CREATE INDEX invoices_by_merchant ON invoices(merchant_id, created_at DESC, id DESC);
CREATE INDEX invoices_by_merchant_status ON invoices(merchant_id, status, created_at DESC, id DESC);
CREATE INDEX invoices_pending_expiry ON invoices(expires_at) WHERE status = 'pending';

-- Counts kept by triggers so that a list's total is one row read, whatever the depth of the page.
CREATE TABLE invoice_counts (
  merchant_id TEXT NOT NULL,
  status TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (merchant_id, status)
) WITHOUT ROWID;
CREATE TRIGGER invoice_counts_insert AFTER INSERT ON invoices BEGIN
  INSERT INTO invoice_counts (merchant_id, status, n) VALUES (NEW.merchant_id, NEW.status, 1)
  ON CONFLICT (merchant_id, status) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER invoice_counts_status AFTER UPDATE OF status ON invoices WHEN OLD.status <> NEW.status BEGIN
  UPDATE invoice_counts SET n = n - 1 WHERE merchant_id = OLD.merchant_id AND status = OLD.status;
  INSERT INTO invoice_counts (merchant_id, status, n) VALUES (NEW.merchant_id, NEW.status, 1)
  ON CONFLICT (merchant_id, status) DO UPDATE SET n = n + 1;
END;

CREATE TABLE payments (
  id TEXT PRIMARY KEY,
  invoice_id TEXT NOT NULL REFERENCES invoices(id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  payment_collector TEXT NOT NULL,
  reference_number TEXT,
  payer_account_id TEXT REFERENCES accounts(id),
  ledger_transaction_id TEXT REFERENCES ledger_transactions(id),
  created_at INTEGER NOT NULL
);
CREATE INDEX payments_by_invoice ON payments(invoice_id, created_at);

-- The outbox: written in the same transaction as the change that causes each event.
CREATE TABLE outbox_events (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL UNIQUE,
  name TEXT NOT NULL,
  invoice_id TEXT NOT NULL,
  merchant_id TEXT NOT NULL,
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX outbox_events_invoice ON outbox_events(invoice_id, seq);
`;
