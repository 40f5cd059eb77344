import { createHmacSigner, type ApiResponse } from '../../src/client/index.js';
import type { CaseContext, ContractCase } from '../harness/case.context.js';
import { required } from '../../src/shared/defined.js';

const ACCOUNTS = {
  method: 'GET',
  path: '/v3/crypto-accounts/',
  operationId: 'listCryptoAccounts',
} as const;
const INVOICES = { method: 'GET', path: '/v3/invoices/', operationId: 'listInvoices' } as const;

function expectMessage(ctx: CaseContext, res: ApiResponse, pattern: RegExp): void {
  // A list of messages, or one string (the stale-nonce body, as the real service recorded it).
  const given =
    (res.body as { errors?: { non_field_errors?: string[] | string } }).errors?.non_field_errors ??
    [];
  const msgs = typeof given === 'string' ? given : given.join(' ');
  ctx.check(
    pattern.test(msgs),
    `expected a non_field_errors message like ${pattern}, got ${JSON.stringify(msgs)}`,
    res.operationId,
  );
}

/** Every authentication failure (docs/design.md#authentication), for merchant tokens and HMAC. */
export const authCases: ContractCase[] = [
  {
    name: 'merchant auth: no Authorization header is 401 invalid_token',
    tags: ['read'],
    async run(ctx) {
      const list = await ctx.anon.send(INVOICES);
      ctx.expectError(list, 401, 'invalid_token');
      expectMessage(ctx, list, /^Invalid token\.$/);
      const create = await ctx.anon.send({
        method: 'POST',
        path: '/v1/invoices/',
        operationId: 'createInvoiceV1',
        body: { amount: 1, currency: 'PHP', external_transaction_id: ctx.ref('noauth') },
      });
      ctx.expectError(create, 401, 'invalid_token');
    },
  },
  {
    name: 'merchant auth: an unknown Token or Bearer is 401 invalid_token on v1 and v3',
    tags: ['read'],
    async run(ctx) {
      const unknown = `ct-unknown-${ctx.info.runId}`;
      for (const authorization of [
        `Token ${unknown}`,
        `Bearer ${unknown}`,
        `Basic ${Buffer.from('a:b').toString('base64')}`,
        'Token',
      ]) {
        const list = await ctx.anon.send({ ...INVOICES, headers: { authorization } });
        ctx.expectError(list, 401, 'invalid_token');
        const get = await ctx.anon.send({
          method: 'GET',
          path: `/v1/invoices/${'0'.repeat(32)}`,
          operationId: 'getInvoiceV1',
          headers: { authorization },
        });
        ctx.expectError(get, 401, 'invalid_token');
      }
    },
  },
  {
    name: 'merchant auth: Token and Bearer are both accepted on v1 and v3 paths',
    tags: ['read'],
    async run(ctx) {
      const token = ctx.creds.merchantToken;
      for (const authorization of [
        `Token ${token}`,
        `Bearer ${token}`,
        ...(ctx.creds.merchantBearer ? [`Bearer ${ctx.creds.merchantBearer}`] : []),
      ]) {
        ctx.expectStatus(
          await ctx.anon.send({ ...INVOICES, query: { per_page: 1 }, headers: { authorization } }),
          200,
        );
        // Authenticated, then not found: proves the v1 path took the credentials.
        const missing = await ctx.anon.send({
          method: 'GET',
          path: `/v1/invoices/${'0'.repeat(32)}`,
          operationId: 'getInvoiceV1',
          headers: { authorization },
        });
        ctx.expectError(missing, 404, 'not_found');
      }
      ctx.check(
        (await ctx.merchantV3.listInvoices({ per_page: 1 })).meta.total_count >= 0,
        'listInvoices with Bearer answered',
        'listInvoices',
      );
    },
  },
  {
    name: 'hmac auth: no credentials, or some headers missing, is 401 missing_credentials',
    tags: ['read'],
    async run(ctx) {
      ctx.expectError(
        await ctx.dev.request({ ...ACCOUNTS, unsigned: true }),
        401,
        'missing_credentials',
      );
      const partial = await ctx.dev.request({
        ...ACCOUNTS,
        unsigned: true,
        headers: { 'Access-Key': ctx.creds.apiKey, 'Access-Nonce': ctx.dev.signer.nonces.next() },
      });
      ctx.expectError(partial, 401, 'missing_credentials');
    },
  },
  {
    name: 'hmac auth: an unknown key is 401 invalid_access_key',
    tags: ['read'],
    async run(ctx) {
      const stranger = createHmacSigner({
        apiKey: `ct-unknown-${ctx.info.runId}`,
        apiSecret: 'not-a-secret',
      });
      const res = await ctx.dev.request({ ...ACCOUNTS, signer: stranger });
      ctx.expectError(res, 401, 'invalid_access_key');
      expectMessage(ctx, res, /^Incorrect access key$/);
    },
  },
  {
    name: 'hmac auth: a bad signature is 401 invalid_signature and does not burn the nonce',
    tags: ['read'],
    async run(ctx) {
      const nonce = ctx.dev.signer.nonces.next();
      const bad = await ctx.dev.request({
        ...ACCOUNTS,
        signer: ctx.dev.signer.withSecret('wrong-secret'),
        sign: { nonce },
      });
      ctx.expectError(bad, 401, 'invalid_signature');
      expectMessage(ctx, bad, /^The access signature cannot be matched$/);
      // The same nonce, correctly signed, still works: a badly signed request never advances the key.
      ctx.expectStatus(await ctx.dev.request({ ...ACCOUNTS, sign: { nonce } }), 200);
    },
  },
  {
    name: 'hmac auth: a stale nonce is 401 invalid_nonce',
    tags: ['read'],
    async run(ctx) {
      const ok = await ctx.dev.request(ACCOUNTS);
      ctx.expectStatus(ok, 200);
      const used = required(ok.request.headers['Access-Nonce'], 'the nonce the signer sent');
      for (const nonce of [used, (BigInt(used) - 1n).toString()]) {
        const stale = await ctx.dev.request({ ...ACCOUNTS, sign: { nonce } });
        ctx.expectError(stale, 401, 'invalid_nonce');
        expectMessage(ctx, stale, /^NONCE is too low\.  Last value '\d+'$/);
      }
    },
  },
  {
    name: 'hmac auth: both header spellings (ACCESS_KEY and Access-Key) are accepted',
    tags: ['read'],
    async run(ctx) {
      for (const spelling of ['underscore', 'dash'] as const) {
        const res = await ctx.dev.request({ ...ACCOUNTS, sign: { spelling } });
        ctx.expectStatus(res, 200);
        ctx.check(
          spelling === 'underscore'
            ? 'ACCESS_KEY' in res.request.headers
            : 'Access-Key' in res.request.headers,
          `sent the ${spelling} spelling`,
        );
      }
    },
  },
  {
    name: 'hmac auth: the signature covers the full URL with its query string',
    tags: ['read'],
    async run(ctx) {
      const signer = ctx.dev.signer;
      const res = await signer.exclusive(() =>
        ctx.dev.transport.send({ ...ACCOUNTS, query: { currency: 'PBTC' } }, (url, body) =>
          signer.sign(url.split('?', 1)[0] ?? url, body),
        ),
      );
      ctx.expectError(res, 401, 'invalid_signature');
      ctx.expectStatus(await ctx.dev.request({ ...ACCOUNTS, query: { currency: 'PBTC' } }), 200);
    },
  },
  {
    name: 'hmac auth: a malformed nonce is 400 invalid_nonce_format',
    tags: ['read'],
    async run(ctx) {
      for (const nonce of ['12abc', '-5', '1.5']) {
        ctx.expectError(
          await ctx.dev.request({ ...ACCOUNTS, sign: { nonce } }),
          400,
          'invalid_nonce_format',
        );
      }
    },
  },
  {
    name: 'routing: health and the index answer; an unknown path is 404 not_found, a wrong method is 405 with Allow',
    tags: ['read'],
    async run(ctx) {
      // The real service has no /healthz and no index: only a sandbox is asked.
      if (ctx.info.hasControl) {
        ctx.expectStatus(
          await ctx.anon.send({ method: 'GET', path: '/healthz', operationId: 'getHealth' }),
          200,
        );
        const index = await ctx.anon.send({ method: 'GET', path: '/', operationId: 'getIndex' });
        ctx.expectStatus(index, 200);
        const links = (index.body as { links?: Record<string, string> } | null)?.links ?? {};
        ctx.check(
          links.healthz === `${ctx.info.baseUrl}/healthz`,
          `the index links health as ${JSON.stringify(links.healthz)}, not on the base URL asked`,
          'getIndex',
        );
      }
      ctx.expectError(
        await ctx.anon.send({ method: 'GET', path: `/v3/ct-no-such-path-${ctx.info.runId}` }),
        404,
        'not_found',
      );
      const wrong = await ctx.merchant.request({ method: 'DELETE', path: '/v3/invoices/' });
      ctx.expectError(wrong, 405, 'method_not_allowed');
      ctx.check(
        /GET/.test(wrong.headers.get('allow') ?? ''),
        `405 must carry Allow with GET, got ${JSON.stringify(wrong.headers.get('allow'))}`,
      );
    },
  },
];
