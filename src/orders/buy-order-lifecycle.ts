import type { DueJob } from '../clock/due-work.js';
import { ApiError } from '../shared/api-error.js';
import { BalanceLimitError } from '../ledger/ledger.api.js';
import { required } from '../shared/defined.js';
import { MAX_ACCOUNT_UNITS } from '../shared/money.js';
import { BUY_ORDER_TRANSITIONS } from './buy-orders.model.js';
import { ownerWallet, stepStatus, type OrderServiceDeps } from './orders.common.js';
import type { BuyOrderRow, BuyOrderStatus } from './orders.repo.js';

/** What the lifecycle of buy orders needs: the orders, the ledger and the clock's due work. */
export interface BuyOrderLifecycleDeps extends OrderServiceDeps {
  /** Seconds on the owner's clock from marked paid to released (0 = only the control API releases). */
  releaseSeconds: () => number;
}

/**
 * The moves of a buy order (docs/design.md#public-api): each step a compare-and-set on the status, the
 * release the only one that moves money, and the clock's expiries and releases as due work.
 */
export function createBuyOrderLifecycle(d: BuyOrderLifecycleDeps) {
  const walletOf = (ownerId: string, currency: string) => ownerWallet(d.ledger, ownerId, currency);

  const releaseMicros = () => Math.round(d.releaseSeconds() * 1_000_000);
  /** An order of the clock marked paid at `at` is released a delay later. */
  function expectRelease(at: number): void {
    if (releaseMicros() > 0) d.dueWork.expect(at + releaseMicros());
  }

  /** One step of the lifecycle, compare-and-set on the status; the release credits the wallet. */
  function move(row: BuyOrderRow, to: BuyOrderStatus, at: number): BuyOrderRow {
    stepStatus('Buy order', BUY_ORDER_TRANSITIONS, row.status, to, () =>
      d.orders.setBuyStatus(row.id, row.status, to, at),
    );
    if (to === 'payment_received' && row.auto_release) expectRelease(at);
    if (to === 'released') {
      const wallet = row.account_id ?? walletOf(row.owner_id, row.currency)?.id;
      if (!wallet)
        throw ApiError.general(
          'invalid_state_transition',
          `The owner has no ${row.currency} wallet to release the buy order into.`,
        );
      const credit = d.ledger.post('buy_order_release', row.id, [
        { accountId: d.ledger.systemAccount('funding', row.currency), amount: -row.amount },
        { accountId: wallet, amount: row.amount },
      ]);
      d.orders.setBuyCredit(row.id, credit);
    }
    return required(d.orders.buyById(row.id), `buy order ${row.id}`);
  }

  /**
   * The clock's release of a paid order. A wallet that cannot take it (it would pass the ledger's bound,
   * docs/design.md#money-bounds) gets nothing and the order is canceled: a buy order holds no money.
   */
  function release(row: BuyOrderRow, at: number): void {
    try {
      d.unitOfWork(() => move(row, 'released', at));
    } catch (err) {
      if (!(err instanceof BalanceLimitError)) throw err;
      move(row, 'canceled', at);
    }
  }

  /**
   * Refused before anything moves: marking paid an order that its wallet, or the funding account, could
   * never take — counting what is already on its way (orders marked paid and not yet released, whose
   * releases come first, and sends pending to the wallet): an order acknowledged as paid is never
   * canceled later for want of room.
   */
  function requireRoom(row: BuyOrderRow): void {
    const wallet = row.account_id ?? walletOf(row.owner_id, row.currency)?.id;
    if (wallet) d.ledger.requireRoom(wallet, row.amount);
    const fundingId = d.ledger.systemAccount('funding', row.currency);
    const funding = required(d.ledger.get(fundingId), `funding account ${fundingId}`);
    const all = d.orders.buyAwaitingRelease(row.currency) + row.amount;
    if (-funding.balance + all > MAX_ACCOUNT_UNITS) throw new BalanceLimitError(funding);
  }

  /**
   * The clock's own work: unpaid orders past their expiration time expire (dated at that time), and paid
   * orders of the API are released one delay after they were marked paid, as waiting would have done.
   */
  function advanceDue(): number {
    let moved = 0;
    for (
      let due = d.orders.dueExpiry(d.clock.now());
      due.length;
      due = d.orders.dueExpiry(d.clock.now())
    ) {
      d.unitOfWork(() => due.forEach((row) => move(row, 'escrow_expired', Number(row.expires_at))));
      moved += due.length;
    }
    const delay = releaseMicros();
    if (delay <= 0) return moved;
    for (
      let due = d.orders.dueRelease(d.clock.now() - delay);
      due.length;
      due = d.orders.dueRelease(d.clock.now() - delay)
    ) {
      d.unitOfWork(() => due.forEach((row) => release(row, Number(row.marked_paid_at) + delay)));
      moved += due.length;
    }
    return moved;
  }

  /** The clock's expiries and releases as due work (src/clock/due-work.ts), registered by the module. */
  const dueJob = {
    name: 'buy-orders.expiry-and-release',
    run: () => void advanceDue(),
    earliest(ws) {
      const expiry = d.orders.earliestExpiry(ws);
      const paid = releaseMicros() > 0 ? d.orders.earliestRelease(ws) : null;
      const release = paid === null ? null : paid + releaseMicros();
      return expiry === null ? release : release === null ? expiry : Math.min(expiry, release);
    },
  } satisfies DueJob;

  return { walletOf, expectRelease, move, requireRoom, advanceDue, dueJob };
}
