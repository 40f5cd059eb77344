import { ok, type Handlers } from '../http/operation.js';
import type { BuyOrderService } from './buy-orders.service.js';
import { checkSellOrderAccess } from './sell-order-access.js';
import { sellOrderInput } from './sell-order-input.js';
import type { SellOrderRow } from './orders.repo.js';
import { buyOrderCreated, sellOrderHeaders, sellOrderResource } from './orders.view.js';
import type { SellOrderService } from './sell-orders.service.js';

/** One sell order in the real body, with the sandbox's fee and total beside it in `X-Sandbox-*` headers. */
function sold<S extends 200 | 201>(row: SellOrderRow, status: S) {
  return {
    status,
    body: { order: sellOrderResource(row), success: true as const },
    headers: sellOrderHeaders(row),
  };
}

/**
 * Sell and buy orders of the developer API (HMAC; scoped to the signing application's owner), also at the
 * paths the public clients call, and the control calls createBuyOrder, setBuyOrderStatus, setSellOrderStatus
 * (docs/design.md#public-api, #control-api).
 */
export function orderHandlers(sell: SellOrderService, buy: BuyOrderService): Handlers {
  return {
    createSellOrder: ({ app, body, c }) => {
      checkSellOrderAccess(app, c, 'create');
      return sold(sell.create(app, sellOrderInput(body), c.req.header('access-otp')), 201);
    },
    // The v2 create, the v1 list and the v2 retrieve are the same operations at the paths the public clients call.
    createSellOrderV2: ({ app, body, c }) => {
      checkSellOrderAccess(app, c, 'create');
      return sold(sell.create(app, sellOrderInput(body), c.req.header('access-otp')), 201);
    },
    getSellOrder: ({ app, params, c }) => {
      checkSellOrderAccess(app, c, 'read');
      return sold(sell.get(app.owner_id, params.order_id), 200);
    },
    getSellOrderV2: ({ app, params, c }) => {
      checkSellOrderAccess(app, c, 'retrieve-v2');
      return sold(sell.get(app.owner_id, params.order_id), 200);
    },
    listSellOrders: ({ app, query, c }) => {
      checkSellOrderAccess(app, c, 'read');
      return ok(sell.list(app.owner_id, query));
    },
    listSellOrdersV1: ({ app, query, c }) => {
      checkSellOrderAccess(app, c, 'read');
      return ok(sell.list(app.owner_id, query));
    },
    placeBuyOrder: ({ app, body }) =>
      ok({ order: buyOrderCreated(buy.place(app, body)), success: true as const }, 201),
    getBuyOrder: ({ app, params }) =>
      ok({ order: buy.get(app.owner_id, params.order_id), success: true as const }),
    markBuyOrderPaid: ({ app, params }) =>
      ok({ order: buy.markPaid(app.owner_id, params.order_id), success: true as const }),
    cancelBuyOrder: ({ app, params }) =>
      ok({ order: buy.cancel(app.owner_id, params.order_id), success: true as const }),
    // The 2014 docs' item paths (`/api/v2/buyorder/<id>`): the same three operations.
    getBuyOrderV2: ({ app, params }) =>
      ok({ order: buy.get(app.owner_id, params.order_id), success: true as const }),
    markBuyOrderPaidV2: ({ app, params }) =>
      ok({ order: buy.markPaid(app.owner_id, params.order_id), success: true as const }),
    cancelBuyOrderV2: ({ app, params }) =>
      ok({ order: buy.cancel(app.owner_id, params.order_id), success: true as const }),
    getBuyQuote: ({ query }) => ok(buy.quote(query)),
    listBuyOrders: ({ app, query }) => ok(buy.list(app.owner_id, query)),
    listBuyOrdersV1: ({ app, query }) => ok(buy.list(app.owner_id, query)),
    createBuyOrder: ({ body }) => ok({ order: buy.create(body), success: true as const }, 201),
    setBuyOrderStatus: ({ params, body }) =>
      ok({ order: buy.setStatus(params.order_id, body.status), success: true as const }),
    setSellOrderStatus: ({ params, body }) =>
      ok({ order: sell.setStatus(params.order_id, body.status), success: true as const }),
  };
}
