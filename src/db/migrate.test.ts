import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { sql as initial } from './migrations/001-initial.js';
import { sql as orders } from './migrations/004-orders.js';
import { migrations } from './migrations/index.js';
import { checkLedgerInvariants } from '../ledger/invariants.js';
import { migrate } from './open.js';

const versions = (db: Database.Database) =>
  (
    db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{
      version: number;
    }>
  ).map((r) => r.version);

it('applies every migration once, and records each', () => {
  const db = new Database(':memory:');
  migrate(db);
  migrate(db);
  expect(versions(db)).toEqual(migrations.map((m) => m.version));
  db.close();
});

it('runs a migration numbered below one already applied (modules add theirs independently)', () => {
  const db = new Database(':memory:');
  db.exec(initial);
  db.exec(orders);
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  db.prepare("INSERT INTO schema_migrations VALUES (1, 'initial', 'x'), (4, 'orders', 'x')").run();
  migrate(db);
  expect(versions(db)).toEqual(migrations.map((m) => m.version));
  expect(
    db
      .prepare(
        "SELECT 1 FROM pragma_table_info('invoices') WHERE name = 'current_payment_collector'",
      )
      .get(),
  ).toBeDefined();
  expect(db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'deliveries'").get()).toBeDefined();
  db.close();
});

it('turns stored fee percentages into fractions ("1" → "0.01") once', () => {
  const db = new Database(':memory:');
  const before = migrations.filter((m) => m.name !== 'fee-percent-as-fraction');
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of before) {
    db.exec(m.sql);
    db.prepare("INSERT INTO schema_migrations VALUES (?, ?, 'x')").run(m.version, m.name);
  }
  db.exec(
    "INSERT INTO outlets (id, kind, name, collector, category, currency, instructions, position) VALUES ('bpi', 'payout', 'BPI', NULL, 'bank', 'PHP', '', 0)",
  );
  const insert = db.prepare(
    "INSERT INTO payout_outlet_fees (id, outlet_id, currency, from_amount, until_amount, fee_amount, fee_percent, position) VALUES (?, 'bpi', 'PHP', 0, 1, 0, ?, ?)",
  );
  const stored = ['0', '1', '0.5', '1.5', '0.25', '0.75', '1.125', '10'];
  stored.forEach((p, i) => insert.run(`f${i}`, p, i));
  migrate(db);
  migrate(db);
  const after = (
    db.prepare('SELECT fee_percent FROM payout_outlet_fees ORDER BY position').all() as Array<{
      fee_percent: string;
    }>
  ).map((r) => r.fee_percent);
  expect(after).toEqual(['0', '0.01', '0.005', '0.015', '0.0025', '0.0075', '0.01125', '0.1']);
  db.close();
});

it('fills total_received of existing accounts from their credits', () => {
  const db = new Database(':memory:');
  const before = migrations.filter((m) => m.version < 16);
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of before) {
    db.exec(m.sql);
    db.prepare("INSERT INTO schema_migrations VALUES (?, ?, 'x')").run(m.version, m.name);
  }
  const account = db.prepare(
    "INSERT INTO accounts (id, owner_type, owner_id, name, currency, balance, pending_balance, default_address, allow_negative, created_at) VALUES (?, 'user', 'u', 'W', 'PHP', ?, 0, ?, 1, 0)",
  );
  account.run('a', 30, 'a');
  account.run('b', -30, 'b');
  db.prepare(
    "INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES ('t1', 'x', NULL, 0), ('t2', 'x', NULL, 0)",
  ).run();
  const entry = db.prepare(
    'INSERT INTO ledger_entries (transaction_id, account_id, amount, created_at) VALUES (?, ?, ?, 0)',
  );
  entry.run('t1', 'a', 50);
  entry.run('t1', 'b', -50);
  entry.run('t2', 'a', -20);
  entry.run('t2', 'b', 20);
  migrate(db);
  expect(db.prepare('SELECT id, total_received FROM accounts ORDER BY id').all()).toEqual([
    { id: 'a', total_received: 50 },
    { id: 'b', total_received: 20 },
  ]);
  db.close();
});

it('finds pending conversions through a partial index, and drops the side table an earlier schema kept for them', () => {
  const db = new Database(':memory:');
  const before = migrations.filter((m) => m.name !== 'pending-crypto-exchanges-index');
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of before) {
    db.exec(m.sql);
    db.prepare("INSERT INTO schema_migrations VALUES (?, ?, 'x')").run(m.version, m.name);
  }
  // What the removed migration 11 left in a database that ran it.
  db.exec(
    'CREATE TABLE crypto_exchanges_in_flight (exchange_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL)',
  );
  db.prepare("INSERT INTO schema_migrations VALUES (11, 'pending-crypto-exchanges', 'x')").run();
  migrate(db);
  migrate(db);
  expect(
    db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'crypto_exchanges_in_flight'").get(),
  ).toBeUndefined();
  const index = db
    .prepare(
      "SELECT sql FROM sqlite_schema WHERE type = 'index' AND name = 'crypto_exchanges_pending'",
    )
    .get() as { sql: string };
  expect(index.sql).toMatch(/ON crypto_exchanges\(created_at, id\) WHERE status = 'pending'/);
  expect(versions(db)).toContain(17);
  db.close();
});

it('repairs transactions that mixed currencies: system entries move to that currency’s system account', () => {
  const db = new Database(':memory:');
  const before = migrations.filter((m) => m.name !== 'ledger-per-currency');
  db.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  for (const m of before) {
    db.exec(m.sql);
    db.prepare("INSERT INTO schema_migrations VALUES (?, ?, 'x')").run(m.version, m.name);
  }
  const account = db.prepare(
    'INSERT INTO accounts (id, owner_type, owner_id, name, currency, balance, pending_balance, default_address, allow_negative, created_at, total_received) VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?, 5, ?)',
  );
  // What the fixture load wrote before: a BTC wallet funded from the peso funding account.
  account.run(
    'system-funding',
    'system',
    'sandbox',
    'funding',
    'PHP',
    -130,
    'system-funding',
    1,
    0,
  );
  account.run('php', 'user', 'u', 'PBTC', 'PHP', 100, 'php', 0, 100);
  account.run('btc', 'user', 'u', 'BTC', 'BTC', 30, 'btc', 0, 30);
  db.prepare(
    "INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES ('t1', 'fixture_funding', NULL, 0), ('t2', 'fixture_funding', NULL, 0)",
  ).run();
  const entry = db.prepare(
    'INSERT INTO ledger_entries (transaction_id, account_id, amount, created_at) VALUES (?, ?, ?, 0)',
  );
  entry.run('t1', 'system-funding', -100);
  entry.run('t1', 'php', 100);
  entry.run('t2', 'system-funding', -30);
  entry.run('t2', 'btc', 30);
  expect(checkLedgerInvariants(db).problems).toContain('transaction t2 mixes currencies (PHP,BTC)');
  migrate(db);
  migrate(db);
  expect(checkLedgerInvariants(db)).toMatchObject({ ok: true, problems: [] });
  expect(
    db
      .prepare(
        "SELECT id, currency, balance, owner_type FROM accounts WHERE id LIKE 'system-funding%' ORDER BY id",
      )
      .all(),
  ).toEqual([
    { id: 'system-funding', currency: 'PHP', balance: -100, owner_type: 'system' },
    { id: 'system-funding-btc', currency: 'BTC', balance: -30, owner_type: 'system' },
  ]);
  expect(() =>
    db.prepare("UPDATE ledger_entries SET amount = 1 WHERE transaction_id = 't1'").run(),
  ).toThrow(/append-only/);
  db.close();
});
