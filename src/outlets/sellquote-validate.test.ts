import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balanceOf, whitelistedDeveloper } from '../testing/developer.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

describe('sell quote', () => {
  it('quotes like the partner fee quote at /v2/sellquote and /api/v2/sellquote, moving no money', async () => {
    const dev = whitelistedDeveloper(t);
    const wallet = dev.accounts.find((a) => a.currency === 'PHP')!.id;
    const before = balanceOf(t, wallet);
    const partner = await t.signed('POST', '/v3/partner-payout-outlet-fees', {
      body: { outlet_id: 'gcash', amount: '1234.5' },
    });
    for (const path of [
      '/v2/sellquote?payment_outlet=gcash&amount=1234.5&currency=PHP',
      '/api/v2/sellquote?outlet_id=gcash&amount=1234.50',
    ]) {
      const res = await t.signed('GET', path);
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({ quote: partner.body['partner-payout-outlet-fee'] });
    }
    expect(partner.body['partner-payout-outlet-fee']).toMatchObject({
      amount: '1234.50000000',
      payment_outlet: 'gcash',
    });
    expect(balanceOf(t, wallet)).toBe(before);
    t.assertLedger();
  });

  it('refuses a missing or bad amount, an unknown outlet, another currency and amounts outside the brackets', async () => {
    const cases: Array<[string, Record<string, string[]>, string?]> = [
      ['/v2/sellquote?payment_outlet=bpi&amount=1e5', { amount: ['A valid number is required.'] }],
      [
        '/v2/sellquote?payment_outlet=bpi&amount=0',
        { amount: ['Ensure this value is greater than 0.'] },
      ],
      [
        '/v2/sellquote?payment_outlet=bpi&amount=1.123456789',
        { amount: ['Ensure that there are no more than 8 decimal places.'] },
      ],
      [
        '/v2/sellquote?payment_outlet=nope&amount=10',
        { payment_outlet: ['Payout outlet "nope" does not exist.'] },
      ],
      [
        '/v2/sellquote?payment_outlet=bpi&amount=10&currency=BTC',
        { currency: ['BPI pays out in PHP only.'] },
      ],
      [
        '/v2/sellquote?payment_outlet=bpi&amount=600000',
        { amount: ['Amount is outside the fee brackets of BPI (0 to 500000 PHP).'] },
        'amount_outside_fee_brackets',
      ],
    ];
    for (const [path, errors, code] of cases) {
      const res = await t.signed('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual(developerError(code ?? 'validation_error', errors));
    }
    const missing = await t.signed('GET', '/v2/sellquote?payment_outlet=bpi');
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors)).toEqual(['amount']);
    expect((await t.request('GET', '/v2/sellquote?payment_outlet=bpi&amount=10')).status).toBe(401);
  });
});

describe('validate-field', () => {
  const validate = (body: Record<string, unknown>) =>
    t.signed('POST', '/v3/validate-field/', { body });

  it('answers the normalised value of a valid field of each outlet category', async () => {
    const valid: Array<[string, string, string, string]> = [
      ['bpi', 'account_number', '1234-5678 90', '1234567890'],
      ['bdo', 'account_name', '  Juan dela Cruz ', 'Juan dela Cruz'],
      ['gcash', 'mobile_number', '0917 123 4567', '+639171234567'],
      ['paymaya', 'mobile_number', '+639171234567', '+639171234567'],
      ['cebuana', 'recipient_full_name', 'Maria Santos', 'Maria Santos'],
      [
        'coins_transfer',
        'target_address',
        'Friend@Customer.example.ph',
        'friend@customer.example.ph',
      ],
      ['coins_transfer', 'target_address', '639171234567', '+639171234567'],
    ];
    for (const [outlet, field, value, normalised] of valid) {
      const res = await validate({ payment_outlet: outlet, field, value });
      expect(res.status, `${outlet} ${field}`).toBe(200);
      expect(res.body).toEqual({
        'validate-field': { payment_outlet: outlet, field, value: normalised, is_valid: true },
      });
    }
    const alias = await t.signed('POST', '/api/v3/validate-field/', {
      body: { outlet_id: 'bpi', field: 'account_number', value: '0012345678' },
    });
    expect(alias.body['validate-field']).toMatchObject({
      payment_outlet: 'bpi',
      value: '0012345678',
    });
  });

  it('refuses invalid values, fields the outlet does not have, unknown outlets and bad bodies as field errors', async () => {
    const invalid: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [
        { payment_outlet: 'bpi', field: 'account_number', value: '12345' },
        { value: ['Enter a valid account number (10 to 16 digits).'] },
      ],
      [
        { payment_outlet: 'gcash', field: 'mobile_number', value: '0817 123 4567' },
        { value: ['Enter a valid Philippine mobile number (09XXXXXXXXX or +639XXXXXXXXX).'] },
      ],
      [
        { payment_outlet: 'cebuana', field: 'recipient_full_name', value: 'Maria' },
        { value: ['Enter the first name and surname of the recipient.'] },
      ],
      [
        { payment_outlet: 'coins_transfer', field: 'target_address', value: 'nobody' },
        { value: ['Enter a wallet address, an email address or a Philippine mobile number.'] },
      ],
      [
        { payment_outlet: 'gcash', field: 'account_number', value: '1234567890' },
        { field: ['"account_number" is not a field of GCash. Its fields: mobile_number.'] },
      ],
      [
        { payment_outlet: 'nope', field: 'account_number', value: '1234567890' },
        { payment_outlet: ['Payout outlet "nope" does not exist.'] },
      ],
      [
        { field: 'account_number', value: '1234567890' },
        { outlet_id: ['This field is required.'] },
      ],
    ];
    for (const [body, errors] of invalid) {
      const res = await validate(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual(developerError('validation_error', errors));
    }
    const missing = await validate({ payment_outlet: 'bpi' });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['field', 'value']);
    // A JSON number is a string field's text (Django REST framework's CharField); a boolean is no string.
    const number = await validate({
      payment_outlet: 'bpi',
      field: 'account_number',
      value: 1234567890,
    });
    expect(number.status).toBe(200);
    const wrongType = await validate({
      payment_outlet: 'bpi',
      field: 'account_number',
      value: true,
    });
    expect(wrongType.status).toBe(400);
    expect(Object.keys(wrongType.body.errors)).toEqual(['value']);
  });
});
