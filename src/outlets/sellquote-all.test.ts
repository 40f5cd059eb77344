import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { balanceOf, whitelistedDeveloper } from '../testing/developer.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

// The 2014 docs' call (parity/recorded quotes.har#0): no outlet, every outlet quoted.
describe('GET /api/v2/sellquote without an outlet: every payout outlet, as the 2014 docs answer', () => {
  it('quotes each outlet whose brackets hold the subtotal, keyed by id, money as numbers, the fee taken off', async () => {
    const dev = whitelistedDeveloper(t);
    const wallet = dev.accounts.find((a) => a.currency === 'PHP')?.id ?? '';
    const before = balanceOf(t, wallet);
    const res = await t.signed('GET', '/api/v2/sellquote?btc_amount=0.1&currency=PHP');
    expect(res.status).toBe(200);
    const { quote } = res.body;
    expect(res.body.success).toBe(true);
    // 0.1 BTC at the sandbox's 621822 pesos per BTC.
    expect(quote).toMatchObject({ btc_amount: 0.1, currency: 'PHP', rate: 621822 });
    // bpi's bracket from 50000: 0.25 % and no flat fee.
    expect(quote.outlets.bpi).toEqual({
      fee: 155.4555,
      outlet_id: 'bpi',
      outlet_type_id: 'bank',
      required_fields: ['account_number', 'account_name'],
      subtotal: 62182.2,
      total: 62026.7445,
    });
    const partner = await t.signed('POST', '/v3/partner-payout-outlet-fees', {
      body: { outlet_id: 'gcash', amount: '62182.2' },
    });
    const gcash = partner.body['partner-payout-outlet-fee'];
    expect(quote.outlets.gcash.fee).toBe(Number(gcash.fee));
    expect(quote.outlets.gcash.total).toBe(62182.2 - Number(gcash.fee));
    for (const [id, item] of Object.entries(quote.outlets as Record<string, { outlet_id: string }>))
      expect(item.outlet_id).toBe(id);
    expect(balanceOf(t, wallet)).toBe(before);
  });

  it('takes pesos as amount instead, and leaves out an outlet whose brackets do not hold them', async () => {
    whitelistedDeveloper(t);
    const small = await t.signed('GET', '/v2/sellquote?amount=10');
    expect(small.status).toBe(200);
    expect(small.body.quote.outlets.bpi).toMatchObject({ fee: 10, subtotal: 10, total: 0 });
    // 1 BTC is 621822 pesos, above every fixture outlet's brackets (500000 at most): no outlet can pay it.
    const big = await t.signed('GET', '/api/v2/sellquote?btc_amount=1&currency=PHP');
    expect(big.status).toBe(200);
    expect(big.body.quote).toEqual({ btc_amount: 1, currency: 'PHP', outlets: {}, rate: 621822 });
  });

  it('refuses no amount, a bad amount or another currency (400)', async () => {
    whitelistedDeveloper(t);
    const cases: Array<[string, Record<string, string[]>]> = [
      ['/v2/sellquote', { btc_amount: ['This field is required.'] }],
      ['/v2/sellquote?currency=PHP', { btc_amount: ['This field is required.'] }],
      ['/v2/sellquote?btc_amount=-1', { btc_amount: ['Ensure this value is greater than 0.'] }],
      ['/v2/sellquote?btc_amount=1&currency=USD', { currency: ['"USD" is not a valid choice.'] }],
    ];
    for (const [path, errors] of cases) {
      const res = await t.signed('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual(developerError('validation_error', errors));
    }
  });
});
