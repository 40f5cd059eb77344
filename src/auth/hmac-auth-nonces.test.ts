import { describe, expect, it } from 'vitest';
import { signRequest } from './hmac.js';
import { appPerTest, createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode, developerError } from '../testing/error-code.js';
import { PATH, storedNonces } from './hmac-auth.test-support.js';

/**
 * HMAC nonces on the developer API: their format, strictly increasing per key (also under concurrent
 * requests and for huge values), none burnt by a bad signature; then the signed URL behind a proxy and
 * merchant tokens kept out. Signatures are in hmac-auth.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));
const lastNonce = storedNonces(() => t);

describe('HMAC authentication', () => {
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
