import type { Db } from '../db/open.js';

export type SellOrderStatus = 'pending_payment' | 'processing' | 'completed' | 'failed' | 'canceled';
export type BuyOrderStatus = 'pending_payment' | 'payment_received' | 'released' | 'canceled' | 'escrow_expired';

export interface SellOrderRecord {
  id: string;
  owner_id: string;
  account_id: string;
  outlet_id: string;
  amount: bigint;
  fee: bigint;
  currency: string;
  delivery_status: SellOrderStatus;
  external_transaction_id: string | null;
  target_address: string | null;
  fields: string;
  debit_transaction_id: string | null;
  auto_advance: number;
  created_at: number;
  status_changed_at: number;
}

/** A stored sell order with its outlet's name; integers come back as BigInt. */
export interface SellOrderRow extends Omit<SellOrderRecord, 'auto_advance' | 'created_at' | 'status_changed_at'> {
  auto_advance: bigint;
  created_at: bigint;
  status_changed_at: bigint;
  outlet_name: string;
}

export interface BuyOrderRecord {
  id: string;
  owner_id: string;
  amount: bigint;
  currency: string;
  payment_method: string;
  status: BuyOrderStatus;
  created_at: number;
  expires_at: number;
}

export interface BuyOrderRow extends Omit<BuyOrderRecord, 'created_at' | 'expires_at'> {
  created_at: bigint;
  expires_at: bigint;
}

const SELL = 'SELECT s.*, o.name AS outlet_name FROM sell_orders s JOIN outlets o ON o.id = s.outlet_id';

/** Sell and buy orders. SQL only; every list is one owner's, newest first, ties broken by id. */
export function createOrderRepository(db: Db) {
  const insertSell = db.prepare(
    `INSERT INTO sell_orders (id, owner_id, account_id, outlet_id, amount, fee, currency, delivery_status, external_transaction_id,
       target_address, fields, debit_transaction_id, auto_advance, created_at, status_changed_at)
     VALUES (@id, @owner_id, @account_id, @outlet_id, @amount, @fee, @currency, @delivery_status, @external_transaction_id,
       @target_address, @fields, @debit_transaction_id, @auto_advance, @created_at, @status_changed_at)`,
  );
  const sellById = db.prepare(`${SELL} WHERE s.id = ?`).safeIntegers(true);
  const sellForOwner = db.prepare(`${SELL} WHERE s.id = ? AND s.owner_id = ?`).safeIntegers(true);
  const sellCount = db.prepare('SELECT COUNT(*) AS n FROM sell_orders WHERE owner_id = ?');
  const sellPage = db
    .prepare(`${SELL} WHERE s.owner_id = ? ORDER BY s.created_at DESC, s.id DESC LIMIT ? OFFSET ?`)
    .safeIntegers(true);
  // Compare-and-set on the status, so a control call and the clock can never both move one order.
  const setSellStatus = db.prepare(
    'UPDATE sell_orders SET delivery_status = @to, status_changed_at = @at WHERE id = @id AND delivery_status = @from',
  );
  const dueSell = db
    .prepare(
      `${SELL} WHERE s.auto_advance = 1 AND s.delivery_status IN ('pending_payment', 'processing') AND s.status_changed_at <= ?
       ORDER BY s.status_changed_at, s.id LIMIT 500`,
    )
    .safeIntegers(true);

  const insertBuy = db.prepare(
    `INSERT INTO buy_orders (id, owner_id, amount, currency, payment_method, status, created_at, expires_at)
     VALUES (@id, @owner_id, @amount, @currency, @payment_method, @status, @created_at, @expires_at)`,
  );
  const buyForOwner = db.prepare('SELECT * FROM buy_orders WHERE id = ? AND owner_id = ?').safeIntegers(true);
  const buyCount = db.prepare('SELECT COUNT(*) AS n FROM buy_orders WHERE owner_id = ?');
  const buyPage = db
    .prepare('SELECT * FROM buy_orders WHERE owner_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?')
    .safeIntegers(true);

  return {
    insertSell: (r: SellOrderRecord) => void insertSell.run(r),
    sellById: (id: string) => sellById.get(id) as SellOrderRow | undefined,
    sellForOwner: (id: string, ownerId: string) => sellForOwner.get(id, ownerId) as SellOrderRow | undefined,
    sellCount: (ownerId: string) => (sellCount.get(ownerId) as { n: number }).n,
    sellPage: (ownerId: string, limit: number, offset: number) => sellPage.all(ownerId, limit, offset) as SellOrderRow[],
    setSellStatus: (id: string, from: SellOrderStatus, to: SellOrderStatus, at: number) =>
      setSellStatus.run({ id, from, to, at }).changes === 1,
    /** In-flight orders of the clock whose current status began at or before `before`. */
    dueSell: (before: number) => dueSell.all(before) as SellOrderRow[],
    insertBuy: (r: BuyOrderRecord) => void insertBuy.run(r),
    buyForOwner: (id: string, ownerId: string) => buyForOwner.get(id, ownerId) as BuyOrderRow | undefined,
    buyCount: (ownerId: string) => (buyCount.get(ownerId) as { n: number }).n,
    buyPage: (ownerId: string, limit: number, offset: number) => buyPage.all(ownerId, limit, offset) as BuyOrderRow[],
  };
}

export type OrderRepository = ReturnType<typeof createOrderRepository>;
