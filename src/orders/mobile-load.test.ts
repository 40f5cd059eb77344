import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

/** The older docs' send-load request (sellorders.har #1), paid from the peso wallet. */
const LOAD = {
  payment_outlet: 'load-globe',
  btc_amount: 0.0020504,
  currency: 'PHP',
  currency_amount_locked: 25,
  pay_with_wallet: 'PBTC',
  phone_number_load: '+639171234567',
};

describe('mobile-load sell orders (load-globe and friends)', () => {
  it('sells prepaid load: the locked peso amount is debited, the phone is in fields and required_fields', async () => {
    const dev = newDeveloper(t, { php: '100' });
    const res = await t.signed('POST', '/api/v2/sellorder/', { ...as(dev), body: LOAD });
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({
      amount: '25',
      currency: 'PHP',
      delivery_status: 'pending_payment',
      fields: { phone_number_load: '+639171234567' },
      payment_outlet: {
        id: 'load-globe',
        name: 'Globe / TM Prepaid',
        payment_outlet_provider_id: null,
      },
      required_fields: [
        { legend: 'Phone Number', name: 'phone_number_load', value: '+639171234567' },
      ],
    });
    expect(balanceOf(t, dev.php)).toBe(parseAmount('75'));
    t.assertLedger();
    const outlets = await t.signed('GET', '/v4/payout-outlets/?per_page=1000', as(dev));
    expect(outlets.body['payout-outlets'].map((o: { id: string }) => o.id)).toEqual(
      expect.arrayContaining(['load-globe', 'load-smart', 'load-sun']),
    );
  });

  it('needs a Philippine mobile number, and one amount (400, nothing debited)', async () => {
    const dev = newDeveloper(t, { php: '100' });
    const cases: Array<[Record<string, unknown>, Record<string, string[]>]> = [
      [{ phone_number_load: undefined }, { phone_number_load: ['This field is required.'] }],
      [
        { phone_number_load: '12345' },
        {
          phone_number_load: [
            'Enter a valid Philippine mobile number (09XXXXXXXXX or +639XXXXXXXXX).',
          ],
        },
      ],
      [
        { amount: 25, btc_amount: undefined },
        { currency_amount_locked: ['Send amount or currency_amount_locked, not both.'] },
      ],
      [
        { currency_amount_locked: 5 },
        { amount: ['Amount is outside the fee brackets of Globe / TM Prepaid (10 to 1000 PHP).'] },
      ],
    ];
    for (const [change, errors] of cases) {
      const res = await t.signed('POST', '/v2/sellorder', {
        ...as(dev),
        body: { ...LOAD, ...change },
      });
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.errors).toEqual(errors);
    }
    expect(balanceOf(t, dev.php)).toBe(parseAmount('100'));
  });
});
