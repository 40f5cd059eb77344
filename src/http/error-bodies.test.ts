import { afterEach, describe, expect, it } from 'vitest';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { ApiError, notFoundSurface, OtpError, surfaceOfPath } from '../shared/api-error.js';

/**
 * Error bodies per surface, as the real service sends them: merchant `{"error_codes": [], "errors"}`
 * (a code only where the real one names it), developer `{"errors"}` alone, control with its code; the
 * sandbox's own code in `sandbox_debug.code`, gone with `--no-debug-errors`.
 */
let t: TestApp | undefined;
afterEach(() => {
  void t?.close();
  t = undefined;
});

describe('the body of one error on each surface', () => {
  const e = ApiError.general('not_found', 'Not found.');

  it('merchant: empty error_codes and the code in sandbox_debug where the real body names none, the envelope elsewhere', () => {
    expect(e.body('merchant')).toEqual({
      error_codes: [],
      errors: { non_field_errors: ['Not found.'] },
      sandbox_debug: { code: 'not_found' },
    });
    for (const code of ['invalid_token', 'amount_above_maximum'] as const) {
      expect(ApiError.general(code, 'm').body('merchant', false)).toEqual({
        error_codes: [],
        errors: { non_field_errors: ['m'] },
      });
    }
    expect(ApiError.field('amount', 'A valid number is required.').body('merchant')).toEqual({
      error_codes: ['validation_error'],
      errors: { amount: ['A valid number is required.'] },
    });
    const dup = ApiError.field(
      'external_transaction_id',
      'External transaction ID has already been used for an invoice.',
      'duplicate_external_transaction_id',
    );
    expect(dup.body('merchant', false)).toEqual({
      error_codes: ['duplicate_external_transaction_id'],
      errors: {
        external_transaction_id: ['External transaction ID has already been used for an invoice.'],
      },
    });
  });

  it('developer: no error_codes at all', () => {
    expect(e.body('developer')).toEqual({
      errors: { non_field_errors: ['Not found.'] },
      sandbox_debug: { code: 'not_found' },
    });
    expect(e.body('developer', false)).toEqual({ errors: { non_field_errors: ['Not found.'] } });
  });

  it('control: the sandbox API keeps its code in error_codes', () => {
    expect(e.body('control')).toEqual({
      error_codes: ['not_found'],
      errors: { non_field_errors: ['Not found.'] },
    });
  });

  it('keeps debug detail beside the code, and the 2FA body exact', () => {
    const sig = ApiError.general('invalid_signature', 'The access signature cannot be matched', {
      hint: 'h',
    });
    expect(sig.body('developer')).toEqual({
      errors: { non_field_errors: ['The access signature cannot be matched'] },
      sandbox_debug: { code: 'invalid_signature', hint: 'h' },
    });
    expect(new OtpError().body('developer', false)).toEqual({
      errors: { code: 'Two-factor code invalid!' },
      success: false,
    });
  });

  it('classifies paths before routing, and answers an unknown path in the merchant envelope', () => {
    expect(notFoundSurface('/v3/nope/')).toBe('merchant');
    expect(notFoundSurface('/_sandbox/nope')).toBe('control');
    expect(surfaceOfPath('/_sandbox/nope')).toBe('control');
    expect(surfaceOfPath('/_sandbox')).toBe('control');
    expect(surfaceOfPath('/v1/invoices/x/y')).toBe('merchant');
    expect(surfaceOfPath('/api/v3/invoices/')).toBe('merchant');
    expect(surfaceOfPath('/nope')).toBe('merchant');
    expect(surfaceOfPath('/v3/nope/')).toBe('developer');
    expect(surfaceOfPath('/api/v2/sellorder')).toBe('developer');
    expect(surfaceOfPath('/d/api/buyorder/')).toBe('developer');
    expect(surfaceOfPath('/_sandboxed')).toBe('merchant');
  });
});

describe('--no-debug-errors over HTTP', () => {
  it('sends exactly the real bodies: no sandbox_debug on any surface', async () => {
    t = createTestApp({ config: { debugErrors: false } });
    const invoice = await t.request('GET', `/v1/invoices/${'0'.repeat(32)}`, {
      token: t.merchant.merchant_api_token,
    });
    expect([invoice.status, invoice.body]).toEqual([
      404,
      { error_codes: [], errors: { non_field_errors: ['Not found.'] } },
    ]);
    const bad = await t.request('POST', '/v1/invoices/', {
      headers: { authorization: 'Token nope' },
      body: { amount: 1, currency: 'PHP' },
    });
    expect([bad.status, bad.body]).toEqual([
      401,
      { error_codes: [], errors: { non_field_errors: ['Invalid token.'] } },
    ]);
    const order = await t.signed('GET', `/v1/sellorder/${'0'.repeat(32)}`);
    expect([order.status, order.body]).toEqual([
      404,
      { errors: { non_field_errors: ['Not found.'] } },
    ]);
    const unsigned = await t.request('GET', '/v3/crypto-accounts/');
    expect(unsigned.status).toBe(401);
    expect(Object.keys(unsigned.body)).toEqual(['errors']);
    // The control API is the sandbox's own: its envelope keeps the code.
    const control = await t.request('GET', `/_sandbox/invoices/${'0'.repeat(32)}`);
    expect([control.status, control.body]).toEqual([
      404,
      { error_codes: ['not_found'], errors: { non_field_errors: ['Not found.'] } },
    ]);
  });

  it('sends every recorded developer-API error shape exactly, with nothing of the sandbox in the body', async () => {
    t = createTestApp({ config: { debugErrors: false } });
    const app = t;
    const plain = newDeveloper(app, { php: '10', whitelisted: false, business: false });
    const dev = newDeveloper(app, { php: '10', dailyBuyLimit: '100' });
    const answers: Array<[string, { status: number; body: unknown }, number, unknown]> = [];
    const check = (
      name: string,
      res: { status: number; body: unknown },
      status: number,
      body: unknown,
    ) => answers.push([name, res, status, body]);
    await app.signed('GET', '/v3/crypto-accounts/', { ...as(dev), nonce: '100' });
    check(
      'stale nonce',
      await app.signed('GET', '/v3/crypto-accounts/', { ...as(dev), nonce: '5' }),
      401,
      {
        errors: { non_field_errors: "NONCE is too low.  Last value '100'" },
        meta: { error_codes: ['unauthorized'] },
      },
    );
    const pay = {
      account: plain.php,
      target_address: app.fixtures.customers[0]?.email,
      amount: '1',
    };
    check(
      'two-factor',
      await app.signed('POST', '/v3/crypto-payments/', { ...as(plain), body: pay }),
      422,
      {
        errors: { code: 'Two-factor code invalid!' },
        success: false,
      },
    );
    const big = {
      account: dev.php,
      target_address: app.fixtures.customers[0]?.email,
      amount: '11',
    };
    check(
      'insufficient',
      await app.signed('POST', '/v3/crypto-payments/', { ...as(dev), body: big }),
      400,
      {
        errors: { non_field_errors: ['Insufficient balance.'] },
      },
    );
    check('non-business read', await app.signed('GET', '/v1/sellorder', as(plain)), 401, {
      message: 'Unauthorized',
      status: 401,
      success: false,
    });
    const slash = `/api/v2/sellorder/${'0'.repeat(32)}/`;
    check('slashed v2 retrieve', await app.signed('GET', slash, as(dev)), 404, {
      errors: { non_field_errors: ['Not found.'] },
    });
    const buy = { currency_amount: '101', payment_method: 'bdo_deposit' };
    check(
      'daily limit',
      await app.signed('POST', '/api/v2/buyorder/', { ...as(dev), body: buy }),
      400,
      {
        errors: { non_field_errors: ['This order exceeds your remaining daily limit.'] },
      },
    );
    for (const [name, res, status, body] of answers)
      expect([res.status, res.body], name).toEqual([status, body]);
  });

  it("answers a wrong method in the shape of its path's API (405 and Allow)", async () => {
    t = createTestApp();
    const wrong = { non_field_errors: ['Method "DELETE" not allowed.'] };
    for (const path of ['/v3/transfers/', '/api/v2/sellorder/', '/d/api/crypto-accounts/']) {
      const res = await t.request('DELETE', path, { operationId: false });
      expect(res.status, path).toBe(405);
      expect(res.headers.get('allow'), path).toBeTruthy();
      expect(res.body, path).toEqual({
        errors: wrong,
        sandbox_debug: { code: 'method_not_allowed' },
      });
    }
    const invoices = await t.request('DELETE', '/v1/invoices/', { operationId: false });
    expect([invoices.status, invoices.body]).toEqual([
      405,
      { error_codes: ['method_not_allowed'], errors: wrong },
    ]);
    const control = await t.request('DELETE', '/_sandbox/clock', { operationId: false });
    expect([control.status, control.body]).toEqual([
      405,
      { error_codes: ['method_not_allowed'], errors: wrong },
    ]);
  });

  it('with debug on (the default), the same errors name their code', async () => {
    t = createTestApp();
    const order = await t.signed('GET', `/v1/sellorder/${'0'.repeat(32)}`);
    expect([order.status, order.body]).toEqual([
      404,
      { errors: { non_field_errors: ['Not found.'] }, sandbox_debug: { code: 'not_found' } },
    ]);
    const max = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: { amount: 10000.01, currency: 'PHP', external_transaction_id: 'over-max' },
    });
    expect([max.status, max.body]).toEqual([
      400,
      {
        error_codes: [],
        errors: { amount: ['Amount should be at most 10000 PHP.'] },
        sandbox_debug: { code: 'amount_above_maximum' },
      },
    ]);
  });
});
