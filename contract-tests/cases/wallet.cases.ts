import { itemAt } from '../../src/shared/defined.js';
import type { ContractCase } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';
import { units } from '../harness/decimal.js';
import { accountIn, readBack, signed, walletIn, type Body } from './wallet.support.js';
import { walletPaymentCases } from './wallet-payments.cases.js';

const LISTS: Array<[string, string, string]> = [
  ['/v3/crypto-exchanges/', 'listCryptoExchanges', 'crypto-exchanges'],
  ['/v3/crypto-payments/', 'listCryptoPayments', 'crypto-payments'],
  ['/v3/payment-requests/', 'listPaymentRequests', 'payment-requests'],
  ['/v3/getpayment-requests/', 'getPaymentRequests', 'payment-requests'],
];

const ITEMS: Array<[string, string, string]> = [
  ['/v3/crypto-exchanges/', 'getCryptoExchange', 'crypto-exchange'],
  ['/v3/crypto-payments/', 'getCryptoPayment', 'crypto-payment'],
  ['/v3/payment-requests/', 'getPaymentRequest', 'payment-request'],
  ['/v3/getpayment-requests/', 'getPaymentRequestsItem', 'payment-request'],
];

const conversionCases: ContractCase[] = [
  {
    name: 'wallet: the crypto routes and the wallet-operation lists answer in their documented shapes',
    tags: ['read'],
    async run(ctx) {
      const routes = await signed(ctx, 'GET', '/v3/crypto-routes/', 'listCryptoRoutes');
      ctx.expectStatus(routes, 200);
      const pbtcBtc = (routes.body['crypto-routes'] as Body[]).find(
        (r) => r.source_currency === 'PBTC' && r.target_currency === 'BTC',
      );
      ctx.check(
        pbtcBtc !== undefined && /^\d+(\.\d+)?$/.test(pbtcBtc.rate),
        `no PBTC→BTC route with a numeric rate: ${routes.text}`,
        'listCryptoRoutes',
      );
      for (const [path, operationId, key] of LISTS) {
        const res = await signed(ctx, 'GET', `${path}?per_page=2`, operationId);
        ctx.expectStatus(res, 200);
        ctx.check(
          Array.isArray(res.body[key]) && typeof res.body.meta?.total_count === 'number',
          `${path} answered ${res.text}`,
          operationId,
        );
      }
      // An id that is nobody's (in the sandbox, also anyone else's) answers as the real service's `Not found.`.
      for (const [path, operationId] of ITEMS) {
        const missing = '0'.repeat(32);
        ctx.expectError(
          await signed(ctx, 'GET', `${path}${missing}/?id=${missing}`, operationId),
          404,
          'not_found',
        );
      }
    },
  },
  {
    name: 'wallet: bad conversions are 400; with a BTC account, a conversion is created pending, debits the source at once and is listed first',
    tags: ['money'],
    async run(ctx) {
      const peso = await walletIn(ctx, 'PBTC');
      const same = await signed(ctx, 'POST', '/v3/crypto-exchanges/', 'createCryptoExchange', {
        source_account: peso.id,
        target_account: peso.id,
        amount: '1',
      });
      ctx.expectError(same, 400, 'validation_error', 'target_account');
      const unknown = await signed(ctx, 'POST', '/v3/crypto-exchanges/', 'createCryptoExchange', {
        source_account: peso.id,
        target_account: '0'.repeat(32),
        amount: '1',
      });
      ctx.expectError(unknown, 400, 'validation_error', 'target_account');
      // An application made by the control API (a workspace's) owns only a peso wallet: nothing to convert into.
      const btc = await accountIn(ctx, 'BTC');
      if (!btc) return;
      const res = await signed(ctx, 'POST', '/v3/crypto-exchanges/', 'createCryptoExchange', {
        source_account: peso.id,
        target_account: btc.id,
        amount: '200',
      });
      ctx.expectStatus(res, 201);
      const x = res.body['crypto-exchange'] as Body;
      ctx.check(
        x.source_amount === '200' && x.source_currency === 'PBTC' && x.target_currency === 'BTC',
        `conversion came back as ${res.text}`,
        'createCryptoExchange',
      );
      // The real service answered a recorded conversion `pending`; it settles later.
      ctx.check(
        x.status === 'pending',
        `a new conversion is ${x.status}, expected pending`,
        'createCryptoExchange',
      );
      const listed = (
        await signed(ctx, 'GET', '/v3/crypto-exchanges/?per_page=1', 'listCryptoExchanges')
      ).body['crypto-exchanges'][0] as Body;
      ctx.check(
        sameJson({ ...listed, status: x.status }, x) &&
          ['pending', 'success'].includes(listed.status),
        'the newest listed conversion is not the one just made',
        'listCryptoExchanges',
      );
      await readBack(ctx, '/v3/crypto-exchanges/', 'getCryptoExchange', 'crypto-exchange', x, [
        'success',
      ]);
      if (ctx.info.kind === 'sandbox') {
        const p = await walletIn(ctx, 'PBTC');
        ctx.check(
          units(peso.balance) - units(p.balance) === units('200'),
          `the peso wallet went from ${peso.balance} to ${p.balance}`,
          'createCryptoExchange',
        );
      }
    },
  },
  {
    name: 'wallet: the control API settles a pending conversion into the target account, or fails it and gives the source back',
    tags: ['money', 'sandbox'],
    async run(ctx) {
      // A workspace's application owns only a peso wallet: convert as an application of the run's own whose
      // owner also holds BTC (a new app's owner has a funded peso wallet and a BTC one), so that runs
      // sharing the sandbox never convert in the same wallets.
      const app = await ctx.control.createApp({
        name: `ct-${ctx.info.runId}-conversion`,
        mfa_whitelisted: true,
        workspace_id: ctx.info.workspaceId,
      });
      const walletOf = (currency: string) =>
        ctx.expectPresent(
          app.owner.accounts.find((x) => x.currency === currency),
          `a new application's owner holds no ${currency} account`,
          'createApp',
        ).id;
      const btc = walletOf('BTC');
      const peso = walletOf('PHP');
      const dev = ctx.devFor(app.api_key, app.api_secret);
      const balances = async () => [
        (await ctx.control.getAccount(peso)).balance,
        (await ctx.control.getAccount(btc)).balance,
      ];
      const before = await balances();
      const move = async (status: 'success' | 'failed') => {
        const res = await dev.request<Body>({
          method: 'POST',
          path: '/v3/crypto-exchanges/',
          body: { source_account: peso, target_account: btc, amount: '100' },
          operationId: 'createCryptoExchange',
        });
        ctx.expectStatus(res, 201);
        const x = res.body['crypto-exchange'] as Body;
        ctx.check(
          x.status === 'pending',
          `a new conversion is ${x.status}, expected pending`,
          'createCryptoExchange',
        );
        const moved = await ctx.control.request<Body>({
          method: 'POST',
          path: `/_sandbox/crypto-exchanges/${x.id}/status`,
          body: { status },
          operationId: 'setCryptoExchangeStatus',
        });
        ctx.expectStatus(moved, 200);
        ctx.check(
          moved.body['crypto-exchange']?.status === status,
          `the conversion did not become ${status}: ${moved.text}`,
          'setCryptoExchangeStatus',
        );
        return x;
      };
      const settled = await move('success');
      await move('failed');
      // One settled, one failed and given back: down exactly one source amount, up exactly one target amount.
      const after = await balances();
      ctx.check(
        units(itemAt(before, 0)) - units(itemAt(after, 0)) === units('100'),
        `the peso wallet went from ${before[0]} to ${after[0]}, expected −100`,
        'setCryptoExchangeStatus',
      );
      ctx.check(
        units(itemAt(after, 1)) - units(itemAt(before, 1)) === units(settled.target_amount),
        `the BTC account went from ${before[1]} to ${after[1]}`,
        'setCryptoExchangeStatus',
      );
      const again = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/crypto-exchanges/${settled.id}/status`,
        body: { status: 'failed' },
        operationId: 'setCryptoExchangeStatus',
      });
      ctx.expectError(again, 409, 'invalid_state_transition');
    },
  },
  {
    name: 'wallet: an address route created with POST /v3/crypto-routes/ is answered bare, listed, and removed with DELETE',
    tags: ['write'],
    async run(ctx) {
      const monitored = `contract-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
      const made = await signed(ctx, 'POST', '/v3/crypto-routes/', 'createCryptoRoute', {
        monitored_address: monitored,
        stock_address: `${monitored}-stock`,
      });
      ctx.expectStatus(made, 201);
      ctx.check(
        made.body.monitored_address === monitored && typeof made.body.id === 'string',
        `a new crypto route came back as ${made.text}`,
        'createCryptoRoute',
      );
      const listed = await signed(ctx, 'GET', '/v3/crypto-routes/', 'listCryptoRoutes');
      ctx.check(
        (listed.body['crypto-routes'] as Body[]).some((r) => r.id === made.body.id),
        'the new crypto route is not listed',
        'listCryptoRoutes',
      );
      const removed = await signed(
        ctx,
        'DELETE',
        `/v3/crypto-routes/${made.body.id}/`,
        'deleteCryptoRoute',
      );
      ctx.expectStatus(removed, 200);
      ctx.check(
        sameJson(removed.body, made.body),
        'DELETE answered another route',
        'deleteCryptoRoute',
      );
      ctx.expectError(
        await signed(ctx, 'DELETE', `/v3/crypto-routes/${made.body.id}/`, 'deleteCryptoRoute'),
        404,
        'not_found',
      );
    },
  },
];

/** Conversions, crypto payments and payment requests of the developer API (README, Developer API). */
export const walletCases: ContractCase[] = [...conversionCases, ...walletPaymentCases];
