import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { whitelistedDeveloper } from '../testing/developer.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { feePercentText } from './outlets.view.js';
import { errorCode } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const ids = (items: Array<{ id: string }>) => items.map((o) => o.id);
const payoutIds = () => [
  ...t.fixtures.payout_outlets.map((o) => o.id),
  'coins_transfer',
  'load-globe',
  'load-smart',
  'load-sun',
];
const collectors = () => t.fixtures.payin_outlets.map((o) => o.collector);

describe('one payout outlet', () => {
  it('answers the full resource at /v1 and /d/api, with amount limits from its fee brackets', async () => {
    const fx = t.fixtures.payout_outlets.find((o) => o.id === 'bpi')!;
    for (const path of ['/v1/payout-outlets/bpi', '/d/api/payout-outlets/bpi/']) {
      const res = await t.signed('GET', path);
      expect(res.status).toBe(200);
      expect(res.body['payout-outlet']).toMatchObject({
        id: 'bpi',
        name: fx.name,
        outlet_category: 'bank',
        region: 'PH',
        is_enabled: true,
        amount_limits: [
          {
            currency: 'PHP',
            minimum: Number(fx.fees[0]!.from_amount),
            maximum: Number(fx.fees.at(-1)!.until_amount),
            increment: 0.00000001,
          },
        ],
        fields: [
          expect.objectContaining({ id: 'account_number' }),
          expect.objectContaining({ id: 'account_name' }),
        ],
        payment_outlet_type: {
          id: 'bank',
          name: 'Bank transfer',
          outlets: ['bpi', 'bdo', 'metrobank', 'unionbank'],
        },
      });
    }
  });

  it('has coins_transfer, a free payout to a wallet address, email or mobile number', async () => {
    const res = await t.signed('GET', '/v1/payout-outlets/coins_transfer');
    expect(res.body['payout-outlet']).toMatchObject({
      id: 'coins_transfer',
      outlet_category: 'coins_transfer',
      fields: [
        {
          id: 'target_address',
          name: 'Target Address',
          field_type: '',
          help_text: 'Wallet address, email or mobile number',
          help_link: '',
        },
      ],
    });
    const q = await t.signed('GET', '/v2/sellquote?payment_outlet=coins_transfer&amount=2500');
    expect(q.body.quote).toMatchObject({
      fee: '0.00000000',
      total: '2500.00000000',
      fee_percent: '0',
    });
    // A sell order through it debits the amount only (src/orders/coins-transfer.test.ts follows the money).
    const dev = whitelistedDeveloper(t);
    const order = await t.signed('POST', '/v1/sellorder', {
      key: dev.app.api_key,
      secret: dev.app.api_secret,
      body: {
        payment_outlet: 'coins_transfer',
        amount: '2500',
        currency: 'PHP',
        target_address: t.fixtures.customers[0]!.email,
      },
    });
    expect(order.status).toBe(201);
    expect(order.body.order).toMatchObject({
      payment_outlet: {
        id: 'coins_transfer',
        name: 'Coins Transfer',
        payment_outlet_provider_id: null,
      },
    });
    expect([order.headers.get('x-sandbox-fee'), order.headers.get('x-sandbox-total')]).toEqual([
      '0',
      '2500',
    ]);
    t.assertLedger();
  });

  it('answers 404 "Not found." for an unknown outlet and 401 unsigned', async () => {
    const res = await t.signed('GET', '/v1/payout-outlets/nowhere');
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual({ non_field_errors: ['Not found.'] });
    expect((await t.request('GET', '/v1/payout-outlets/bpi')).status).toBe(401);
  });
});

describe('v4 payout outlets', () => {
  it('lists every outlet in one page with per_page=1000 and accepts language', async () => {
    const res = await t.signed('GET', '/v4/payout-outlets/?language=en&per_page=1000');
    expect(res.status).toBe(200);
    expect(ids(res.body['payout-outlets'])).toEqual(payoutIds());
    expect(res.body.meta).toEqual({
      total_count: payoutIds().length,
      next_page: null,
      previous_page: null,
    });
    const v1 = await t.signed('GET', '/v1/payout-outlets/?per_page=100');
    expect(res.body['payout-outlets']).toEqual(v1.body['payout-outlets']);
  });

  it('pages with page/per_page, clamps per_page above 1000 and refuses bad parameters', async () => {
    const p2 = await t.signed('GET', '/v4/payout-outlets?page=2&per_page=4');
    expect(ids(p2.body['payout-outlets'])).toEqual(payoutIds().slice(4, 8));
    expect(p2.body.meta).toEqual({ total_count: 12, next_page: 3, previous_page: 1 });
    const huge = await t.signed('GET', '/v4/payout-outlets?per_page=100000');
    expect(huge.status).toBe(200);
    expect(huge.body['payout-outlets']).toHaveLength(12);
    for (const q of ['per_page=0', 'page=0', 'per_page=x', `language=${'e'.repeat(17)}`]) {
      const bad = await t.signed('GET', `/v4/payout-outlets?${q}`);
      expect(bad.status, q).toBe(400);
      expect(errorCode(bad.body)).toBe('validation_error');
    }
  });
});

describe('payout outlet fees and categories', () => {
  it('lists the documented payout-outlet-fees, the same brackets as the partner list', async () => {
    const res = await t.signed('GET', '/d/api/payout-outlet-fees/?per_page=100');
    expect(res.status).toBe(200);
    const partner = await t.signed('GET', '/v3/partner-payout-outlet-fees?per_page=100');
    expect(res.body['payout-outlet-fees']).toEqual(partner.body['partner-payout-outlet-fees']);
    const fx = t.fixtures.payout_outlets.flatMap((o) =>
      o.fees.map((b) => ({ payment_outlet: o.id, fee_percent: feePercentText(b.fee_percent) })),
    );
    expect(
      res.body['payout-outlet-fees'].map((b: { payment_outlet: string; fee_percent: string }) => ({
        payment_outlet: b.payment_outlet,
        fee_percent: b.fee_percent,
      })),
    ).toEqual([
      ...fx,
      { payment_outlet: 'coins_transfer', fee_percent: '0' },
      ...['load-globe', 'load-smart', 'load-sun'].map((id) => ({
        payment_outlet: id,
        fee_percent: '0',
      })),
    ]);
    const one = await t.signed('GET', '/v1/payout-outlet-fees/?outlet_id=gcash');
    expect(one.body.meta.total_count).toBe(3);
    expect(Object.keys(one.body['payout-outlet-fees'][0]).sort()).toEqual([
      'currency',
      'fee_amount',
      'fee_percent',
      'from_amount',
      'id',
      'payment_outlet',
      'until_amount',
    ]);
  });

  it('lists the payout categories: every outlet in exactly one, with that category fields', async () => {
    const res = await t.signed('GET', '/d/api/payout-outlet-categories/');
    expect(res.status).toBe(200);
    const cats = res.body['payout-outlet-categories'] as Array<{
      id: string;
      outlets: string[];
      fields: Array<{ id: string }>;
    }>;
    expect(ids(cats)).toEqual(['bank', 'e-wallet', 'remittance', 'coins_transfer', 'mobile-load']);
    expect(cats.flatMap((c) => c.outlets).sort()).toEqual(payoutIds().sort());
    const all = await t.signed('GET', '/v4/payout-outlets/?per_page=1000');
    for (const o of all.body['payout-outlets'] as Array<{
      id: string;
      outlet_category: string;
      fields: unknown;
    }>) {
      const cat = cats.find((c) => c.outlets.includes(o.id))!;
      expect(cat.id).toBe(o.outlet_category);
      expect(cat.fields).toEqual(o.fields);
    }
    expect(res.body.meta).toEqual({ total_count: 5, next_page: null, previous_page: null });
    // The texts under both names the recorded category lists use (outlets.har#2, #7).
    for (const c of cats as unknown as Array<Record<string, unknown>>) {
      expect(c.fee_info).toEqual(expect.any(String));
      expect(c.fee_structure_description).toBe(c.fee_info);
      expect(c.payout_duration_description).toBe(c.payout_duration);
    }
    expect(cats.find((c) => c.id === 'coins_transfer')).toMatchObject({ fee_info: 'Free' });
  });
});

describe('pay-in outlets', () => {
  it('lists the counter outlets in the real item shape with region and is_enabled filters', async () => {
    const res = await t.signed('GET', '/d/api/payin-outlets/?region=PH&is_enabled=1');
    expect(res.status).toBe(200);
    expect(ids(res.body['payin-outlets'])).toEqual(collectors());
    const seven = res.body['payin-outlets'][0];
    const fx = t.fixtures.payin_outlets[0]!;
    expect(seven).toMatchObject({
      id: fx.collector,
      name: fx.name,
      outlet_category: 'nonbank-otc',
      payment_outlet_type: {
        id: 'nonbank-otc',
        name: 'Non-bank OTC',
        fields: [],
        outlets: collectors(),
      },
      amount_limits: [{ currency: 'PHP', minimum: 15, maximum: 100000000, increment: 0.00000001 }],
      denominations: [],
      region: 'PH',
      instructions: fx.instructions,
      is_enabled: true,
    });
    for (const path of [
      '/v1/payin-outlets/?region=ph',
      '/v1/payin-outlets/?is_enabled=true',
      '/v1/payin-outlets/',
    ]) {
      const res = await t.signed('GET', path);
      expect(res.status).toBe(200);
      expect(ids(res.body['payin-outlets']), path).toEqual(collectors());
    }
    for (const q of ['region=SG', 'is_enabled=0', 'region=PH&is_enabled=False']) {
      const none = await t.signed('GET', `/v1/payin-outlets/?${q}`);
      expect(none.body, q).toEqual({
        'payin-outlets': [],
        meta: { total_count: 0, next_page: null, previous_page: null },
      });
    }
    const bad = await t.signed('GET', '/v1/payin-outlets/?is_enabled=maybe');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['is_enabled']);
    const p2 = await t.signed('GET', '/v1/payin-outlets/?page=2&per_page=2');
    expect(ids(p2.body['payin-outlets'])).toEqual(collectors().slice(2, 4));
  });

  it('lists their fees (free in the sandbox) and their category', async () => {
    const fees = await t.signed('GET', '/d/api/payin-outlet-fees/');
    expect(fees.status).toBe(200);
    expect(fees.body['payin-outlet-fees']).toEqual(
      collectors().map((c) => ({
        payment_outlet: c,
        currency: 'PHP',
        // Written as stored, as the recorded pay-in fee lists write them.
        from_amount: '15',
        until_amount: '100000000',
        fee_amount: '0',
        fee_percent: '0',
      })),
    );
    const one = await t.signed('GET', '/v1/payin-outlet-fees/?outlet_id=bayad_deposit');
    expect(
      one.body['payin-outlet-fees'].map((f: { payment_outlet: string }) => f.payment_outlet),
    ).toEqual(['bayad_deposit']);
    const cats = await t.signed('GET', '/d/api/payin-outlet-categories/');
    expect(cats.body['payin-outlet-categories']).toEqual([
      expect.objectContaining({
        id: 'nonbank-otc',
        outlets: collectors(),
        // The recorded pay-in categories' names for the texts, beside the payout categories' ones.
        fee_structure_description: 'Free',
        fee_info: 'Free',
        payout_duration_description: '',
      }),
    ]);
  });
});
