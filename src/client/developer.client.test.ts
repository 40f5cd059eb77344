import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signRequest } from '../auth/hmac.js';
import { openDatabase } from '../db/open.js';
import { createSandbox, type Sandbox } from '../sandbox.js';
import { listen, type RunningServer } from '../server.js';
import { PaySandboxApiError } from './client.errors.js';
import { createDeveloperClient } from './developer.client.js';
import { createHmacSigner } from './hmac.signer.js';
import { developerError } from '../testing/error-code.js';

let sandbox: Sandbox;
let server: RunningServer;
beforeAll(async () => {
  sandbox = createSandbox({
    db: openDatabase(':memory:'),
    config: { db: ':memory:', host: '127.0.0.1', port: 0, quiet: true },
  });
  server = await listen(sandbox);
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

const app = () => sandbox.fixtures.developers[0]!.app;

describe('createHmacSigner', () => {
  it('signs nonce + full URL + exact body bytes, like the server verifier', () => {
    const signer = createHmacSigner({ apiKey: 'k', apiSecret: 's' });
    const body = JSON.stringify({ amount: '1.5', note: 'Señor ✓' });
    const headers = signer.sign('http://127.0.0.1:7070/v3/transfers/?x=1', body, {
      nonce: '1700000000000',
    });
    expect(headers).toEqual({
      'Access-Key': 'k',
      'Access-Signature': signRequest(
        's',
        '1700000000000',
        'http://127.0.0.1:7070/v3/transfers/?x=1',
        body,
      ),
      'Access-Nonce': '1700000000000',
    });
    expect(Object.keys(signer.sign('http://h/', '', { spelling: 'underscore' }))).toEqual([
      'ACCESS_KEY',
      'ACCESS_SIGNATURE',
      'ACCESS_NONCE',
    ]);
  });

  it('withSecret keeps the key, the nonce source and the queue', () => {
    const signer = createHmacSigner({ apiKey: 'k', apiSecret: 's' });
    const other = signer.withSecret('wrong');
    expect(other.nonces).toBe(signer.nonces);
    expect(other.queue).toBe(signer.queue);
    expect(other.apiKey).toBe('k');
  });
});

describe('createDeveloperClient', () => {
  it('lists wallet accounts with a signed query string, in both header spellings', async () => {
    for (const spelling of ['dash', 'underscore'] as const) {
      const dev = createDeveloperClient({
        baseUrl: server.url,
        apiKey: app().api_key,
        apiSecret: app().api_secret,
        spelling,
      });
      const page = await dev.listCryptoAccounts({ currency: 'PBTC', per_page: 5 });
      expect(page['crypto-accounts'].map((a) => a.currency)).toEqual(['PBTC']);
      expect(page.meta).toEqual({ total_count: 1, next_page: null, previous_page: null });
    }
  });

  it('serializes concurrent requests on one key so every nonce arrives in order', async () => {
    const signer = createHmacSigner({ apiKey: app().api_key, apiSecret: app().api_secret });
    const a = createDeveloperClient({ baseUrl: server.url, signer });
    const b = createDeveloperClient({ baseUrl: server.url, signer });
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        (i % 2 ? a : b).request({ method: 'GET', path: '/v3/crypto-accounts/' }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(40).fill(200));
    const nonces = results.map((r) => BigInt(r.request.headers['Access-Nonce']!));
    expect([...nonces].sort((x, y) => (x < y ? -1 : 1))).toEqual(nonces);
  });

  it('signs POST bodies over the bytes sent (the server accepts the signature)', async () => {
    const dev = createDeveloperClient({
      baseUrl: server.url,
      apiKey: app().api_key,
      apiSecret: app().api_secret,
    });
    const res = await dev.request({
      method: 'POST',
      path: '/v3/partner-payout-outlet-fees',
      body: { outlet_id: 'bpï ✓', amount: '1000.5' },
    });
    // Whatever the fee endpoint answers (a quote, a field error, or 501 before it lands), it is past authentication.
    expect(res.status).not.toBe(401);
    expect(res.request.body).toBe('{"outlet_id":"bpï ✓","amount":"1000.5"}');
  });

  it('a wrong secret is a PaySandboxApiError 401 invalid_signature, and does not burn the key', async () => {
    const dev = createDeveloperClient({
      baseUrl: server.url,
      apiKey: app().api_key,
      apiSecret: 'not-the-secret',
    });
    const err = (await dev.listCryptoAccounts().catch((e: unknown) => e)) as PaySandboxApiError;
    expect(err).toBeInstanceOf(PaySandboxApiError);
    expect([err.status, err.codes]).toEqual([401, ['invalid_signature']]);
    const good = createDeveloperClient({
      baseUrl: server.url,
      signer: createHmacSigner({
        apiKey: app().api_key,
        apiSecret: app().api_secret,
        nonces: dev.signer.nonces,
      }),
    });
    expect((await good.listCryptoAccounts())['crypto-accounts'].length).toBeGreaterThan(0);
  });

  it('a key locked to huge nonces works with a huge nonceStart', async () => {
    const locked = sandbox.fixtures.developers[1]!.app;
    const huge = createDeveloperClient({
      baseUrl: server.url,
      apiKey: locked.api_key,
      apiSecret: locked.api_secret,
      nonceStart: '1.763837e+262',
    });
    await huge.listCryptoAccounts();
    const normal = createDeveloperClient({
      baseUrl: server.url,
      apiKey: locked.api_key,
      apiSecret: locked.api_secret,
    });
    const err = (await normal.listCryptoAccounts().catch((e: unknown) => e)) as PaySandboxApiError;
    expect([err.status, err.codes]).toEqual([401, ['invalid_nonce']]);
    expect((await huge.listCryptoAccounts())['crypto-accounts'].length).toBeGreaterThan(0);
  });

  it('sends the OTP as Access-OTP on money endpoints', async () => {
    const dev = createDeveloperClient({
      baseUrl: server.url,
      apiKey: app().api_key,
      apiSecret: app().api_secret,
    });
    const seen: string[] = [];
    const dev2 = createDeveloperClient({
      baseUrl: server.url,
      signer: dev.signer,
      otp: () => '123456',
      onResponse: (r) => void seen.push(r.request.headers['Access-OTP'] ?? ''),
    });
    // Both are refused (no such account or outlet): what matters is the header each request carried.
    await expect(
      dev2.createTransfer({ account: 'x', target_address: 'y', amount: 1 }),
    ).rejects.toMatchObject({
      name: 'PaySandboxApiError',
      status: 400,
      body: developerError('validation_error', {
        account: ['Account "x" is not one of your accounts.'],
      }),
    });
    await expect(
      dev2.createSellOrder({ outlet_id: 'x', amount: 1 }, { otp: '654321' }),
    ).rejects.toMatchObject({
      name: 'PaySandboxApiError',
      status: 400,
      body: developerError('validation_error', {
        outlet_id: ['Payout outlet "x" does not exist.'],
      }),
    });
    expect(seen).toEqual(['123456', '654321']);
  });
});
