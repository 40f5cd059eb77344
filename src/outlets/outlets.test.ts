import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MOBILE_LOAD_OUTLETS } from './outlets.catalog.js';
import { as, otpDeveloper } from '../testing/developer.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { feePercentText } from './outlets.view.js';
import { errorCode, developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const FEES = '/v3/partner-payout-outlet-fees';

describe('payout outlets', () => {
  it('lists every payout outlet in fixture order, page-based, on either header spelling', async () => {
    // The fixtures' outlets, then the built-in coins_transfer (send to a wallet) and the prepaid-load outlets.
    const outlets = [
      ...t.fixtures.payout_outlets,
      { id: 'coins_transfer', name: 'Coins Transfer', category: 'coins_transfer', currency: 'PHP' },
      ...MOBILE_LOAD_OUTLETS,
    ];
    for (const spelling of ['underscore', 'dash'] as const) {
      const res = await t.signed('GET', '/v1/payout-outlets/?per_page=100', { spelling });
      expect(res.status).toBe(200);
      expect(
        res.body['payout-outlets'].map((o: Record<string, unknown>) => ({
          id: o.id,
          name: o.name,
          outlet_category: o.outlet_category,
        })),
      ).toEqual(
        outlets.map((o) => ({
          id: o.id,
          name: o.name,
          outlet_category: o.category,
        })),
      );
      // The real item has no sandbox-only `category` or `currency`: the currency is its limits'.
      for (const o of res.body['payout-outlets'] as Array<Record<string, unknown>>) {
        expect(o).not.toHaveProperty('category');
        expect(o).not.toHaveProperty('currency');
      }
      expect(res.body.meta).toEqual({
        total_count: outlets.length,
        next_page: null,
        previous_page: null,
      });
    }
    const p2 = await t.signed('GET', '/v1/payout-outlets?page=2&per_page=3');
    expect(p2.body['payout-outlets'].map((o: { id: string }) => o.id)).toEqual(
      outlets.slice(3, 6).map((o) => o.id),
    );
    expect(p2.body.meta).toEqual({ total_count: outlets.length, next_page: 3, previous_page: 1 });
  });
});

describe('partner payout outlet fees', () => {
  it('lists the brackets of every outlet, or of one with outlet_id', async () => {
    const all = t.fixtures.payout_outlets.flatMap((o) =>
      o.fees.map((b) => ({ outlet: o.id, ...b })),
    );
    const res = await t.signed('GET', `${FEES}?per_page=100`);
    expect(res.status).toBe(200);
    // The fixtures' brackets, then the ones of the built-in coins_transfer and prepaid-load outlets.
    expect(res.body.meta).toEqual({
      total_count: all.length + 1 + MOBILE_LOAD_OUTLETS.length,
      next_page: null,
      previous_page: null,
    });
    expect(
      res.body['partner-payout-outlet-fees']
        .slice(all.length)
        .map((b: { payment_outlet: string }) => b.payment_outlet),
    ).toEqual(['coins_transfer', ...MOBILE_LOAD_OUTLETS.map((o) => o.id)]);
    expect(res.body['partner-payout-outlet-fees'][0]).toEqual({
      id: all[0]!.id,
      payment_outlet: all[0]!.outlet,
      currency: 'PHP',
      // Written as stored, without padding, as the recorded fee lists write them.
      from_amount: '0',
      until_amount: '999.99999999',
      fee_amount: all[0]!.fee_amount,
      fee_percent: feePercentText(all[0]!.fee_percent),
    });
    const one = await t.signed('GET', `/api/v3/partner-payout-outlet-fees?outlet_id=gcash`, {
      spelling: 'dash',
    });
    expect(
      one.body['partner-payout-outlet-fees'].map(
        (b: { payment_outlet: string }) => b.payment_outlet,
      ),
    ).toEqual(['gcash', 'gcash', 'gcash']);
    expect(one.body.meta.total_count).toBe(3);
    const none = await t.signed('GET', `${FEES}?outlet_id=nowhere`);
    expect(none.body).toEqual({
      'partner-payout-outlet-fees': [],
      meta: { total_count: 0, next_page: null, previous_page: null },
    });
  });

  it('writes fee_percent as the recorded fee lists do: the fraction without trailing zeros', () => {
    expect(
      ['0', '1', '0.5', '0.01', '0.0025', '0.01125', '0.00', '0.0100', '10'].map(feePercentText),
    ).toEqual(['0', '1', '0.5', '0.01', '0.0025', '0.01125', '0', '0.01', '10']);
  });

  it('quotes amount × fee_percent (a fraction) + flat fee from the bracket that holds the amount, exactly', async () => {
    const outlet = t.fixtures.payout_outlets.find(
      (o) => o.fees[1]!.fee_percent === '0.005' && o.fees[1]!.fee_amount === '10',
    )!;
    const quote = async (amount: unknown) =>
      t.signed('POST', FEES, { body: { outlet_id: outlet.id, amount } });
    const mid = await quote('1234.56789012');
    expect(mid.status).toBe(200);
    // 1234.56789012 × 0.005 = 6.1728394506 → 6.17283945; + 10
    expect(mid.body).toEqual({
      'partner-payout-outlet-fee': {
        id: outlet.fees[1]!.id,
        payment_outlet: outlet.id,
        currency: 'PHP',
        from_amount: '1000',
        until_amount: '49999.99999999',
        fee_amount: '10',
        fee_percent: '0.005',
        amount: '1234.56789012',
        fee: '16.17283945',
        total: '1250.74072957',
      },
    });
    // Bracket edges are inclusive on both ends.
    expect((await quote('999.99999999')).body['partner-payout-outlet-fee'].id).toBe(
      outlet.fees[0]!.id,
    );
    expect((await quote(1000)).body['partner-payout-outlet-fee']).toMatchObject({
      id: outlet.fees[1]!.id,
      fee: '15.00000000',
      total: '1015.00000000',
    });
    expect((await quote(500000)).body['partner-payout-outlet-fee'].id).toBe(outlet.fees[2]!.id);
    expect((await quote('0.00000001')).body['partner-payout-outlet-fee'].amount).toBe('0.00000001');
  });

  it('refuses an unknown outlet, an amount outside every bracket and bad input with field errors', async () => {
    const unknown = await t.signed('POST', FEES, { body: { outlet_id: 'nope', amount: 10 } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(
      developerError('validation_error', { outlet_id: ['Payout outlet "nope" does not exist.'] }),
    );
    const outside = await t.signed('POST', FEES, {
      body: { outlet_id: 'gcash', amount: '500000.00000001' },
    });
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual(
      developerError('amount_outside_fee_brackets', {
        amount: ['Amount is outside the fee brackets of GCash (0 to 500000 PHP).'],
      }),
    );
    const missing = await t.signed('POST', FEES, { body: {} });
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.errors).sort()).toEqual(['amount', 'outlet_id']);
    const bad = await t.signed('POST', FEES, { body: { outlet_id: 'gcash', amount: '1e5' } });
    expect(bad.body.errors).toEqual({ amount: ['A valid number is required.'] });
  });

  it('needs no OTP (a quote moves no money)', async () => {
    const res = await t.signed('POST', FEES, {
      ...as(otpDeveloper(t)),
      body: { outlet_id: 'gcash', amount: 100 },
    });
    expect(res.status).toBe(200);
  });

  it('refuses unsigned calls', async () => {
    const res = await t.request('GET', '/v1/payout-outlets/');
    expect(res.status).toBe(401);
    expect(errorCode(res.body)).toBe('missing_credentials');
  });
});
