import type { ContractCase } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';
import { units } from '../harness/decimal.js';
import { amountIn, firstFeeBracket } from './developer.cases.js';

type Order = { id: string; delivery_status: string };
type BuyOrder = {
  id: string;
  status: string;
  currency_amount: string;
  marked_paid_time: string | null;
  canceled_time: string | null;
};

/** Sell and buy orders at the paths the public clients call (POST /v2, GET /v1 lists, GET /v2/{id}). */
export const orderCases: ContractCase[] = [
  {
    name: 'orders: a sell order created with POST /api/v2/sellorder/ is the one GET /v2/sellorder/{id} and GET /v1/sellorder answer',
    tags: ['money'],
    async run(ctx) {
      const bracket = await firstFeeBracket(ctx);
      const otp = await ctx.otp();
      const created = await ctx.dev.request<{ order: Order; success: boolean }>({
        method: 'POST',
        path: '/api/v2/sellorder/',
        body: {
          payment_outlet: bracket.payment_outlet,
          amount: amountIn(bracket),
          currency: 'PHP',
          pay_with_wallet: 'PBTC',
          ...(otp ? { otp } : {}),
        },
        operationId: 'createSellOrderV2',
      });
      ctx.expectStatus(created, 201);
      const order = created.body.order;
      ctx.check(
        order.delivery_status === 'pending_payment',
        `a new sell order is ${order.delivery_status}`,
        'createSellOrderV2',
      );
      const got = await ctx.dev.request<{ order: Order }>({
        method: 'GET',
        // No trailing slash: the real service answers the slashed form 404 (as the npm client learnt).
        path: `/api/v2/sellorder/${order.id}`,
        query: { sellorder_id: order.id },
        operationId: 'getSellOrderV2',
      });
      ctx.expectStatus(got, 200);
      ctx.check(
        got.body.order.id === order.id,
        'GET /v2/sellorder/{id} answered another order',
        'getSellOrderV2',
      );
      const list = await ctx.dev.request<{ orders: Order[] }>({
        method: 'GET',
        path: '/v1/sellorder',
        query: { limit: 5, offset: 0 },
        operationId: 'listSellOrdersV1',
      });
      ctx.expectStatus(list, 200);
      ctx.check(
        list.body.orders[0]?.id === order.id,
        'the new order is not first in GET /v1/sellorder',
        'listSellOrdersV1',
      );
      const v2 = await ctx.dev.listSellOrders({ limit: 5, offset: 0 });
      ctx.check(
        sameJson(
          list.body.orders.map((o) => o.id),
          v2.orders.map((o) => o.id),
        ),
        'GET /v1/sellorder and GET /v2/sellorder list differently',
        'listSellOrdersV1',
      );
    },
  },
  {
    name: 'orders: a buy order placed with POST /api/v2/buyorder/ is pending_payment, listed on v1, and PUT d/api/buyorder/{id}/ marks it paid once',
    tags: ['write'],
    async run(ctx) {
      const created = await ctx.dev.request<{ order: BuyOrder }>({
        method: 'POST',
        path: '/api/v2/buyorder/',
        body: { currency_amount: '100', payment_method: 'cash_payment', currency: 'PHP' },
        operationId: 'placeBuyOrder',
      });
      ctx.expectStatus(created, 201);
      const order = created.body.order;
      ctx.check(
        order.status === 'pending_payment' && order.marked_paid_time === null,
        `a new buy order came back as ${JSON.stringify(order)}`,
        'placeBuyOrder',
      );
      const list = await ctx.dev.request<{ orders: BuyOrder[] }>({
        method: 'GET',
        path: '/v1/buyorder',
        query: { limit: 5, offset: 0 },
        operationId: 'listBuyOrdersV1',
      });
      ctx.expectStatus(list, 200);
      ctx.check(
        list.body.orders[0]?.id === order.id,
        'the new buy order is not first in GET /v1/buyorder',
        'listBuyOrdersV1',
      );
      const paid = await ctx.dev.request<{ order: BuyOrder }>({
        method: 'PUT',
        path: `/d/api/buyorder/${order.id}/`,
        operationId: 'markBuyOrderPaid',
      });
      ctx.expectStatus(paid, 200);
      ctx.check(
        paid.body.order.status === 'payment_received' && paid.body.order.marked_paid_time !== null,
        `a paid buy order came back as ${JSON.stringify(paid.body.order)}`,
        'markBuyOrderPaid',
      );
      ctx.expectError(
        await ctx.dev.request({
          method: 'PUT',
          path: `/d/api/buyorder/${order.id}/`,
          operationId: 'markBuyOrderPaid',
        }),
        409,
        'invalid_state_transition',
      );
      ctx.expectError(
        await ctx.dev.request({
          method: 'POST',
          path: '/v2/buyorder',
          body: { payment_method: 'cash_payment' },
          operationId: 'placeBuyOrder',
        }),
        400,
        'validation_error',
        'currency_amount',
      );
    },
  },
  {
    name: 'orders: a paid buy order released through the control API credits the wallet; a canceled one cannot be released',
    tags: ['money', 'sandbox'],
    async run(ctx) {
      const peso = async () =>
        ctx.expectPresent(
          (await ctx.dev.listCryptoAccounts({ currency: 'PBTC', per_page: 100 }))[
            'crypto-accounts'
          ][0],
          'the application owner has no peso wallet account (currency PBTC)',
          'listCryptoAccounts',
        );
      const place = async () =>
        (
          await ctx.dev.request<{ order: BuyOrder }>({
            method: 'POST',
            path: '/v2/buyorder',
            body: { amount: '12.5', payment_method: 'cash_payment' },
            operationId: 'placeBuyOrder',
          })
        ).body.order;
      const status = (id: string, to: string) =>
        ctx.control.request<{ order: BuyOrder }>({
          method: 'POST',
          path: `/_sandbox/buyorders/${id}/status`,
          body: { status: to },
          operationId: 'setBuyOrderStatus',
        });
      const order = await place();
      ctx.expectError(await status(order.id, 'released'), 409, 'invalid_state_transition');
      ctx.expectStatus(
        await ctx.dev.request({
          method: 'PUT',
          path: `/v1/buyorder/${order.id}`,
          body: {},
          operationId: 'markBuyOrderPaid',
        }),
        200,
      );
      const before = await peso();
      const released = await status(order.id, 'released');
      ctx.expectStatus(released, 200);
      ctx.check(
        released.body.order.status === 'released',
        'the buy order did not move to released',
        'setBuyOrderStatus',
      );
      const after = await peso();
      ctx.check(
        units(after.balance) - units(before.balance) === units('12.5'),
        `balance went from ${before.balance} to ${after.balance}, expected +12.5`,
        'setBuyOrderStatus',
      );
      const other = await place();
      const canceled = await status(other.id, 'canceled');
      ctx.expectStatus(canceled, 200);
      ctx.check(
        canceled.body.order.canceled_time !== null,
        'a canceled buy order has no canceled_time',
        'setBuyOrderStatus',
      );
      ctx.expectError(await status(other.id, 'released'), 409, 'invalid_state_transition');
    },
  },
  {
    name: "orders: the 2014 docs' buy order items GET/PUT/DELETE /api/v2/buyorder/{id} answer the order; DELETE cancels an unpaid one once",
    tags: ['write'],
    async run(ctx) {
      const place = async () => {
        const res = await ctx.dev.request<{ order: BuyOrder }>({
          method: 'POST',
          path: '/api/v2/buyorder',
          body: { currency: 'PHP', btc_amount: 0.025, payment_method: 'bdo_deposit' },
          operationId: 'placeBuyOrder',
        });
        ctx.expectStatus(res, 201);
        return res.body.order;
      };
      const item = (method: string, id: string, operationId: string) =>
        ctx.dev.request<{ order: BuyOrder }>({
          method,
          path: `/api/v2/buyorder/${id}`,
          operationId,
        });
      const order = await place();
      const got = await item('GET', order.id, 'getBuyOrderV2');
      ctx.expectStatus(got, 200);
      ctx.check(
        got.body.order.id === order.id && got.body.order.status === 'pending_payment',
        `GET /api/v2/buyorder/{id} answered ${got.text}`,
        'getBuyOrderV2',
      );
      const canceled = await item('DELETE', order.id, 'cancelBuyOrderV2');
      ctx.expectStatus(canceled, 200);
      ctx.check(
        canceled.body.order.status === 'canceled' && canceled.body.order.canceled_time !== null,
        `a canceled buy order came back as ${canceled.text}`,
        'cancelBuyOrderV2',
      );
      ctx.expectError(
        await item('DELETE', order.id, 'cancelBuyOrderV2'),
        409,
        'invalid_state_transition',
      );
      const paid = await item('PUT', (await place()).id, 'markBuyOrderPaidV2');
      ctx.expectStatus(paid, 200);
      ctx.check(
        paid.body.order.status === 'payment_received',
        `a buy order marked paid at the v2 path came back as ${paid.text}`,
        'markBuyOrderPaidV2',
      );
      ctx.expectError(
        await ctx.dev.request({
          method: 'DELETE',
          path: `/v1/buyorder/${paid.body.order.id}`,
          operationId: 'cancelBuyOrder',
        }),
        409,
        'invalid_state_transition',
      );
    },
  },
];
