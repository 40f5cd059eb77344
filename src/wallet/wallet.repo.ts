import type { Db } from '../db/open.js';
import { dueOnTenantClock, earliestOf } from '../db/tenant-sql.js';
import { usersOfWorkspaceSql, userWorkspaceSql } from '../identities/tenant.sql.js';
import { pendingSendQueries } from '../transfers/pending-sends.sql.js';

export interface CryptoExchangeRecord {
  id: string;
  owner_id: string;
  source_account_id: string;
  target_account_id: string;
  rate: string;
  source_amount: bigint;
  target_amount: bigint;
  source_currency: string;
  target_currency: string;
  owner_payment: string;
  trader_payment: string;
  status: CryptoExchangeStatus;
  created_at: number;
}

/** A row of a due query, with the workspace (or null) whose clock it runs on. */
export type Tenanted<R> = R & { tenant: string | null };

export type CryptoExchangeStatus = 'pending' | 'success' | 'failed';

export type CryptoPaymentStatus = 'pending' | 'success' | 'failed';

export interface CryptoPaymentRecord {
  id: string;
  owner_id: string;
  account_id: string;
  target_account_id: string;
  target_address: string;
  amount: bigint;
  currency: string;
  message: string;
  status: CryptoPaymentStatus;
  created_at: number;
}

export type PaymentRequestStatus = 'pending' | 'paid' | 'declined' | 'expired' | 'canceled';

export interface PaymentRequestRecord {
  id: string;
  owner_id: string;
  receiving_account_id: string;
  payer_id: string;
  payer_contact_info: string;
  amount: bigint;
  currency: string;
  message: string;
  status: PaymentRequestStatus;
  ledger_transaction_id: string | null;
  created_at: number;
  expires_at: number;
  updated_at: number;
}

/** Rows as read back: integers come out as BigInt (safeIntegers), timestamps included. */
export type Row<R> = Omit<R, 'created_at' | 'expires_at' | 'updated_at'> & {
  created_at: bigint;
  expires_at: bigint;
  updated_at: bigint;
};

/** One owner's rows of a table, newest first (ties by id), and single rows by id. SQL only. */
function ownedTable<R>(db: Db, table: string, columns: string[]) {
  const insert = db.prepare(
    `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`,
  );
  const forOwner = db
    .prepare(`SELECT * FROM ${table} WHERE id = ? AND owner_id = ?`)
    .safeIntegers(true);
  const byId = db.prepare(`SELECT * FROM ${table} WHERE id = ?`).safeIntegers(true);
  const count = db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE owner_id = ?`);
  const page = db
    .prepare(
      `SELECT * FROM ${table} WHERE owner_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    )
    .safeIntegers(true);
  return {
    insert: (r: R) => void insert.run(r),
    forOwner: (id: string, ownerId: string) => forOwner.get(id, ownerId) as Row<R> | undefined,
    byId: (id: string) => byId.get(id) as Row<R> | undefined,
    count: (ownerId: string) => (count.get(ownerId) as { n: number }).n,
    page: (ownerId: string, limit: number, offset: number) =>
      page.all(ownerId, limit, offset) as Array<Row<R>>,
  };
}

export function createCryptoExchangeRepository(db: Db) {
  const table = ownedTable<CryptoExchangeRecord>(db, 'crypto_exchanges', [
    'id',
    'owner_id',
    'source_account_id',
    'target_account_id',
    'rate',
    'source_amount',
    'target_amount',
    'source_currency',
    'target_currency',
    'owner_payment',
    'trader_payment',
    'status',
    'created_at',
  ]);
  return {
    ...table,
    ...pendingSendQueries<Row<CryptoExchangeRecord>, Exclude<CryptoExchangeStatus, 'pending'>>(
      db,
      'crypto_exchanges',
      'target_amount',
    ),
  };
}

export function createCryptoPaymentRepository(db: Db) {
  return {
    ...ownedTable<CryptoPaymentRecord>(db, 'crypto_payments', [
      'id',
      'owner_id',
      'account_id',
      'target_account_id',
      'target_address',
      'amount',
      'currency',
      'message',
      'status',
      'created_at',
    ]),
    ...pendingSendQueries<Row<CryptoPaymentRecord>, CryptoPaymentStatus>(db, 'crypto_payments'),
  };
}

export function createPaymentRequestRepository(db: Db) {
  const due = db
    .prepare(
      `SELECT *, ${userWorkspaceSql('owner_id')} AS tenant FROM payment_requests INDEXED BY payment_requests_pending
       WHERE status = 'pending' AND ${dueOnTenantClock('expires_at', userWorkspaceSql('owner_id'))} ORDER BY expires_at, id LIMIT 500`,
    )
    .safeIntegers(true);
  const earliest = earliestOf(
    db,
    'payment_requests',
    'expires_at',
    "status = 'pending'",
    `owner_id IN (${usersOfWorkspaceSql})`,
  );
  const setStatus = db.prepare(
    'UPDATE payment_requests SET status = ?, ledger_transaction_id = ?, updated_at = ? WHERE id = ?',
  );
  const recent = db
    .prepare('SELECT * FROM payment_requests ORDER BY created_at DESC, id DESC LIMIT ?')
    .safeIntegers(true);
  return {
    ...ownedTable<PaymentRequestRecord>(db, 'payment_requests', [
      'id',
      'owner_id',
      'receiving_account_id',
      'payer_id',
      'payer_contact_info',
      'amount',
      'currency',
      'message',
      'status',
      'ledger_transaction_id',
      'created_at',
      'expires_at',
      'updated_at',
    ]),
    /** Pending requests whose expiry is at or before `now` (sandbox micros) on their tenant's clock, a bounded batch. */
    dueExpiry: (now: number) => due.all({ at: now }) as Array<Tenanted<Row<PaymentRequestRecord>>>,
    /** The earliest expiry of a pending request (of all, or of one workspace). */
    earliestExpiry: earliest,
    setStatus: (id: string, status: PaymentRequestStatus, tx: string | null, now: number) =>
      void setStatus.run(status, tx, now, id),
    /** The newest requests of every owner (the QA dashboard's list). */
    recent: (limit: number) => recent.all(limit) as Array<Row<PaymentRequestRecord>>,
  };
}

export type CryptoExchangeRepository = ReturnType<typeof createCryptoExchangeRepository>;
export type CryptoPaymentRepository = ReturnType<typeof createCryptoPaymentRepository>;
export type PaymentRequestRepository = ReturnType<typeof createPaymentRequestRepository>;

export interface CryptoRouteRecord {
  id: string;
  owner_id: string;
  monitored_address: string;
  stock_address: string;
  created_at: number;
}

/** A developer's crypto routes (`crypto_routes`), oldest first. SQL only. */
export function createCryptoRouteRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO crypto_routes (id, owner_id, monitored_address, stock_address, created_at)
     VALUES (@id, @owner_id, @monitored_address, @stock_address, @created_at)`,
  );
  const forOwner = db.prepare('SELECT * FROM crypto_routes WHERE id = ? AND owner_id = ?');
  const ofOwner = db.prepare(
    'SELECT * FROM crypto_routes WHERE owner_id = ? ORDER BY created_at, id',
  );
  const byMonitored = db.prepare(
    'SELECT id FROM crypto_routes WHERE owner_id = ? AND monitored_address = ?',
  );
  const remove = db.prepare('DELETE FROM crypto_routes WHERE id = ?');
  return {
    insert: (r: CryptoRouteRecord) => void insert.run(r),
    forOwner: (id: string, ownerId: string) =>
      forOwner.get(id, ownerId) as CryptoRouteRecord | undefined,
    ofOwner: (ownerId: string) => ofOwner.all(ownerId) as CryptoRouteRecord[],
    monitoredTaken: (ownerId: string, address: string) =>
      byMonitored.get(ownerId, address) !== undefined,
    remove: (id: string) => void remove.run(id),
  };
}

export type CryptoRouteRepository = ReturnType<typeof createCryptoRouteRepository>;
