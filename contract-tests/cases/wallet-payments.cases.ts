import { required } from '../../src/shared/defined.js';
import type { ContractCase } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';
import { units } from '../harness/decimal.js';
import { readBack, signed, walletIn, type Body } from './wallet.support.js';
import { transferTarget } from './money.support.js';

/** Crypto payments and payment requests of the developer API: pending, listed, settled by the control API. */
export const walletPaymentCases: ContractCase[] = [
  {
    name: 'wallet: a crypto payment is created pending, listed first, and the wallet is debited at once',
    tags: ['money'],
    needs: (t) =>
      t.creds.transferTarget
        ? undefined
        : 'needs someone to receive the payment: set CONTRACT_TRANSFER_TARGET',
    async run(ctx) {
      const peso = await walletIn(ctx, 'PBTC');
      const otp = await ctx.otp();
      const body = {
        account: peso.id,
        target_address: transferTarget(ctx),
        amount: '0.75',
        message: 'contract',
        ...(otp ? { otp } : {}),
      };
      const res = await signed(ctx, 'POST', '/v3/crypto-payments/', 'createCryptoPayment', body);
      ctx.expectStatus(res, 201);
      const p = res.body['crypto-payment'] as Body;
      ctx.check(
        p.status === 'pending' && p.amount === '0.75000000' && p.account === peso.id,
        `payment came back as ${res.text}`,
        'createCryptoPayment',
      );
      const listed = (
        await signed(ctx, 'GET', '/v3/crypto-payments/?per_page=1', 'listCryptoPayments')
      ).body['crypto-payments'][0] as Body;
      ctx.check(
        listed?.id === p.id && ['pending', 'success'].includes(listed.status),
        `the newest listed payment is ${JSON.stringify(listed)}`,
        'listCryptoPayments',
      );
      await readBack(ctx, '/v3/crypto-payments/', 'getCryptoPayment', 'crypto-payment', p, [
        'success',
      ]);
      if (ctx.info.kind === 'sandbox') {
        const after = await walletIn(ctx, 'PBTC');
        ctx.check(
          units(peso.balance) - units(after.balance) === units('0.75'),
          `balance went from ${peso.balance} to ${after.balance}`,
          'createCryptoPayment',
        );
      }
    },
  },
  {
    name: 'wallet: the control API settles a pending crypto payment, or fails it and gives the amount back',
    tags: ['money', 'sandbox'],
    needs: (t) =>
      t.creds.transferTarget
        ? undefined
        : 'needs someone to receive the payment: set CONTRACT_TRANSFER_TARGET',
    async run(ctx) {
      const before = await walletIn(ctx, 'PBTC');
      const move = async (status: 'success' | 'failed') => {
        const otp = await ctx.otp();
        const body = {
          account: before.id,
          target_address: transferTarget(ctx),
          amount: '0.5',
          ...(otp ? { otp } : {}),
        };
        const res = await signed(ctx, 'POST', '/v3/crypto-payments/', 'createCryptoPayment', body);
        ctx.expectStatus(res, 201);
        const p = res.body['crypto-payment'] as Body;
        const moved = await ctx.control.request<Body>({
          method: 'POST',
          path: `/_sandbox/crypto-payments/${p.id}/status`,
          body: { status },
          operationId: 'setCryptoPaymentStatus',
        });
        ctx.expectStatus(moved, 200);
        ctx.check(
          moved.body['crypto-payment']?.status === status,
          `the payment did not become ${status}: ${moved.text}`,
          'setCryptoPaymentStatus',
        );
        await readBack(
          ctx,
          '/v3/crypto-payments/',
          'getCryptoPayment',
          'crypto-payment',
          { ...p, status },
          [],
        );
        return p;
      };
      const settled = await move('success');
      await move('failed');
      // One settled, one failed and given back: the wallet is down by exactly the settled amount.
      const after = await walletIn(ctx, 'PBTC');
      ctx.check(
        units(before.balance) - units(after.balance) === units('0.5'),
        `the peso wallet went from ${before.balance} to ${after.balance}, expected −0.5`,
        'setCryptoPaymentStatus',
      );
      const again = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/crypto-payments/${settled.id}/status`,
        body: { status: 'failed' },
        operationId: 'setCryptoPaymentStatus',
      });
      ctx.expectError(again, 409, 'invalid_state_transition');
    },
  },
  {
    name: 'wallet: a payment request is pending, names its payer page, is listed under both paths; the control API has it paid into the wallet',
    tags: ['write', 'sandbox'],
    needs: (t) =>
      (t.creds.customer ?? t.creds.transferTarget)
        ? undefined
        : 'needs a customer to ask: set CONTRACT_TRANSFER_TARGET to their email or mobile number',
    async run(ctx) {
      const peso = await walletIn(ctx, 'PBTC');
      const res = await signed(ctx, 'POST', '/v3/payment-requests/', 'createPaymentRequest', {
        payer_contact_info: required(
          ctx.creds.customer ?? ctx.creds.transferTarget,
          "a payer: the run's customer or the transfer target (needs checked it)",
        ),
        receiving_account: peso.id,
        amount: '2.5',
        message: 'contract',
      });
      ctx.expectStatus(res, 201);
      const r = res.body['payment-request'] as Body;
      ctx.check(
        r.status === 'pending' && r.amount === '2.50000000',
        `request came back as ${res.text}`,
        'createPaymentRequest',
      );
      const pageUrl = res.headers.get('x-sandbox-payment-url') ?? '';
      ctx.check(
        pageUrl.endsWith(`/payment/request/${r.id}`),
        `X-Sandbox-Payment-Url is ${JSON.stringify(pageUrl)}, not the request's payer page`,
        'createPaymentRequest',
      );
      for (const [path, operationId] of [
        ['/v3/payment-requests/', 'listPaymentRequests'],
        ['/v3/getpayment-requests/', 'getPaymentRequests'],
      ] as const) {
        const first = (await signed(ctx, 'GET', `${path}?per_page=1`, operationId)).body[
          'payment-requests'
        ][0];
        ctx.check(sameJson(first, r), `${path} does not list the new request first`, operationId);
      }
      for (const [path, operationId] of [
        ['/v3/payment-requests/', 'getPaymentRequest'],
        ['/v3/getpayment-requests/', 'getPaymentRequestsItem'],
      ] as const) {
        await readBack(ctx, path, operationId, 'payment-request', r, []);
      }
      const paid = await ctx.control.request<Body>({
        method: 'POST',
        path: `/_sandbox/payment-requests/${r.id}/status`,
        body: { status: 'paid' },
        operationId: 'setPaymentRequestStatus',
      });
      ctx.expectStatus(paid, 200);
      ctx.check(
        paid.body['payment-request']?.status === 'paid',
        `the request did not become paid: ${paid.text}`,
        'setPaymentRequestStatus',
      );
      const after = await walletIn(ctx, 'PBTC');
      ctx.check(
        units(after.balance) - units(peso.balance) === units('2.5'),
        `balance went from ${peso.balance} to ${after.balance}, expected +2.5`,
        'setPaymentRequestStatus',
      );
      const again = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/payment-requests/${r.id}/status`,
        body: { status: 'declined' },
        operationId: 'setPaymentRequestStatus',
      });
      ctx.expectError(again, 409, 'invalid_state_transition');
    },
  },
];
