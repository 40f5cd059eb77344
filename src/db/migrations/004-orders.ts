/**
 * Developer API records (docs/design.md#public-api): sell orders, buy orders and transfers, each owned by the user
 * behind an HMAC application. Lists read newest first (created_at DESC, id DESC) within one owner, so
 * every list has an index in exactly that order.
 */
export const sql = /* sql */ `
CREATE TABLE sell_orders (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users(id),
  account_id TEXT NOT NULL REFERENCES accounts(id),
  outlet_id TEXT NOT NULL REFERENCES outlets(id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  fee INTEGER NOT NULL CHECK (fee >= 0),
  currency TEXT NOT NULL,
  delivery_status TEXT NOT NULL
    CHECK (delivery_status IN ('pending_payment', 'processing', 'completed', 'failed', 'canceled')),
  external_transaction_id TEXT,
  target_address TEXT,
  fields TEXT NOT NULL DEFAULT '{}',
  -- The debit of amount + fee; NULL for pre-settled fixture history (see orders.fixtures.ts).
  debit_transaction_id TEXT REFERENCES ledger_transactions(id),
  -- 1 when the sandbox clock moves the order on by itself (orders created through the API).
  auto_advance INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  status_changed_at INTEGER NOT NULL
);
CREATE INDEX sell_orders_by_owner ON sell_orders(owner_id, created_at DESC, id DESC);
CREATE INDEX sell_orders_in_flight ON sell_orders(status_changed_at, id)
  WHERE auto_advance = 1 AND delivery_status IN ('pending_payment', 'processing');

CREATE TABLE buy_orders (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users(id),
  amount INTEGER NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL,
  payment_method TEXT NOT NULL,
  status TEXT NOT NULL
    CHECK (status IN ('pending_payment', 'payment_received', 'released', 'canceled', 'escrow_expired')),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);
CREATE INDEX buy_orders_by_owner ON buy_orders(owner_id, created_at DESC, id DESC);

CREATE TABLE transfers (
  id TEXT PRIMARY KEY,
  owner_id TEXT NOT NULL REFERENCES users(id),
  account_id TEXT NOT NULL REFERENCES accounts(id),
  target_account_id TEXT REFERENCES accounts(id),
  target_address TEXT NOT NULL,
  amount INTEGER NOT NULL CHECK (amount > 0),
  currency TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending', 'success', 'failed')),
  -- NULL for pre-settled fixture history.
  ledger_transaction_id TEXT REFERENCES ledger_transactions(id),
  created_at INTEGER NOT NULL
);
CREATE INDEX transfers_by_owner ON transfers(owner_id, created_at DESC, id DESC);
`;
