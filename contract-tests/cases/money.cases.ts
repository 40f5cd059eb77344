import { PaySandboxApiError } from '../../src/client/index.js';
import type { ContractCase } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';
import { money, units } from '../harness/decimal.js';
import { allFeeBrackets, amountIn } from './developer.cases.js';
import { needsTransferTarget, pesoAccount, transferTarget } from './money.support.js';
import { sellOrderCases } from './sell-orders.cases.js';

const transferCases: ContractCase[] = [
  {
    name: 'transfers: create, retrieve and list transfers; the wallet is debited exactly',
    tags: ['money'],
    needs: needsTransferTarget,
    async run(ctx) {
      const before = await pesoAccount(ctx);
      const target = transferTarget(ctx);
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
        ctx.expectLastStatus('createTransfer', 201);
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
          { account: before.id, target_address: transferTarget(ctx), amount: '0.5' },
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
          { account: account.id, target_address: transferTarget(ctx), amount: tooMuch },
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
];

const otpCases: ContractCase[] = [
  {
    name: 'otp: an application that is not whitelisted needs an OTP (422), and passes with one',
    tags: ['money', 'sandbox'],
    needs: needsTransferTarget,
    async run(ctx) {
      const app = await ctx.control.createApp({
        name: `ct-${ctx.info.runId}-otp`,
        mfa_whitelisted: false,
        balance: '100',
        workspace_id: ctx.info.workspaceId,
      });
      const dev = ctx.devFor(app.api_key, app.api_secret);
      const account = await pesoAccount(ctx, dev);
      // Tenants never reach each other: its target is a customer made the same way, in the same
      // tenant (the run's workspace on a sandbox, so nothing is left in the shared base data).
      const made = await ctx.control.request<{ customer: { email: string } }>({
        method: 'POST',
        path: '/_sandbox/customers',
        body: { workspace_id: ctx.info.workspaceId },
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
      ctx.expectLastStatus('createTransfer', 201);
    },
  },
];

/** Cases that move money (docs/design.md#public-api: transfers and sell orders); opt-in outside the sandbox. */
export const moneyCases: ContractCase[] = [...transferCases, ...sellOrderCases, ...otpCases];
