import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { as, newDeveloper, whitelistedDeveloper } from '../testing/developer.test-support.js';
import { developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

// The 2014 docs' buy quote (parity/recorded quotes.har#1).
describe('GET /api/v2/buyquote', () => {
  it('quotes every payment method a buy order takes, as the 2014 docs write it, and each can be placed', async () => {
    whitelistedDeveloper(t);
    const res = await t.signed('GET', '/api/v2/buyquote?btc_amount=1&currency=PHP');
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const { quote } = res.body;
    expect(quote).toMatchObject({ btc_amount: 1, currency: 'PHP', rate: 1 });
    expect(quote.outlets.bdo_deposit).toEqual({
      available: true,
      coins_fee: '0',
      collections_outlet: true,
      fee: '0',
      help_link: '',
      help_text: 'Make a deposit to our BDO bank account.',
      name: 'BDO',
      outlet_id: 'bdo_deposit',
      outlet_type_id: 'bank_deposit',
      outlet_type_name: 'Bank Deposit',
      required_fields: [],
      subtotal: '1',
      total: '1',
    });
    const seven = t.fixtures.payin_outlets.find((o) => o.collector === 'seven_connect_deposit');
    if (!seven) throw new Error('the fixtures have a 7-Eleven pay-in outlet');
    expect(quote.outlets.seven_connect_deposit).toMatchObject({
      name: seven.name,
      help_text: seven.instructions,
      outlet_type_id: 'nonbank-otc',
    });
    // Every key is a payment method a buy order takes, at the quoted total.
    const dev = newDeveloper(t);
    for (const method of Object.keys(quote.outlets)) {
      const placed = await t.signed('POST', '/api/v2/buyorder', {
        ...as(dev),
        body: { btc_amount: 1, currency: 'PHP', payment_method: method },
      });
      expect(placed.status, `${method} ${JSON.stringify(placed.body)}`).toBe(201);
      expect(placed.body.order.currency_amount).toBe(quote.outlets[method].total);
    }
  });

  it('takes amount (equal at rate 1) and PBTC, and refuses a missing, bad or conflicting amount (400)', async () => {
    whitelistedDeveloper(t);
    const ok = await t.signed('GET', '/v2/buyquote?amount=250.5&currency=PBTC');
    expect(ok.status).toBe(200);
    expect(ok.body.quote).toMatchObject({ btc_amount: 250.5, currency: 'PHP' });
    expect(ok.body.quote.outlets.bpi_deposit.total).toBe('250.5');
    const cases: Array<[string, Record<string, string[]>]> = [
      ['/v2/buyquote', { btc_amount: ['This field is required.'] }],
      ['/v2/buyquote?btc_amount=x', { btc_amount: ['A valid number is required.'] }],
      [
        '/v2/buyquote?btc_amount=1&amount=2',
        { amount: ['Must equal btc_amount (the sandbox rate is 1).'] },
      ],
      ['/v2/buyquote?btc_amount=1&currency=BTC', { currency: ['"BTC" is not a valid choice.'] }],
    ];
    for (const [path, errors] of cases) {
      const res = await t.signed('GET', path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toEqual(developerError('validation_error', errors));
    }
    expect((await t.request('GET', '/v2/buyquote?btc_amount=1')).status).toBe(401);
  });
});
