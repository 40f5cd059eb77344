import { describe, expect, it } from 'vitest';
import { as, otpDeveloper, whitelistedDeveloper } from '../testing/developer.test-support.js';
import { sharedSpec } from '../sandbox.js';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { developerError, errorCode, merchantError } from '../testing/error-code.js';
import { bearer, bearerTokens } from './bearer-auth.test-support.js';

/**
 * Bearer next to HMAC on the developer API: which one a request is judged by, the 401s for unknown and
 * malformed tokens, the nonce a Bearer call ignores, and the document's security lists. What a token
 * does is in bearer-auth.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));
const tokenOf = bearerTokens(() => t);

const INVALID = developerError('invalid_token', { non_field_errors: ['Invalid token.'] });

describe('Authorization: Bearer on the developer API', () => {
  it('lets HMAC win when both are sent: a good signature with a bad token passes, a bad signature with a good token does not', async () => {
    const a = whitelistedDeveloper(t);
    const b = otpDeveloper(t);
    const tokB = await tokenOf(b.app.api_key);
    const own = (await t.signed('GET', '/v3/crypto-accounts/', as(a))).body;
    const withBadToken = await t.signed('GET', '/v3/crypto-accounts/', {
      ...as(a),
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(withBadToken.status).toBe(200);
    // The signature decides whose accounts these are, not the token of app B.
    const withOtherToken = await t.signed('GET', '/v3/crypto-accounts/', {
      ...as(a),
      headers: { authorization: `Bearer ${tokB}` },
    });
    expect(withOtherToken.body).toEqual(own);
    const badSignature = await t.signed('GET', '/v3/crypto-accounts/', {
      ...as(a),
      secret: 'wrong',
      headers: { authorization: `Bearer ${tokB}` },
    });
    expect(badSignature.status).toBe(401);
    expect(errorCode(badSignature.body)).toBe('invalid_signature');
    // One HMAC header alone is enough for HMAC to take over (and to ask for the other two).
    const partial = await t.request(
      'GET',
      '/v3/crypto-accounts/',
      bearer(tokB, { headers: { ACCESS_KEY: a.app.api_key } }),
    );
    expect(partial.status).toBe(401);
    expect(errorCode(partial.body)).toBe('missing_credentials');
  });

  it('refuses unknown and malformed tokens with the 401 envelope, and keeps merchant and app tokens apart', async () => {
    for (const authorization of [
      'Bearer nope',
      'Bearer',
      'Bearer ',
      'bearer a b',
      `Bearer ${t.merchant.merchant_api_token}`,
    ]) {
      const res = await t.request('GET', '/v3/crypto-accounts/', { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.body, authorization).toEqual(INVALID);
    }
    // Other schemes stay what they were: no HMAC credentials.
    const token = await t.request('GET', '/v3/crypto-accounts/', {
      headers: { authorization: `Token ${t.merchant.merchant_api_token}` },
    });
    expect(errorCode(token.body)).toBe('missing_credentials');
    // An app's token is no merchant credential.
    const tok = await tokenOf(whitelistedDeveloper(t).app.api_key);
    const invoices = await t.request('GET', '/v3/invoices/', bearer(tok));
    expect(invoices.status).toBe(401);
    expect(invoices.body).toEqual(
      merchantError('invalid_token', { non_field_errors: ['Invalid token.'] }),
    );
  });

  it('judges a request as HMAC as soon as the key or the signature is sent, in either spelling, even with a good token', async () => {
    const tok = await tokenOf(whitelistedDeveloper(t).app.api_key);
    for (const header of ['ACCESS_KEY', 'ACCESS_SIGNATURE', 'Access-Key', 'Access-Signature']) {
      const res = await t.request(
        'GET',
        '/v3/crypto-accounts/',
        bearer(tok, { headers: { [header]: '1' } }),
      );
      expect(res.status, header).toBe(401);
      expect(errorCode(res.body), header).toBe('missing_credentials');
    }
    // Any other scheme, or none, is not a Bearer token: HMAC's missing credentials.
    for (const authorization of [`Token ${tok}`, `Basic ${tok}`, tok]) {
      const res = await t.request('GET', '/v3/crypto-accounts/', { headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(errorCode(res.body), authorization).toBe('missing_credentials');
    }
  });

  it('takes Bearer plus a lone ACCESS_NONCE (the official OAuth examples) as an OAuth call; the nonce is ignored', async () => {
    const dev = whitelistedDeveloper(t);
    const tok = await tokenOf(dev.app.api_key);
    const nonceBefore = t.services.identities.appByKey(dev.app.api_key)!.last_nonce;
    const signed = await t.signed('GET', '/v3/crypto-accounts/', as(dev));
    for (const header of ['ACCESS_NONCE', 'Access-Nonce']) {
      for (const nonce of ['1', String(Date.UTC(2030, 0)), 'not-a-number']) {
        const res = await t.request(
          'GET',
          '/v3/crypto-accounts/',
          bearer(tok, { headers: { [header]: nonce } }),
        );
        expect(res.status, `${header}: ${nonce}`).toBe(200);
        expect(res.body).toEqual(signed.body);
      }
    }
    const sold = await t.request(
      'POST',
      '/v1/sellorder',
      bearer(tok, { body: { outlet_id: 'bpi', amount: 100 }, headers: { ACCESS_NONCE: '5' } }),
    );
    expect(sold.status).toBe(201);
    // The nonce of an OAuth call is not an HMAC nonce: it neither moves nor is checked against the key's.
    expect(t.services.identities.appByKey(dev.app.api_key)!.last_nonce).not.toBe('5');
    expect(
      BigInt(t.services.identities.appByKey(dev.app.api_key)!.last_nonce ?? '0'),
    ).toBeGreaterThanOrEqual(BigInt(nonceBefore ?? '0'));
    // A bad token with a lone nonce is the Bearer 401, not HMAC's missing credentials.
    const bad = await t.request(
      'GET',
      '/v3/crypto-accounts/',
      bearer('nope', { headers: { ACCESS_NONCE: '9' } }),
    );
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual(INVALID);
    // A lone nonce without any Authorization is still an incomplete HMAC request.
    const alone = await t.request('GET', '/v3/crypto-accounts/', {
      headers: { ACCESS_NONCE: '9' },
    });
    expect(errorCode(alone.body)).toBe('missing_credentials');
  });

  it('uses no nonce: Bearer calls leave the app’s nonce where it was', async () => {
    const dev = whitelistedDeveloper(t);
    const tok = await tokenOf(dev.app.api_key);
    const nonceBefore = t.services.identities.appByKey(dev.app.api_key)!.last_nonce;
    for (let i = 0; i < 3; i++)
      expect((await t.request('GET', '/v3/crypto-accounts/', bearer(tok))).status).toBe(200);
    expect(t.services.identities.appByKey(dev.app.api_key)!.last_nonce).toBe(nonceBefore);
  });
});

describe('the document', () => {
  it('lists oauth2Bearer as the alternative on every developer (HMAC) operation', () => {
    const { spec } = sharedSpec();
    const hmac = spec.operations.filter((o) => o.auth === 'hmac');
    expect(hmac.length).toBeGreaterThan(5);
    for (const op of hmac) {
      const raw = (
        spec.document.paths as Record<
          string,
          Record<string, { security?: Array<Record<string, unknown>> }>
        >
      )[op.path]![op.method]!;
      expect(raw.security, op.operationId).toContainEqual({ oauth2Bearer: [] });
    }
  });
});
