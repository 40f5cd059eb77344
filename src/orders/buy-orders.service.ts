import { ApiError } from '../http/api-error.js';
import type { IdentityRepository } from '../identities/identities.repo.js';
import type { LedgerRepository } from '../ledger/ledger.repo.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { parseAmount } from '../shared/money.js';
import { offsetMeta, offsetRequest } from '../shared/pagination.js';
import type { BuyOrderStatus, OrderRepository } from './orders.repo.js';
import { buyOrderResource } from './orders.view.js';

/** How long a new buy order waits for payment before its escrow would expire. */
export const BUY_ORDER_LIFETIME_SECONDS = 24 * 3600;

export interface BuyOrderDeps {
  orders: OrderRepository;
  identities: IdentityRepository;
  ledger: LedgerRepository;
  clock: Clock;
  ids: IdFactory;
}

/**
 * Buy orders (docs/design.md#public-api): records only. They come from fixtures or the control API and never move
 * wallet money in the sandbox (the peso side is paid outside, at an outlet).
 */
export function createBuyOrderService(d: BuyOrderDeps) {
  return {
    /** `POST /_sandbox/buyorders`: a buy order for the owner of an application. */
    create(body: { api_key: string; amount: number | string; currency?: string; payment_method?: string; status?: BuyOrderStatus }) {
      const app = d.identities.appByKey(body.api_key);
      if (!app) throw ApiError.general('not_found', `No application with api_key "${body.api_key}".`);
      const currency = (body.currency ?? 'PHP').toUpperCase();
      const currencies = new Set(d.ledger.byOwner('user', app.owner_id).map((a) => a.currency));
      if (!currencies.has(currency)) throw ApiError.field('currency', `"${body.currency}" is not a valid choice.`);
      const now = d.clock.now();
      const id = d.ids();
      d.orders.insertBuy({
        id,
        owner_id: app.owner_id,
        amount: parseAmount(body.amount),
        currency,
        payment_method: body.payment_method ?? 'cash_payment',
        status: body.status ?? 'pending_payment',
        created_at: now,
        expires_at: now + BUY_ORDER_LIFETIME_SECONDS * 1_000_000,
      });
      return buyOrderResource(d.orders.buyForOwner(id, app.owner_id)!);
    },

    get(ownerId: string, id: string) {
      const row = d.orders.buyForOwner(id, ownerId);
      if (!row) throw ApiError.notFound();
      return buyOrderResource(row);
    },

    list(ownerId: string, query: { limit?: number; offset?: number }) {
      const req = offsetRequest(query);
      return { orders: d.orders.buyPage(ownerId, req.limit, req.offset).map(buyOrderResource), meta: offsetMeta(req, d.orders.buyCount(ownerId)) };
    },
  };
}

export type BuyOrderService = ReturnType<typeof createBuyOrderService>;
