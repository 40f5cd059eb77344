import { PaySandboxApiError, type DeveloperClient } from '../../src/client/index.js';
import type { CaseContext, ContractCase } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';
import { money, units } from '../harness/decimal.js';
import { allFeeBrackets, amountIn } from './developer.cases.js';

async function pesoAccount(ctx: CaseContext, dev: DeveloperClient = ctx.dev) {
  const page = await dev.listCryptoAccounts({ currency: 'PBTC', per_page: 100 });
  const account = page['crypto-accounts'][0];
  ctx.check(
    Boolean(account),
    'the application owner has no peso wallet account (currency PBTC)',
    'listCryptoAccounts',
  );
  return account!;
}

const needsTransferTarget = (t: { creds: { transferTarget?: string } }) =>
  t.creds.transferTarget
    ? undefined
    : 'needs someone to receive the transfer: set CONTRACT_TRANSFER_TARGET (account id, email or mobile number)';

/** Cases that move money (docs/design.md#public-api: transfers and sell orders); opt-in outside the sandbox. */
export const moneyCases: ContractCase[] = [
  {
    name: 'transfers: create, retrieve and list transfers; the wallet is debited exactly',
    tags: ['money'],
    needs: needsTransferTarget,
    async run(ctx) {
      const before = await pesoAccount(ctx);
      const target = ctx.creds.transferTarget!;
      const made: string[] = [];
      // Written as stored, without padding, as the recorded transfer answer ("25").
      for (const [amount, wire] of [
        ['1.5', '1.5'],
        [0.25, '0.25'],
        ['0.10', '0.1'],
      ] as const) {
        const t = await ctx.dev.createTransfer(
          { account: before.id, target_address: target, amount },
          { otp: await ctx.otp() },
        );
        ctx.expectStatus(ctx.lastResponse('createTransfer')!, 201);
        ctx.check(
          t.account === before.id && t.amount === wire && t.target_address === target,
          `transfer came back as ${JSON.stringify(t)}`,
          'createTransfer',
        );
        ctx.check(
          t.status === 'pending',
          `a new transfer is ${t.status}, expected pending (it settles later)`,
          'createTransfer',
        );
        // It may have settled in the meantime; everything else stays as created.
        const again = await ctx.dev.getTransfer(t.id);
        ctx.check(
          sameJson({ ...again, status: t.status }, t) &&
            ['pending', 'success'].includes(again.status),
          `transfer ${t.id} retrieves differently from how it was created: ${JSON.stringify(again)}`,
          'getTransfer',
        );
        made.push(t.id);
      }
      const newest = (await ctx.dev.listTransfers({ per_page: 3 })).transfers.map((t) => t.id);
      ctx.check(
        sameJson(newest, [...made].reverse()),
        `the transfer list does not start with the new transfers, newest first: ${newest.join(', ')}`,
        'listTransfers',
      );
      if (ctx.info.kind === 'sandbox') {
        const after = await pesoAccount(ctx);
        ctx.check(
          units(before.balance) - units(after.balance) === units('1.85'),
          `balance went from ${before.balance} to ${after.balance}, expected −1.85`,
          'listCryptoAccounts',
        );
      }
    },
  },
  {
    name: 'transfers: the control API settles a pending transfer, or fails it and gives the amount back',
    tags: ['money', 'sandbox'],
    needs: needsTransferTarget,
    async run(ctx) {
      const before = await pesoAccount(ctx);
      const move = async (status: 'success' | 'failed') => {
        const t = await ctx.dev.createTransfer(
          { account: before.id, target_address: ctx.creds.transferTarget!, amount: '0.5' },
          { otp: await ctx.otp() },
        );
        const res = await ctx.control.request({
          method: 'POST',
          path: `/_sandbox/transfers/${t.id}/status`,
          body: { status },
          operationId: 'setTransferStatus',
        });
        ctx.expectStatus(res, 200);
        ctx.check(
          (await ctx.dev.getTransfer(t.id)).status === status,
          `the transfer did not become ${status}`,
          'getTransfer',
        );
        return t.id;
      };
      const settled = await move('success');
      await move('failed');
      // One settled, one refunded: the wallet is down by exactly the settled amount.
      ctx.check(
        units(before.balance) - units((await pesoAccount(ctx)).balance) === units('0.5'),
        'the failed transfer was not given back in full',
        'listCryptoAccounts',
      );
      const again = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/transfers/${settled}/status`,
        body: { status: 'failed' },
        operationId: 'setTransferStatus',
      });
      ctx.expectError(again, 409, 'invalid_state_transition');
    },
  },
  {
    name: 'transfers: insufficient balance and an unknown target are 400, nothing moves',
    tags: ['money'],
    needs: needsTransferTarget,
    async run(ctx) {
      const account = await pesoAccount(ctx);
      const otp = await ctx.otp();
      const tooMuch = money(units(account.balance) + 100_000_000n);
      const broke = await ctx.rejects(
        ctx.dev.createTransfer(
          { account: account.id, target_address: ctx.creds.transferTarget!, amount: tooMuch },
          { otp },
        ),
        400,
        'insufficient_balance',
      );
      // The real body, as for sell orders: the request as a whole, not the amount field.
      ctx.check(
        broke.fieldErrors.non_field_errors?.[0] === 'Insufficient balance.' &&
          !broke.fieldErrors.amount,
        `message ${JSON.stringify(broke.fieldErrors)}`,
        'createTransfer',
      );
      const nobody = `ct-nobody-${ctx.info.runId}@example.invalid`;
      await ctx.rejects(
        ctx.dev.createTransfer(
          { account: account.id, target_address: nobody, amount: '1' },
          { otp },
        ),
        400,
        'unknown_target',
        'target_address',
      );
      const bad = await ctx.dev.request({
        method: 'POST',
        path: '/v3/transfers/',
        body: { account: account.id, amount: '1' },
        headers: otp ? { 'Access-OTP': otp } : {},
        operationId: 'createTransfer',
      });
      ctx.expectError(bad, 400, 'validation_error', 'target_address');
      if (ctx.info.kind === 'sandbox')
        ctx.check(
          (await pesoAccount(ctx)).balance === account.balance,
          'a refused transfer moved money',
          'listCryptoAccounts',
        );
    },
  },
  {
    name: 'sell orders: create, retrieve and list a sell order; amount + fee debited at once',
    tags: ['money'],
    async run(ctx) {
      const bracket = (await allFeeBrackets(ctx))[0];
      ctx.check(
        Boolean(bracket),
        'no payout outlet with fee brackets',
        'listPartnerPayoutOutletFees',
      );
      const amount = amountIn(bracket!);
      const quote = await ctx.dev.quotePartnerPayoutOutletFee({
        outlet_id: bracket!.payment_outlet,
        amount,
      });
      const before = await pesoAccount(ctx);
      const ext = ctx.ref('sell');
      const order = await ctx.dev.createSellOrder(
        {
          outlet_id: bracket!.payment_outlet,
          amount,
          currency: 'PHP',
          pay_with_wallet: 'PBTC',
          external_transaction_id: ext,
        },
        { otp: await ctx.otp() },
      );
      ctx.expectStatus(ctx.lastResponse('createSellOrder')!, 201);
      const c = (ok: boolean, msg: string, op = 'createSellOrder') =>
        ctx.check(ok, `sell order ${order.id}: ${msg}`, op);
      c(order.delivery_status === 'pending_payment', `delivery_status is ${order.delivery_status}`);
      c(
        units(order.amount) === units(amount) &&
          order.payment_outlet.id === bracket!.payment_outlet &&
          order.external_transaction_id === ext,
        `came back as ${JSON.stringify(order)}`,
      );
      // The real body has no fee: the sandbox names it in X-Sandbox-Fee / X-Sandbox-Total (absent elsewhere).
      const created = ctx.lastResponse('createSellOrder')!.headers;
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
      const bracket = (await allFeeBrackets(ctx))[0]!;
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
      // A seller and a receiver of the same tenant (both made through the control API: the base data).
      const app = await ctx.control.createApp({
        name: `ct-${ctx.info.runId}-coins-transfer`,
        mfa_whitelisted: true,
        balance: '100',
      });
      const dev = ctx.devFor(app.api_key, app.api_secret);
      const made = await ctx.control.request<{
        customer: { email: string; accounts: Array<{ id: string; currency: string }> };
      }>({
        method: 'POST',
        path: '/_sandbox/customers',
        body: {},
        operationId: 'createCustomer',
      });
      ctx.expectStatus(made, 201);
      const wallet = made.body.customer.accounts.find((a) => a.currency === 'PHP')!.id;
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
      ctx.expectStatus(ctx.lastResponse('createSellOrder')!, 201);
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
  {
    name: 'otp: an application that is not whitelisted needs an OTP (422), and passes with one',
    tags: ['money', 'sandbox'],
    needs: needsTransferTarget,
    async run(ctx) {
      const app = await ctx.control.createApp({
        name: `ct-${ctx.info.runId}-otp`,
        mfa_whitelisted: false,
        balance: '100',
      });
      const dev = ctx.devFor(app.api_key, app.api_secret);
      const account = await pesoAccount(ctx, dev);
      // An app made through the control API belongs to the base data, and tenants never reach each
      // other: its target is a customer made the same way, not the workspace's.
      const made = await ctx.control.request<{ customer: { email: string } }>({
        method: 'POST',
        path: '/_sandbox/customers',
        body: {},
        operationId: 'createCustomer',
      });
      ctx.expectStatus(made, 201);
      const input = { account: account.id, target_address: made.body.customer.email, amount: '1' };
      for (const otp of [undefined, '000000']) {
        const err = await dev.createTransfer(input, { otp }).catch((e: unknown) => e);
        ctx.check(
          err instanceof PaySandboxApiError && err.isOtpError,
          `OTP ${otp ?? 'missing'}: expected 422 Two-factor code invalid!`,
          'createTransfer',
        );
        ctx.expectStatus((err as PaySandboxApiError).response, 422);
      }
      const bracket = (await allFeeBrackets(ctx))[0];
      const sellErr = await dev
        .createSellOrder({
          outlet_id: bracket?.payment_outlet ?? 'bpi',
          amount: bracket ? amountIn(bracket) : '100',
          currency: 'PHP',
        })
        .catch((e: unknown) => e);
      ctx.check(
        sellErr instanceof PaySandboxApiError && sellErr.isOtpError,
        'sell order without OTP: expected 422',
        'createSellOrder',
      );
      const { otp } = await ctx.control.getAppOtp(app.api_key);
      await dev.createTransfer(input, { otp });
      ctx.expectStatus(ctx.lastResponse('createTransfer')!, 201);
    },
  },
];
