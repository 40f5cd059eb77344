import type { Db } from '../db/open.js';
import { dueOnTenantClock, earliestOf } from '../db/tenant-sql.js';
import { usersOfWorkspaceSql, userWorkspaceSql } from '../identities/tenant.sql.js';

export type SellOrderStatus =
  'pending_payment' | 'processing' | 'completed' | 'failed' | 'canceled';
export type BuyOrderStatus =
  'pending_payment' | 'payment_received' | 'released' | 'canceled' | 'escrow_expired';

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
  /** The wallet a `coins_transfer` order pays into when it completes; null for every other outlet. */
  target_account_id: string | null;
  fields: string;
  debit_transaction_id: string | null;
  auto_advance: number;
  created_at: number;
  status_changed_at: number;
}

/** A stored sell order; integers come back as BigInt. */
export interface StoredSellOrder extends Omit<
  SellOrderRecord,
  'auto_advance' | 'created_at' | 'status_changed_at'
> {
  auto_advance: bigint;
  created_at: bigint;
  status_changed_at: bigint;
}

/** A sell order with its outlet's name (from the outlets module). */
export interface SellOrderRow extends StoredSellOrder {
  outlet_name: string;
  /** The outlet's category: which fields its orders list in `required_fields`. */
  outlet_category: string | null;
}

export interface BuyOrderRecord {
  id: string;
  owner_id: string;
  /** The wallet a release credits; NULL on rows from before it was recorded (the owner's wallet is used). */
  account_id: string | null;
  amount: bigint;
  currency: string;
  payment_method: string;
  instructions: string | null;
  status: BuyOrderStatus;
  marked_paid_at: number | null;
  canceled_at: number | null;
  /** 1 when the sandbox clock releases the order by itself once paid. */
  auto_release: number;
  created_at: number;
  expires_at: number;
  status_changed_at: number;
}

/** A stored buy order; integers come back as BigInt. */
export interface StoredBuyOrder extends Omit<
  BuyOrderRecord,
  | 'marked_paid_at'
  | 'canceled_at'
  | 'auto_release'
  | 'created_at'
  | 'expires_at'
  | 'status_changed_at'
> {
  marked_paid_at: bigint | null;
  canceled_at: bigint | null;
  auto_release: bigint;
  created_at: bigint;
  expires_at: bigint;
  status_changed_at: bigint | null;
  credit_transaction_id: string | null;
}

/** A buy order with its wallet's address (from the ledger). */
export interface BuyOrderRow extends StoredBuyOrder {
  wallet_address: string | null;
}

/** A pay-in outlet as a buy order's payment method names it. */
export interface PayinOutletRow {
  id: string;
  name: string;
  collector: string;
  instructions: string;
}

// This module's tables only: the outlet's name and the wallet's address come from their modules' apis
// (orders.references.ts).
const BUY = 'SELECT b.* FROM buy_orders b';
const SELL = 'SELECT s.* FROM sell_orders s';

/** Sell and buy orders. SQL only; every list is one owner's, newest first, ties broken by id. */
export function createOrderRepository(db: Db) {
  const insertSell = db.prepare(
    `INSERT INTO sell_orders (id, owner_id, account_id, outlet_id, amount, fee, currency, delivery_status, external_transaction_id,
       target_address, target_account_id, fields, debit_transaction_id, auto_advance, created_at, status_changed_at)
     VALUES (@id, @owner_id, @account_id, @outlet_id, @amount, @fee, @currency, @delivery_status, @external_transaction_id,
       @target_address, @target_account_id, @fields, @debit_transaction_id, @auto_advance, @created_at, @status_changed_at)`,
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
      `${SELL} WHERE s.auto_advance = 1 AND s.delivery_status IN ('pending_payment', 'processing')
         AND ${dueOnTenantClock('s.status_changed_at', userWorkspaceSql('s.owner_id'))}
       ORDER BY s.status_changed_at, s.id LIMIT 500`,
    )
    .safeIntegers(true);

  const insertBuy = db.prepare(
    `INSERT INTO buy_orders (id, owner_id, account_id, amount, currency, payment_method, instructions, status, marked_paid_at, canceled_at,
       auto_release, created_at, expires_at, status_changed_at)
     VALUES (@id, @owner_id, @account_id, @amount, @currency, @payment_method, @instructions, @status, @marked_paid_at, @canceled_at,
       @auto_release, @created_at, @expires_at, @status_changed_at)`,
  );
  const buyById = db.prepare(`${BUY} WHERE b.id = ?`).safeIntegers(true);
  const buyForOwner = db.prepare(`${BUY} WHERE b.id = ? AND b.owner_id = ?`).safeIntegers(true);
  const buyCount = db.prepare('SELECT COUNT(*) AS n FROM buy_orders WHERE owner_id = ?');
  // What counts against the daily cash-in limit: every order placed since, except those that never paid.
  const buyPlacedSince = db
    .prepare(
      `SELECT COALESCE(SUM(amount), 0) AS total FROM buy_orders WHERE owner_id = ? AND currency = ?
         AND created_at > ? AND status NOT IN ('canceled', 'escrow_expired')`,
    )
    .safeIntegers(true);
  const buyPage = db
    .prepare(`${BUY} WHERE b.owner_id = ? ORDER BY b.created_at DESC, b.id DESC LIMIT ? OFFSET ?`)
    .safeIntegers(true);
  // Compare-and-set on the status, like sell orders; the move records the times the resource shows.
  const setBuyStatus = db.prepare(
    `UPDATE buy_orders SET status = @to, status_changed_at = @at,
       marked_paid_at = CASE WHEN @to = 'payment_received' THEN @at ELSE marked_paid_at END,
       canceled_at = CASE WHEN @to = 'canceled' THEN @at ELSE canceled_at END
     WHERE id = @id AND status = @from`,
  );
  const setBuyCredit = db.prepare('UPDATE buy_orders SET credit_transaction_id = ? WHERE id = ?');
  // Amounts, not a SUM: paid orders made through the control API may add up past SQLite's integers.
  const paidAmounts = db
    .prepare("SELECT amount FROM buy_orders WHERE status = 'payment_received' AND currency = ?")
    .pluck()
    .safeIntegers(true);
  const sum = (amounts: unknown[]) => (amounts as bigint[]).reduce((n, a) => n + a, 0n);
  const paidInto = db
    .prepare("SELECT amount FROM buy_orders WHERE status = 'payment_received' AND account_id = ?")
    .pluck()
    .safeIntegers(true);
  // Rows from before migration 009 (and fixture history) name no wallet: the owner's in the currency.
  const paidNoWallet = db
    .prepare(
      "SELECT amount FROM buy_orders WHERE status = 'payment_received' AND account_id IS NULL AND owner_id = ? AND currency = ?",
    )
    .pluck()
    .safeIntegers(true);
  const sellInFlightTo = db
    .prepare(
      `SELECT amount FROM sell_orders WHERE target_account_id = ? AND debit_transaction_id IS NOT NULL
         AND delivery_status IN ('pending_payment', 'processing')`,
    )
    .pluck()
    .safeIntegers(true);
  const dueExpiry = db
    .prepare(
      `${BUY} WHERE b.status = 'pending_payment' AND ${dueOnTenantClock('b.expires_at', userWorkspaceSql('b.owner_id'))}
       ORDER BY b.expires_at, b.id LIMIT 500`,
    )
    .safeIntegers(true);
  const dueRelease = db
    .prepare(
      `${BUY} WHERE b.status = 'payment_received' AND b.auto_release = 1
         AND ${dueOnTenantClock('b.marked_paid_at', userWorkspaceSql('b.owner_id'))} ORDER BY b.marked_paid_at, b.id LIMIT 500`,
    )
    .safeIntegers(true);

  return {
    insertSell: (r: SellOrderRecord) => void insertSell.run(r),
    sellById: (id: string) => sellById.get(id) as StoredSellOrder | undefined,
    sellForOwner: (id: string, ownerId: string) =>
      sellForOwner.get(id, ownerId) as StoredSellOrder | undefined,
    sellCount: (ownerId: string) => (sellCount.get(ownerId) as { n: number }).n,
    sellPage: (ownerId: string, limit: number, offset: number) =>
      sellPage.all(ownerId, limit, offset) as StoredSellOrder[],
    setSellStatus: (id: string, from: SellOrderStatus, to: SellOrderStatus, at: number) =>
      setSellStatus.run({ id, from, to, at }).changes === 1,
    /** In-flight orders of the clock whose current status began at or before `before`. */
    dueSell: (before: number) => dueSell.all({ at: before }) as StoredSellOrder[],
    /** The earliest status change of an in-flight order of the clock (of all, or of one workspace). */
    earliestSell: earliestOf(
      db,
      'sell_orders',
      'status_changed_at',
      "auto_advance = 1 AND delivery_status IN ('pending_payment', 'processing')",
      `owner_id IN (${usersOfWorkspaceSql})`,
    ),
    insertBuy: (r: BuyOrderRecord) => void insertBuy.run(r),
    buyById: (id: string) => buyById.get(id) as StoredBuyOrder | undefined,
    buyForOwner: (id: string, ownerId: string) =>
      buyForOwner.get(id, ownerId) as StoredBuyOrder | undefined,
    setBuyStatus: (id: string, from: BuyOrderStatus, to: BuyOrderStatus, at: number) =>
      setBuyStatus.run({ id, from, to, at }).changes === 1,
    setBuyCredit: (id: string, transactionId: string) => void setBuyCredit.run(transactionId, id),
    /** Orders still waiting for payment whose expiration time is at or before `now`. */
    dueExpiry: (now: number) => dueExpiry.all({ at: now }) as StoredBuyOrder[],
    /** The earliest expiration time of an unpaid order (of all, or of one workspace). */
    earliestExpiry: earliestOf(
      db,
      'buy_orders',
      'expires_at',
      "status = 'pending_payment'",
      `owner_id IN (${usersOfWorkspaceSql})`,
    ),
    /** Paid orders of the clock marked paid at or before `before`. */
    dueRelease: (before: number) => dueRelease.all({ at: before }) as StoredBuyOrder[],
    /** The earliest time a paid order of the clock was marked paid (of all, or of one workspace). */
    earliestRelease: earliestOf(
      db,
      'buy_orders',
      'marked_paid_at',
      "status = 'payment_received' AND auto_release = 1",
      `owner_id IN (${usersOfWorkspaceSql})`,
    ),
    /**
     * The total of the buy orders in `currency` marked paid and not yet released: what their releases will
     * take from the funding account, which pays them all.
     */
    buyAwaitingRelease: (currency: string) => sum(paidAmounts.all(currency)),
    /**
     * What the releases of paid buy orders will credit one wallet: those that name it, and with
     * `ownerWallet` (the owner's wallet in `currency` is that one) those that name none.
     */
    buyAwaitingReleaseInto: (
      account: { id: string; owner_id: string; currency: string },
      ownerWallet: boolean,
    ) =>
      sum(paidInto.all(account.id)) +
      (ownerWallet ? sum(paidNoWallet.all(account.owner_id, account.currency)) : 0n),
    /** What `coins_transfer` sell orders still in flight will pay out to a wallet when they complete. */
    sellInFlightTo: (accountId: string) => sum(sellInFlightTo.all(accountId)),
    /** The total of the owner's buy orders in `currency` placed after `since`, except the canceled or expired. */
    buyPlacedSince: (ownerId: string, currency: string, since: number) =>
      (buyPlacedSince.get(ownerId, currency, since) as { total: bigint }).total,
    buyCount: (ownerId: string) => (buyCount.get(ownerId) as { n: number }).n,
    buyPage: (ownerId: string, limit: number, offset: number) =>
      buyPage.all(ownerId, limit, offset) as StoredBuyOrder[],
  };
}
