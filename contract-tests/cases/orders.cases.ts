import type { ContractCase } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';
import { allFeeBrackets, amountIn } from './developer.cases.js';

type Order = { id: string; delivery_status: string };

/** Sell and buy orders at the paths the public clients call (POST /v2, GET /v1 lists, GET /v2/{id}). */
export const orderCases: ContractCase[] = [
  {
    name: 'orders: a sell order created with POST /api/v2/sellorder/ is the one GET /v2/sellorder/{id} and GET /v1/sellorder answer',
    tags: ['money'],
    async run(ctx) {
      const bracket = (await allFeeBrackets(ctx))[0]!;
      const otp = await ctx.otp();
      const created = await ctx.dev.request<{ order: Order; success: boolean }>({
        method: 'POST',
        path: '/api/v2/sellorder/',
        body: { payment_outlet: bracket.payment_outlet, amount: amountIn(bracket), currency: 'PHP', pay_with_wallet: 'PBTC', ...(otp ? { otp } : {}) },
        operationId: 'createSellOrderV2',
      });
      ctx.expectStatus(created, 201);
      const order = created.body.order;
      ctx.check(order.delivery_status === 'pending_payment', `a new sell order is ${order.delivery_status}`, 'createSellOrderV2');
      const got = await ctx.dev.request<{ order: Order }>({ method: 'GET', path: `/api/v2/sellorder/${order.id}/`, query: { sellorder_id: order.id }, operationId: 'getSellOrderV2' });
      ctx.expectStatus(got, 200);
      ctx.check(got.body.order.id === order.id, 'GET /v2/sellorder/{id} answered another order', 'getSellOrderV2');
      const list = await ctx.dev.request<{ orders: Order[] }>({ method: 'GET', path: '/v1/sellorder', query: { limit: 5, offset: 0 }, operationId: 'listSellOrdersV1' });
      ctx.expectStatus(list, 200);
      ctx.check(list.body.orders[0]?.id === order.id, 'the new order is not first in GET /v1/sellorder', 'listSellOrdersV1');
      const v2 = await ctx.dev.listSellOrders({ limit: 5, offset: 0 });
      ctx.check(sameJson(list.body.orders.map((o) => o.id), v2.orders.map((o) => o.id)), 'GET /v1/sellorder and GET /v2/sellorder list differently', 'listSellOrdersV1');
    },
  },
];
