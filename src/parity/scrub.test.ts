import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskPii, REDACTED, scrubBody, scrubHeaders, scrubParams } from './scrub.js';

const req = { maskPii: false, side: 'request' as const };
const res = { maskPii: false, side: 'response' as const };

describe('scrubbing a recording', () => {
  it('redacts keys, signatures, one-time codes and the Authorization value (keeping its scheme); keeps the nonce', () => {
    const headers = scrubHeaders(
      [
        { name: 'ACCESS_KEY', value: 'k' },
        { name: 'Access-Signature', value: 's' },
        { name: 'ACCESS_NONCE', value: '1700000000000000' },
        { name: 'Access-OTP', value: '123456' },
        { name: 'Authorization', value: 'Token abc' },
        { name: 'authorization', value: 'Bearer xyz' },
        { name: 'X-Sandbox-Token', value: 't' },
        { name: 'Content-Type', value: 'application/json' },
      ],
      req,
    );
    expect(headers.map((h) => h.value)).toEqual([
      REDACTED,
      REDACTED,
      '1700000000000000',
      REDACTED,
      '<redacted: Token>',
      '<redacted: Bearer>',
      REDACTED,
      'application/json',
    ]);
  });

  it('redacts tokens, secrets and passwords in bodies, and the request `code` (a one-time password) only in requests', () => {
    const body = JSON.stringify({
      code: 189772,
      amount: 1,
      nested: { access_token: 'a', api_secret: 's', password: 'p', merchant_api_token: 't' },
    });
    expect(JSON.parse(scrubBody(body, 'application/json', req))).toEqual({
      code: REDACTED,
      amount: 1,
      nested: {
        access_token: REDACTED,
        api_secret: REDACTED,
        password: REDACTED,
        merchant_api_token: REDACTED,
      },
    });
    const answer = JSON.stringify({
      errors: { code: 'Two-factor code invalid!' },
      refresh_token: 'r',
    });
    expect(JSON.parse(scrubBody(answer, 'application/json', res))).toEqual({
      errors: { code: 'Two-factor code invalid!' },
      refresh_token: REDACTED,
    });
    expect(scrubBody('otp=123456&amount=5', 'application/x-www-form-urlencoded', req)).toBe(
      `otp=${encodeURIComponent(REDACTED)}&amount=5`,
    );
    expect(scrubParams('access_token=abc&page=2', res)).toBe(
      `access_token=${encodeURIComponent(REDACTED)}&page=2`,
    );
  });

  it('redacts one-time codes of a form body whatever its declared type (a dict posted as JSON, no type)', () => {
    for (const mime of ['application/json;charset=UTF-8', '', 'text/plain']) {
      const out = scrubBody('amount=1000&currency=PHP&otp=123456&code=654321', mime, req);
      expect(out, mime).not.toMatch(/123456|654321/);
      expect(new URLSearchParams(out).get('amount'), mime).toBe('1000');
      expect(new URLSearchParams(out).get('otp'), mime).toBe(REDACTED);
    }
    expect(scrubBody('not a form, code 654321', '', req)).toBe('not a form, code 654321');
  });

  it('masks Philippine mobile numbers written without the plus', () => {
    expect(maskPii('to 639828997677 or 09171234567')).toBe('to 6398******77 or 0917*****67');
    const body = scrubBody(
      JSON.stringify({ target_address: '639828997677', amount: '639' }),
      'application/json',
      { maskPii: true, side: 'request' },
    );
    expect(body).not.toContain('639828997677');
    expect(JSON.parse(body)).toMatchObject({ amount: '639' });
  });

  it('masks emails and phone numbers with --mask-pii, keeping their form', () => {
    expect(maskPii('juan.dela.cruz@example.ph paid +639171234567')).toBe(
      'j***@example.ph paid +639*******67',
    );
    expect(maskPii('call 09171234567')).toBe('call 0917*****67');
    // Amounts, epoch seconds and nonces are not phone numbers.
    expect(maskPii('1594617992 1700000000000001 100000000.00000000 0.00010000')).toBe(
      '1594617992 1700000000000001 100000000.00000000 0.00010000',
    );
    const body = scrubBody(
      JSON.stringify({ target_address: 'ana@example.com', amount: '5' }),
      'application/json',
      { maskPii: true, side: 'request' },
    );
    expect(JSON.parse(body)).toEqual({ target_address: 'a***@example.com', amount: '5' });
    expect(
      scrubBody(JSON.stringify({ target_address: 'ana@example.com' }), 'application/json', req),
    ).toContain('ana@example.com');
  });
});

describe('masking emails in linear time (docs/design.md#input-handling)', () => {
  // What maskPii wrote with one regular expression, quadratic on a long run without an `@`.
  const OLD_EMAIL = /([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;

  it('masks as the expression did, on short texts of the characters that matter', () => {
    // No digits: a run of them is a phone number to maskPii (letters stand for them in emails).
    const text = fc
      .array(fc.constantFrom('a', 'b', '.', '-', '+', '%', '@', ' ', 'co', 'm', '"'), {
        maxLength: 14,
      })
      .map((p) => p.join(''));
    fc.assert(
      fc.property(text, (x) => {
        expect(maskPii(x), x).toBe(x.replace(OLD_EMAIL, '$1***@$2'));
      }),
      { seed: 22, numRuns: 5000 },
    );
  });

  it('answers a megabyte of local-part characters, with and without an email at the end', () => {
    const run = 'a.'.repeat(512 * 1024);
    expect(maskPii(run)).toBe(run);
    expect(maskPii(`${run}@`)).toBe(`${run}@`);
    expect(maskPii(`${run}@example.com and more`)).toBe('a***@example.com and more');
    expect(maskPii(`x@${'.'.repeat(1024 * 1024)}`)).toBe(`x@${'.'.repeat(1024 * 1024)}`);
  });
});
