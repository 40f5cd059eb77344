import { ApiError } from '../shared/api-error.js';
import { required } from '../shared/defined.js';
import {
  requireLiveWorkspace,
  type App,
  type IdentitiesApi,
} from '../identities/identities.api.js';
import type { IdFactory } from '../shared/ids.js';
import { parseAmount } from '../shared/money.js';
import { offsetMeta, offsetRequest } from '../shared/pagination.js';
import {
  BUY_ORDER_LIFETIME_SECONDS,
  CASH_PAYMENT,
  instructionsFor,
  walletCurrency,
} from './buy-orders.model.js';
import { checkDailyBuyLimit } from './buy-order-limit.js';
import {
  buyOrderAmount,
  buyPaymentMethod,
  type BuyOrderPlaceBody,
  type BuyPaymentMethod,
  type Payins,
} from './buy-order-input.js';
import { createBuyOrderLifecycle, type BuyOrderLifecycleDeps } from './buy-order-lifecycle.js';
import type { BuyOrderRow, BuyOrderStatus } from './orders.repo.js';
import { buyOrderResource } from './orders.view.js';
import { buyQuote } from './buy-quote.js';

export interface BuyOrderDeps extends BuyOrderLifecycleDeps {
  /** The outlets module's pay-in outlets (a payment method names one). */
  payins: Payins;
  identities: IdentitiesApi;
  ids: IdFactory;
  /** A control call on an order is on its owner's clock (docs/design.md#the-clock). */
  enterOwner: (ownerId: string) => void;
}

/**
 * Buy orders (cash-in at a pay-in outlet, docs/design.md#public-api): created `pending_payment`, marked
 * paid by the owner (`payment_received`), then `released` by the sandbox clock or the control API, which
 * credits the owner's wallet from the funding account in one ledger transaction. Waiting too long expires
 * them (`escrow_expired`); the control API can cancel them. Nothing moves money except the release.
 */
export function createBuyOrderService(d: BuyOrderDeps) {
  const { walletOf, expectRelease, move, requireRoom, advanceDue, dueJob } =
    createBuyOrderLifecycle(d);
  const paymentMethodOf = (value: string | undefined) => buyPaymentMethod(d.payins, value);

  function insert(
    ownerId: string,
    o: {
      amount: bigint;
      currency: string;
      status: BuyOrderStatus;
      method: BuyPaymentMethod;
    },
  ) {
    const wallet = walletOf(ownerId, o.currency);
    if (!wallet) throw ApiError.field('currency', `"${o.currency}" is not a valid choice.`);
    const now = d.clock.now();
    const id = d.ids();
    // A released order is written paid and released by the lifecycle, so that it credits the wallet in
    // the same ledger transaction, under the same bound, as any release (a refusal rolls the row back).
    const status = o.status === 'released' ? 'payment_received' : o.status;
    d.orders.insertBuy({
      id,
      owner_id: ownerId,
      account_id: wallet.id,
      amount: o.amount,
      currency: o.currency,
      payment_method: o.method.collector,
      instructions: instructionsFor(o.method, { id, amount: o.amount, currency: o.currency }),
      status,
      marked_paid_at: status === 'payment_received' ? now : null,
      canceled_at: status === 'canceled' ? now : null,
      auto_release: 1,
      created_at: now,
      expires_at: now + BUY_ORDER_LIFETIME_SECONDS * 1_000_000,
      status_changed_at: now,
    });
    if (o.status === 'pending_payment')
      d.dueWork.expect(now + BUY_ORDER_LIFETIME_SECONDS * 1_000_000);
    if (o.status === 'payment_received') expectRelease(now);
    const row = required(d.orders.buyById(id), `buy order ${id}`);
    return buyOrderResource(o.status === 'released' ? move(row, 'released', now) : row);
  }

  function ownOrder(ownerId: string, id: string): BuyOrderRow {
    const row = d.orders.buyForOwner(id, ownerId);
    if (!row) throw ApiError.notFound();
    return row;
  }

  return {
    /** `POST /v2/buyorder`: a buy order of the signing application's owner, waiting for payment. */
    place(app: App, body: BuyOrderPlaceBody) {
      const amount = buyOrderAmount(body);
      const method = paymentMethodOf(body.payment_method);
      const currency = walletCurrency(body.currency);
      return d.unitOfWork(() => {
        checkDailyBuyLimit(d.orders, app, { amount, currency, now: d.clock.now() });
        return insert(app.owner_id, { amount, currency, status: 'pending_payment', method });
      });
    },

    /**
     * `POST /_sandbox/buyorders`: a buy order for the owner of an application, in any status. Only
     * `released` moves money: it credits the wallet as the lifecycle's release does (a 400 past the bound).
     */
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

    /** `POST /_sandbox/buyorders/{id}/status`: any owner's order; 409 unless the move is allowed and its workspace live. */
    setStatus(id: string, to: BuyOrderStatus) {
      return d.unitOfWork(() => {
        const row = d.orders.buyById(id);
        if (!row) throw ApiError.notFound();
        requireLiveWorkspace(
          d.identities,
          { type: 'user', id: row.owner_id },
          'buy order',
          `it cannot become ${to}.`,
        );
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

    /** The clock's expiries and releases, now (src/orders/buy-order-lifecycle.ts). */
    advanceDue,
    /** The clock's expiries and releases as due work, registered by the module. */
    dueJob,
  };
}

export type BuyOrderService = ReturnType<typeof createBuyOrderService>;
