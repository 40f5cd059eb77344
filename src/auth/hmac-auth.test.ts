import { describe, expect, it } from 'vitest';
import { sha256Hex, signRequest } from './hmac.js';
import { appPerTest, createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode, developerError } from '../testing/error-code.js';
import { PATH, storedNonces } from './hmac-auth.test-support.js';

/**
 * HMAC signatures on the developer API: what is signed (the URL with its query, the path as sent), the
 * headers in both spellings, unknown keys and mismatches (401, with a debug message that never carries
 * the secret). The nonces, the proxy headers and merchant tokens are in hmac-auth-nonces.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));
const lastNonce = storedNonces(() => t);

/** The same hex digit position with another value. */
const flipHex = (digit: string) => (digit === '0' ? '1' : '0');

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
});
