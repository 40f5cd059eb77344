import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex, signRequest } from './hmac.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode, developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const PATH = '/v3/crypto-accounts/';
/** The same hex digit position with another value. */
const flipHex = (digit: string) => (digit === '0' ? '1' : '0');
const lastNonce = (key: string) =>
  (
    t.db.prepare('SELECT last_nonce FROM apps WHERE api_key = ?').get(key) as {
      last_nonce: string | null;
    }
  ).last_nonce;

describe('HMAC authentication', () => {
  it('accepts a signed request in both header spellings and returns the owner’s wallets', async () => {
    const dev = t.fixtures.developers[0]!;
    for (const spelling of ['underscore', 'dash'] as const) {
      const res = await t.signed('GET', PATH, { spelling });
      expect(res.status, spelling).toBe(200);
      expect(res.body['crypto-accounts'].map((a: { id: string }) => a.id).sort()).toEqual(
        dev.accounts.map((a) => a.id).sort(),
      );
      expect(res.body.meta).toEqual({ total_count: 2, next_page: null, previous_page: null });
    }
    // The peso wallet is PBTC on the developer API; `currency` takes a comma-separated list.
    const php = (await t.signed('GET', `${PATH}?currency=PBTC`)).body['crypto-accounts'];
    expect(php).toHaveLength(1);
    expect(php[0]).toMatchObject({
      currency: 'PBTC',
      balance: '250000.00000000',
      pending_balance: '0.00000000',
      default_address: php[0].id,
    });
    const both = (await t.signed('GET', `${PATH}?currency=PBTC%2CBTC%2CETH`)).body[
      'crypto-accounts'
    ];
    expect(both.map((a: { currency: string }) => a.currency).sort()).toEqual(['BTC', 'PBTC']);
    expect((await t.signed('GET', `${PATH}?currency=pbtc,btc`)).body.meta.total_count).toBe(2);
    expect((await t.signed('GET', `${PATH}?currency=PHP`)).body.meta.total_count).toBe(0);
  });

  it('answers a repeated poll from the kept wallet page, and with the new balance after a funding', async () => {
    const php = t.fixtures.developers[0]?.accounts.find((a) => a.currency === 'PHP');
    if (!php) throw new Error('the first developer has a peso wallet');
    const balance = async () =>
      (await t.signed('GET', `${PATH}?currency=PBTC`)).body['crypto-accounts'][0].balance;
    const nonceWrites = t.services.identities.nonceWrites();
    expect(await balance()).toBe('250000.00000000');
    expect(await balance()).toBe('250000.00000000');
    // Each accepted signature moved one nonce row: the writes the kept page may ignore.
    expect(t.services.identities.nonceWrites()).toBe(nonceWrites + 2);
    const funded = await t.request('POST', `/_sandbox/accounts/${php.id}/fund`, {
      body: { amount: '5' },
    });
    expect(funded.status).toBe(200);
    expect(await balance()).toBe('250005.00000000');
  });

  it('signs the query string as part of the URL', async () => {
    const dev = t.fixtures.developers[0]!;
    const nonce = String(Date.now() * 1000);
    const sigWithoutQuery = signRequest(dev.app.api_secret, nonce, `http://localhost${PATH}`, '');
    const res = await t.request('GET', `${PATH}?currency=PHP`, {
      headers: {
        ACCESS_KEY: dev.app.api_key,
        ACCESS_SIGNATURE: sigWithoutQuery,
        ACCESS_NONCE: nonce,
      },
    });
    expect(res.status).toBe(401);
    expect(errorCode(res.body)).toBe('invalid_signature');
    const ok = await t.signed('GET', `${PATH}?currency=PHP&page=1`, { nonce });
    expect(ok.status).toBe(200);
  });

  it('signs the path exactly as sent, trailing slash included', async () => {
    const dev = t.fixtures.developers[0]!;
    const nonce = '5000';
    const signedWithoutSlash = signRequest(
      dev.app.api_secret,
      nonce,
      'http://localhost/v3/crypto-accounts',
      '',
    );
    const res = await t.request('GET', PATH, {
      headers: {
        ACCESS_KEY: dev.app.api_key,
        ACCESS_SIGNATURE: signedWithoutSlash,
        ACCESS_NONCE: nonce,
      },
    });
    expect(res.status).toBe(401);
    expect((await t.signed('GET', '/v3/crypto-accounts', { nonce })).status).toBe(200);
  });

  it.each([
    [{}, 'ACCESS_KEY, ACCESS_SIGNATURE, ACCESS_NONCE'],
    [{ ACCESS_KEY: 'x', ACCESS_NONCE: '1' }, 'ACCESS_SIGNATURE'],
    [{ 'Access-Signature': 'ab' }, 'ACCESS_KEY, ACCESS_NONCE'],
    [{ ACCESS_KEY: 'x', ACCESS_SIGNATURE: 'ab' }, 'ACCESS_NONCE'],
  ])(
    'answers 401 missing_credentials for the headers %j, naming the missing ones',
    async (headers, missing) => {
      const res = await t.request('GET', PATH, { headers });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(
        developerError('missing_credentials', {
          non_field_errors: [`Authentication credentials were not provided (missing ${missing}).`],
        }),
      );
    },
  );

  it('answers 401 "Incorrect access key" for an unknown key', async () => {
    const res = await t.signed('GET', PATH, { key: 'nope' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(
      developerError('invalid_access_key', { non_field_errors: ['Incorrect access key'] }),
    );
  });

  it('answers 401 on a signature mismatch with a debug message that never carries the secret', async () => {
    const dev = t.fixtures.developers[0]!;
    const body = JSON.stringify({ outlet_id: 'bpi', amount: '100', note: 'ñ' });
    const res = await t.signed('POST', '/v3/partner-payout-outlet-fees', {
      secret: 'wrong-secret',
      raw: body,
      nonce: '31337',
    });
    expect(res.status).toBe(401);
    expect(errorCode(res.body)).toBe('invalid_signature');
    expect(res.body.errors).toEqual({
      non_field_errors: ['The access signature cannot be matched'],
    });
    expect(res.body.sandbox_debug).toEqual({
      code: 'invalid_signature',
      signed_message: {
        nonce: '31337',
        url: 'http://localhost/v3/partner-payout-outlet-fees',
        body_length: Buffer.byteLength(body),
        body_sha256: sha256Hex(body),
      },
      hint: 'The server signed nonce + url + body with HMAC-SHA256 and the API secret; compare with your message.',
    });
    expect(res.text).not.toContain(dev.app.api_secret);
  });

  it.each([
    ['last hex digit', (sig: string) => sig.slice(0, -1) + flipHex(sig.slice(-1))],
    ['first hex digit', (sig: string) => flipHex(sig.slice(0, 1)) + sig.slice(1)],
    [
      '17th byte (first hex digit past the first half)',
      (sig: string) => sig.slice(0, 32) + flipHex(sig.slice(32, 33)) + sig.slice(33),
    ],
  ])(
    'refuses a signature that differs from the right one only in its %s',
    async (_where, tamper) => {
      const dev = t.fixtures.developers[0]!.app;
      const nonce = '424242';
      const good = signRequest(dev.api_secret, nonce, `http://localhost${PATH}`, '');
      const res = await t.request('GET', PATH, {
        headers: { ACCESS_KEY: dev.api_key, ACCESS_SIGNATURE: tamper(good), ACCESS_NONCE: nonce },
      });
      expect(res.status).toBe(401);
      expect(errorCode(res.body)).toBe('invalid_signature');
      expect(res.body.errors).toEqual({
        non_field_errors: ['The access signature cannot be matched'],
      });
      expect(lastNonce(dev.api_key)).toBeNull();
      // the untampered signature with the same nonce still goes through: the refusal burnt nothing
      const ok = await t.request('GET', PATH, {
        headers: { ACCESS_KEY: dev.api_key, ACCESS_SIGNATURE: good, ACCESS_NONCE: nonce },
      });
      expect(ok.status).toBe(200);
    },
  );

  it('leaves sandbox_debug out with --no-debug-errors', async () => {
    const quiet = createTestApp({ config: { debugErrors: false } });
    const res = await quiet.signed('GET', PATH, { secret: 'wrong' });
    expect(res.status).toBe(401);
    expect(res.body.sandbox_debug).toBeUndefined();
    await quiet.close();
  });

  it.each(['-1', '1.5', 'abc', '1e309', '1'.repeat(310)])(
    'answers 400 invalid_nonce_format for %j',
    async (nonce) => {
      const res = await t.signed('GET', PATH, { nonce });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        developerError('invalid_nonce_format', {
          nonce: [
            'Nonce must be a non-negative integer below 1e309, in decimal or exponent form (e.g. 1700000000000 or 1.7e+25).',
          ],
        }),
      );
    },
  );

  it('refuses a nonce that is not strictly greater, in the real recorded body (a string, meta.error_codes)', async () => {
    expect((await t.signed('GET', PATH, { nonce: '1000' })).status).toBe(200);
    const same = await t.signed('GET', PATH, { nonce: '1000' });
    expect(same.status).toBe(401);
    expect(same.body).toEqual({
      errors: { non_field_errors: "NONCE is too low.  Last value '1000'" },
      meta: { error_codes: ['unauthorized'] },
      sandbox_debug: { code: 'invalid_nonce' },
    });
    const lower = await t.signed('GET', PATH, { nonce: '999' });
    expect(lower.body.errors.non_field_errors).toBe("NONCE is too low.  Last value '1000'");
    // The last value is the whole decimal integer, as recorded, even after an exponent-form nonce.
    const big = await t.signed('GET', PATH, { nonce: '1.5e+30' });
    expect(big.status, JSON.stringify(big.body)).toBe(200);
    expect((await t.signed('GET', PATH, { nonce: '1e30' })).body.errors.non_field_errors).toBe(
      `NONCE is too low.  Last value '15${'0'.repeat(29)}'`,
    );
  });

  it('does not advance the nonce for a badly signed request', async () => {
    const key = t.fixtures.developers[0]!.app.api_key;
    expect((await t.signed('GET', PATH, { nonce: '10' })).status).toBe(200);
    expect((await t.signed('GET', PATH, { nonce: '99999999', secret: 'bad' })).status).toBe(401);
    expect(lastNonce(key)).toBe('10');
    expect((await t.signed('GET', PATH, { nonce: '11' })).status).toBe(200);
  });

  it('accepts only lowercase hex: the same signature in uppercase is invalid_signature and burns no nonce', async () => {
    const dev = t.fixtures.developers[0]!.app;
    const key = dev.api_key;
    const nonce = '4242';
    const signature = signRequest(dev.api_secret, nonce, `http://localhost${PATH}`, '');
    const upper = await t.request('GET', PATH, {
      headers: { ACCESS_KEY: key, ACCESS_SIGNATURE: signature.toUpperCase(), ACCESS_NONCE: nonce },
    });
    expect(upper.status).toBe(401);
    expect(errorCode(upper.body)).toBe('invalid_signature');
    expect(lastNonce(key)).toBeNull();
    const lower = await t.request('GET', PATH, {
      headers: { ACCESS_KEY: key, ACCESS_SIGNATURE: signature, ACCESS_NONCE: nonce },
    });
    expect(lower.status).toBe(200);
  });

  it('lets exactly one of 20 concurrent requests with the same nonce through', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, () => t.signed('GET', PATH, { nonce: '777' })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 401)).toHaveLength(19);
  });

  it('compares exponent nonces exactly and locks a key to huge nonces', async () => {
    const key = t.fixtures.developers[0]!.app.api_key;
    expect((await t.signed('GET', PATH, { nonce: '1.7e+25' })).status).toBe(200);
    expect(lastNonce(key)).toBe('17' + '0'.repeat(24));
    // a plain millisecond nonce is now too small
    expect((await t.signed('GET', PATH, { nonce: String(Date.now()) })).status).toBe(401);
    expect((await t.signed('GET', PATH, { nonce: '17000000000000000000000001' })).status).toBe(200);
    expect((await t.signed('GET', PATH, { nonce: '1.763837e+262' })).status).toBe(200);
    // equal to the last one written differently: refused
    expect((await t.signed('GET', PATH, { nonce: '1.7638370e+262' })).status).toBe(401);
    expect((await t.signed('GET', PATH, { nonce: '1.7638371e+262' })).status).toBe(200);
    expect(lastNonce(key)).toBe('17638371' + '0'.repeat(255));
  });

  it('keeps nonces per key', async () => {
    const other = t.fixtures.developers[1]!.app;
    expect((await t.signed('GET', PATH, { nonce: '500' })).status).toBe(200);
    expect(
      (await t.signed('GET', PATH, { nonce: '5', key: other.api_key, secret: other.api_secret }))
        .status,
    ).toBe(200);
  });

  it('uses X-Forwarded-Proto/Host for the signed URL only with trust-proxy', async () => {
    const dev = t.fixtures.developers[0]!.app;
    const headers = (nonce: string) => ({
      ACCESS_KEY: dev.api_key,
      ACCESS_NONCE: nonce,
      ACCESS_SIGNATURE: signRequest(dev.api_secret, nonce, `https://api.example.ph${PATH}`, ''),
      'X-Forwarded-Proto': 'https',
      'X-Forwarded-Host': 'api.example.ph',
    });
    expect((await t.request('GET', PATH, { headers: headers('1') })).status).toBe(401);
    const proxied = createTestApp({ config: { trustProxy: true } });
    expect((await proxied.request('GET', PATH, { headers: headers('2') })).status).toBe(200);
    await proxied.close();
  });

  it('never lets a merchant token into the developer API', async () => {
    const res = await t.request('GET', PATH, { token: t.merchant.merchant_api_token });
    expect(res.status).toBe(401);
    expect(errorCode(res.body)).toBe('missing_credentials');
  });
});
