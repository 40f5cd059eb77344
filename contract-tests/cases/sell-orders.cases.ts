import type { ContractCase } from '../harness/case.context.js';
import { units } from '../harness/decimal.js';
import { allFeeBrackets, amountIn, firstFeeBracket } from './developer.cases.js';
import { pesoAccount } from './money.support.js';

/** Sell orders (docs/design.md#public-api): cash-outs at a payout outlet, debited amount + fee at once. */
export const sellOrderCases: ContractCase[] = [
  {
    name: 'sell orders: create, retrieve and list a sell order; amount + fee debited at once',
    tags: ['money'],
    async run(ctx) {
      const bracket = await firstFeeBracket(ctx);
      const amount = amountIn(bracket);
      const quote = await ctx.dev.quotePartnerPayoutOutletFee({
        outlet_id: bracket.payment_outlet,
        amount,
      });
      const before = await pesoAccount(ctx);
      const ext = ctx.ref('sell');
      const order = await ctx.dev.createSellOrder(
        {
          outlet_id: bracket.payment_outlet,
          amount,
          currency: 'PHP',
          pay_with_wallet: 'PBTC',
          external_transaction_id: ext,
        },
        { otp: await ctx.otp() },
      );
      ctx.expectLastStatus('createSellOrder', 201);
      const c = (ok: boolean, msg: string, op = 'createSellOrder') =>
        ctx.check(ok, `sell order ${order.id}: ${msg}`, op);
      c(order.delivery_status === 'pending_payment', `delivery_status is ${order.delivery_status}`);
      c(
        units(order.amount) === units(amount) &&
          order.payment_outlet.id === bracket.payment_outlet &&
          order.external_transaction_id === ext,
        `came back as ${JSON.stringify(order)}`,
      );
      // The real body has no fee: the sandbox names it in X-Sandbox-Fee / X-Sandbox-Total (absent elsewhere).
      const created = ctx.expectPresent(
        ctx.lastResponse('createSellOrder'),
        'no createSellOrder response',
      ).headers;
      const [fee, total] = [created.get('x-sandbox-fee'), created.get('x-sandbox-total')];
      if (fee !== null)
        c(
          units(fee) === units(quote.fee) && units(total ?? '') === units(quote.total),
          `fee/total ${fee}/${total}, quoted ${quote.fee}/${quote.total}`,
        );
      const got = await ctx.dev.getSellOrder(order.id);
      c(
        got.id === order.id && got.amount === order.amount,
        'retrieves differently',
        'getSellOrder',
      );
      c(
        (await ctx.dev.listSellOrders({ limit: 5 })).orders[0]?.id === order.id,
        'is not first in the sell order list',
        'listSellOrders',
      );
      if (ctx.info.kind === 'sandbox') {
        const after = await pesoAccount(ctx);
        c(
          units(before.balance) - units(after.balance) === units(quote.total),
          `balance went from ${before.balance} to ${after.balance}, expected −${quote.total}`,
          'listCryptoAccounts',
        );
      }
    },
  },
  {
    name: 'sell orders: insufficient balance is 400 insufficient_balance, an unknown outlet is 400',
    tags: ['money'],
    async run(ctx) {
      const bracket = (await allFeeBrackets(ctx)).reduce<
        { payment_outlet: string; until_amount: string } | undefined
      >((m, b) => (!m || units(b.until_amount) > units(m.until_amount) ? b : m), undefined);
      const account = await pesoAccount(ctx);
      const otp = await ctx.otp();
      if (bracket && units(account.balance) < units(bracket.until_amount)) {
        const err = await ctx.rejects(
          ctx.dev.createSellOrder(
            { outlet_id: bracket.payment_outlet, amount: bracket.until_amount, currency: 'PHP' },
            { otp },
          ),
          400,
          'insufficient_balance',
        );
        ctx.check(
          err.fieldErrors.non_field_errors?.[0] === 'Insufficient balance.',
          `message ${JSON.stringify(err.fieldErrors)}`,
          'createSellOrder',
        );
      }
      await ctx.rejects(
        ctx.dev.createSellOrder(
          { outlet_id: `ct-no-outlet-${ctx.info.runId}`, amount: '100', currency: 'PHP' },
          { otp },
        ),
        400,
        'validation_error',
        'outlet_id',
      );
    },
  },
  {
    name: 'sell orders: a sell order canceled through the control API is refunded in full',
    tags: ['money', 'sandbox'],
    async run(ctx) {
      const bracket = await firstFeeBracket(ctx);
      const before = await pesoAccount(ctx);
      const order = await ctx.dev.createSellOrder(
        { outlet_id: bracket.payment_outlet, amount: amountIn(bracket), currency: 'PHP' },
        { otp: await ctx.otp() },
      );
      const res = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/sellorders/${order.id}/status`,
        body: { status: 'canceled' },
        operationId: 'setSellOrderStatus',
      });
      ctx.expectStatus(res, 200);
      ctx.check(
        (res.body as { order: { delivery_status: string } }).order.delivery_status === 'canceled',
        'the order did not move to canceled',
        'setSellOrderStatus',
      );
      ctx.check(
        (await ctx.dev.getSellOrder(order.id)).delivery_status === 'canceled',
        'the retrieved order is not canceled',
        'getSellOrder',
      );
      ctx.check(
        (await pesoAccount(ctx)).balance === before.balance,
        'the canceled sell order was not refunded in full',
        'listCryptoAccounts',
      );
      const again = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/sellorders/${order.id}/status`,
        body: { status: 'completed' },
        operationId: 'setSellOrderStatus',
      });
      ctx.expectError(again, 409, 'invalid_state_transition');
    },
  },
  {
    name: 'sell orders: coins_transfer refuses an unknown target, and pays into the target wallet when the order completes',
    tags: ['money', 'sandbox'],
    async run(ctx) {
      // A seller and a receiver of the same tenant, both made through the control API in the run's
      // workspace (nothing is left in the shared base data).
      const app = await ctx.control.createApp({
        name: `ct-${ctx.info.runId}-coins-transfer`,
        mfa_whitelisted: true,
        balance: '100',
        workspace_id: ctx.info.workspaceId,
      });
      const dev = ctx.devFor(app.api_key, app.api_secret);
      const made = await ctx.control.request<{
        customer: { email: string; accounts: Array<{ id: string; currency: string }> };
      }>({
        method: 'POST',
        path: '/_sandbox/customers',
        body: { workspace_id: ctx.info.workspaceId },
        operationId: 'createCustomer',
      });
      ctx.expectStatus(made, 201);
      const wallet = ctx.expectPresent(
        made.body.customer.accounts.find((a) => a.currency === 'PHP'),
        'a new customer has no PHP wallet',
        'createCustomer',
      ).id;
      const before = {
        seller: (await pesoAccount(ctx, dev)).balance,
        target: (await ctx.control.getAccount(wallet)).balance,
      };
      const order = { payment_outlet: 'coins_transfer', amount: '25', currency: 'PHP' };
      const nobody = `ct-nobody-${ctx.info.runId}@example.invalid`;
      await ctx.rejects(
        dev.createSellOrder({ ...order, target_address: nobody }),
        400,
        'unknown_target',
        'target_address',
      );
      ctx.check(
        (await pesoAccount(ctx, dev)).balance === before.seller,
        'a refused coins_transfer order moved money',
        'createSellOrder',
      );
      const sold = await dev.createSellOrder({
        ...order,
        target_address: made.body.customer.email,
      });
      ctx.expectLastStatus('createSellOrder', 201);
      const echoed = sold.fields.target_address;
      const listed = sold.required_fields.find((f) => f.name === 'target_address');
      ctx.check(
        sold.delivery_status === 'pending_payment' &&
          echoed === made.body.customer.email &&
          listed?.value === echoed,
        `came back as ${JSON.stringify(sold)}`,
        'createSellOrder',
      );
      const done = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/sellorders/${sold.id}/status`,
        body: { status: 'completed' },
        operationId: 'setSellOrderStatus',
      });
      ctx.expectStatus(done, 200);
      const after = {
        seller: (await pesoAccount(ctx, dev)).balance,
        target: (await ctx.control.getAccount(wallet)).balance,
      };
      ctx.check(
        units(before.seller) - units(after.seller) === units('25'),
        `the seller went from ${before.seller} to ${after.seller}, expected −25`,
        'createSellOrder',
      );
      ctx.check(
        units(after.target) - units(before.target) === units('25'),
        `the target wallet went from ${before.target} to ${after.target}, expected +25`,
        'setSellOrderStatus',
      );
    },
  },
];
