import type { DueJob, DueWork } from '../clock/due-work.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../shared/api-error.js';
import type { App, IdentitiesApi } from '../identities/identities.api.js';
import { BalanceLimitError, type LedgerApi } from '../ledger/ledger.api.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { MAX_ACCOUNT_UNITS, parseAmount } from '../shared/money.js';
import { offsetMeta, offsetRequest } from '../shared/pagination.js';
import {
  BANK_DEPOSIT_METHODS,
  BUY_ORDER_LIFETIME_SECONDS,
  BUY_ORDER_TRANSITIONS,
  CASH_PAYMENT,
  CASH_PAYMENT_COLLECTORS,
  instructionsFor,
  walletCurrency,
} from './buy-orders.model.js';
import type { OutletService } from '../outlets/outlets.service.js';
import { checkDailyBuyLimit } from './buy-order-limit.js';
import type { OrderRepository } from './orders.references.js';
import type { BuyOrderRow, BuyOrderStatus } from './orders.repo.js';
import { buyOrderResource } from './orders.view.js';
import { buyQuote } from './buy-quote.js';

export { BUY_ORDER_LIFETIME_SECONDS };

export interface BuyOrderDeps {
  orders: OrderRepository;
  /** The outlets module's pay-in outlets (a payment method names one). */
  payins: Pick<OutletService, 'payinOutlet' | 'payinNames' | 'payinOutlets'>;
  identities: IdentitiesApi;
  ledger: LedgerApi;
  unitOfWork: UnitOfWork;
  clock: Clock;
  ids: IdFactory;
  /** Seconds on the owner's clock from marked paid to released (0 = only the control API releases). */
  releaseSeconds: () => number;
  /** Told when an order's expiry or release falls due. */
  dueWork: Pick<DueWork, 'expect'>;
  /** A control call on an order is on its owner's clock (docs/design.md#the-clock). */
  enterOwner: (ownerId: string) => void;
}

export interface BuyOrderPlaceBody {
  currency_amount?: number | string;
  amount?: number | string;
  btc_amount?: number | string;
  payment_method?: string;
  currency?: string;
}

/**
 * Buy orders (cash-in at a pay-in outlet, docs/design.md#public-api): created `pending_payment`, marked
 * paid by the owner (`payment_received`), then `released` by the sandbox clock or the control API, which
 * credits the owner's wallet from the funding account in one ledger transaction. Waiting too long expires
 * them (`escrow_expired`); the control API can cancel them. Nothing moves money except the release.
 */
export function createBuyOrderService(d: BuyOrderDeps) {
  /** The owner's oldest wallet in a currency (the one fixtures and workspaces fund). */
  function walletOf(ownerId: string, currency: string) {
    return d.ledger
      .byOwner('user', ownerId)
      .filter((a) => a.currency === currency)
      .at(-1);
  }

  function paymentMethodOf(value: string | undefined) {
    if (value === undefined) throw ApiError.field('payment_method', 'This field is required.');
    const cashOutlets = d.payins.payinNames(CASH_PAYMENT_COLLECTORS);
    if (value === CASH_PAYMENT || Object.hasOwn(BANK_DEPOSIT_METHODS, value))
      return { collector: value, cashOutlets };
    const outlet = d.payins.payinOutlet(value);
    if (!outlet) throw ApiError.field('payment_method', `"${value}" is not a valid choice.`);
    return { collector: outlet.collector, outlet, cashOutlets };
  }

  /** The one amount of a create body: `currency_amount`, `amount` or `btc_amount`, equal at the sandbox rate of 1. */
  function amountOf(body: BuyOrderPlaceBody): bigint {
    const given = (['currency_amount', 'amount', 'btc_amount'] as const).filter(
      (k) => body[k] !== undefined,
    );
    if (!given.length) throw ApiError.field('currency_amount', 'This field is required.');
    const values = given.map((k) => parseAmount(body[k]));
    const differs = given.find((_, i) => values[i] !== values[0]);
    if (differs) throw ApiError.field(differs, `Must equal ${given[0]} (the sandbox rate is 1).`);
    return values[0]!;
  }

  function insert(
    ownerId: string,
    o: {
      amount: bigint;
      currency: string;
      status: BuyOrderStatus;
      method: ReturnType<typeof paymentMethodOf>;
    },
  ) {
    const wallet = walletOf(ownerId, o.currency);
    if (!wallet) throw ApiError.field('currency', `"${o.currency}" is not a valid choice.`);
    const now = d.clock.now();
    const id = d.ids();
    d.orders.insertBuy({
      id,
      owner_id: ownerId,
      account_id: wallet.id,
      amount: o.amount,
      currency: o.currency,
      payment_method: o.method.collector,
      instructions: instructionsFor(o.method, { id, amount: o.amount, currency: o.currency }),
      status: o.status,
      marked_paid_at: o.status === 'payment_received' || o.status === 'released' ? now : null,
      canceled_at: o.status === 'canceled' ? now : null,
      auto_release: 1,
      created_at: now,
      expires_at: now + BUY_ORDER_LIFETIME_SECONDS * 1_000_000,
      status_changed_at: now,
    });
    if (o.status === 'pending_payment')
      d.dueWork.expect(now + BUY_ORDER_LIFETIME_SECONDS * 1_000_000);
    if (o.status === 'payment_received') expectRelease(now);
    return buyOrderResource(d.orders.buyById(id)!);
  }

  const releaseMicros = () => Math.round(d.releaseSeconds() * 1_000_000);
  /** An order of the clock marked paid at `at` is released a delay later. */
  function expectRelease(at: number): void {
    if (releaseMicros() > 0) d.dueWork.expect(at + releaseMicros());
  }

  /** One step of the lifecycle, compare-and-set on the status; the release credits the wallet. */
  function move(row: BuyOrderRow, to: BuyOrderStatus, at: number): BuyOrderRow {
    if (
      !BUY_ORDER_TRANSITIONS[row.status].includes(to) ||
      !d.orders.setBuyStatus(row.id, row.status, to, at)
    ) {
      throw ApiError.general(
        'invalid_state_transition',
        `Buy order is ${row.status} and cannot move to ${to}.`,
      );
    }
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
    return d.orders.buyById(row.id)!;
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

  /** Refused before anything moves: marking paid an order that its wallet, or the funding account, could never take. */
  function requireRoom(row: BuyOrderRow): void {
    const wallet = row.account_id
      ? d.ledger.get(row.account_id)
      : walletOf(row.owner_id, row.currency);
    if (wallet && wallet.balance + row.amount > MAX_ACCOUNT_UNITS)
      throw new BalanceLimitError(wallet);
    const funding = d.ledger.get(d.ledger.systemAccount('funding', row.currency))!;
    if (-funding.balance + row.amount > MAX_ACCOUNT_UNITS) throw new BalanceLimitError(funding);
  }

  function ownOrder(ownerId: string, id: string): BuyOrderRow {
    const row = d.orders.buyForOwner(id, ownerId);
    if (!row) throw ApiError.notFound();
    return row;
  }

  const api = {
    /** `POST /v2/buyorder`: a buy order of the signing application's owner, waiting for payment. */
    place(app: App, body: BuyOrderPlaceBody) {
      const amount = amountOf(body);
      const method = paymentMethodOf(body.payment_method);
      const currency = walletCurrency(body.currency);
      return d.unitOfWork(() => {
        checkDailyBuyLimit(d.orders, app, { amount, currency, now: d.clock.now() });
        return insert(app.owner_id, { amount, currency, status: 'pending_payment', method });
      });
    },

    /** `POST /_sandbox/buyorders`: a buy order for the owner of an application, in any status (a record: no money moves). */
    create(body: {
      api_key: string;
      amount: number | string;
      currency?: string;
      payment_method?: string;
      status?: BuyOrderStatus;
    }) {
      const app = d.identities.appByKey(body.api_key);
      if (!app)
        throw ApiError.general('not_found', `No application with api_key "${body.api_key}".`);
      const method = paymentMethodOf(body.payment_method ?? CASH_PAYMENT);
      const currency = walletCurrency(body.currency);
      d.enterOwner(app.owner_id);
      return d.unitOfWork(() =>
        insert(app.owner_id, {
          amount: parseAmount(body.amount),
          currency,
          status: body.status ?? 'pending_payment',
          method,
        }),
      );
    },

    /** `PUT /v1/buyorder/{id}` (the clients' markBuyorderPaid): pending_payment → payment_received. */
    markPaid(ownerId: string, id: string) {
      return d.unitOfWork(() => {
        const row = ownOrder(ownerId, id);
        if (row.status === 'pending_payment') requireRoom(row);
        return buyOrderResource(move(row, 'payment_received', d.clock.now()));
      });
    },

    /** `DELETE /v1/buyorder/{id}` (and the 2014 docs' v2 path): an unpaid order → canceled; nothing moves. */
    cancel(ownerId: string, id: string) {
      return d.unitOfWork(() => {
        const row = ownOrder(ownerId, id);
        if (row.status !== 'pending_payment')
          throw ApiError.general(
            'invalid_state_transition',
            `Buy order is ${row.status} and cannot move to canceled.`,
          );
        return buyOrderResource(move(row, 'canceled', d.clock.now()));
      });
    },

    /** `POST /_sandbox/buyorders/{id}/status`: any owner's order; 409 unless the move is allowed. */
    setStatus(id: string, to: BuyOrderStatus) {
      return d.unitOfWork(() => {
        const row = d.orders.buyById(id);
        if (!row) throw ApiError.notFound();
        d.enterOwner(row.owner_id);
        return buyOrderResource(move(row, to, d.clock.now()));
      });
    },

    /** `GET /v2/buyquote`: every payment method's quote (src/orders/buy-quote.ts). */
    quote: (query: Parameters<typeof buyQuote>[1]) => buyQuote(d.payins.payinOutlets(), query),

    get(ownerId: string, id: string) {
      return buyOrderResource(ownOrder(ownerId, id));
    },

    list(ownerId: string, query: { limit?: number; offset?: number }) {
      const req = offsetRequest(query);
      return {
        orders: d.orders.buyPage(ownerId, req.limit, req.offset).map(buyOrderResource),
        meta: offsetMeta(req, d.orders.buyCount(ownerId)),
      };
    },

    /**
     * The clock's own work: unpaid orders past their expiration time expire (dated at that time), and paid
     * orders of the API are released one delay after they were marked paid, as waiting would have done.
     */
    advanceDue(): number {
      let moved = 0;
      for (
        let due = d.orders.dueExpiry(d.clock.now());
        due.length;
        due = d.orders.dueExpiry(d.clock.now())
      ) {
        d.unitOfWork(() =>
          due.forEach((row) => move(row, 'escrow_expired', Number(row.expires_at))),
        );
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
    },
  };
  return {
    ...api,
    /** The clock's expiries and releases as due work (src/clock/due-work.ts), registered by the module. */
    dueJob: {
      name: 'buy-orders.expiry-and-release',
      run: () => void api.advanceDue(),
      earliest(ws) {
        const expiry = d.orders.earliestExpiry(ws);
        const paid = releaseMicros() > 0 ? d.orders.earliestRelease(ws) : null;
        const release = paid === null ? null : paid + releaseMicros();
        return expiry === null ? release : release === null ? expiry : Math.min(expiry, release);
      },
    } satisfies DueJob,
  };
}

export type BuyOrderService = ReturnType<typeof createBuyOrderService>;
