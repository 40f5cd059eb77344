import type { QueryValue } from '../../src/client/index.js';
import type { CaseContext, ContractCase } from '../harness/case.context.js';
import { sameJson } from '../harness/compare.js';
import { itemAt } from '../../src/shared/defined.js';

type Item = { id: string; [k: string]: unknown };

const get = (
  ctx: CaseContext,
  path: string,
  operationId: string,
  query: Record<string, QueryValue> = {},
) => ctx.dev.request({ method: 'GET', path, query, operationId });

/** Every payout outlet, as the v4 list gives them in one page (what the eload client does). */
async function allPayoutOutlets(ctx: CaseContext): Promise<Item[]> {
  const res = await get(ctx, '/v4/payout-outlets/', 'listPayoutOutletsV4', {
    language: 'en',
    per_page: 1000,
  });
  ctx.expectStatus(res, 200);
  return (res.body as { 'payout-outlets': Item[] })['payout-outlets'];
}

/** The outlet directory of the developer API: payout and pay-in outlets, their fees and categories. */
export const outletCases: ContractCase[] = [
  {
    name: 'outlets: v4 lists every payout outlet in one page; each retrieves by id as listed; unknown ids are 404',
    tags: ['read'],
    async run(ctx) {
      const outlets = await allPayoutOutlets(ctx);
      ctx.check(outlets.length > 0, 'no payout outlets', 'listPayoutOutletsV4');
      ctx.check(
        outlets.some((o) => o.id === 'coins_transfer'),
        'no coins_transfer outlet',
        'listPayoutOutletsV4',
      );
      for (const o of outlets.slice(0, 3)) {
        const one = await get(
          ctx,
          `/v1/payout-outlets/${encodeURIComponent(o.id)}`,
          'getPayoutOutlet',
        );
        ctx.expectStatus(one, 200);
        ctx.check(
          sameJson((one.body as { 'payout-outlet': Item })['payout-outlet'], o),
          `outlet ${o.id} differs from its list item`,
          'getPayoutOutlet',
        );
      }
      ctx.expectError(
        await get(ctx, `/v1/payout-outlets/ct-no-such-outlet-${ctx.info.runId}`, 'getPayoutOutlet'),
        404,
        'not_found',
      );
    },
  },
  {
    name: 'outlets: payout-outlet-fees cover every outlet; categories hold every outlet once',
    tags: ['read'],
    async run(ctx) {
      const outlets = await allPayoutOutlets(ctx);
      const fees = await get(ctx, '/v1/payout-outlet-fees/', 'listPayoutOutletFees', {
        per_page: 100,
      });
      ctx.expectStatus(fees, 200);
      const feeOutlets = new Set(
        (fees.body as { 'payout-outlet-fees': Array<{ payment_outlet: string }> })[
          'payout-outlet-fees'
        ].map((f) => f.payment_outlet),
      );
      const cats = await get(ctx, '/v1/payout-outlet-categories/', 'listPayoutOutletCategories', {
        per_page: 100,
      });
      ctx.expectStatus(cats, 200);
      const members = (cats.body as { 'payout-outlet-categories': Array<{ outlets: string[] }> })[
        'payout-outlet-categories'
      ].flatMap((c) => c.outlets);
      for (const o of outlets) {
        ctx.check(
          feeOutlets.has(o.id),
          `outlet ${o.id} has no fee bracket`,
          'listPayoutOutletFees',
        );
        ctx.check(
          members.filter((m) => m === o.id).length === 1,
          `outlet ${o.id} is not in exactly one category`,
          'listPayoutOutletCategories',
        );
      }
    },
  },
  {
    name: 'outlets: pay-in outlets filter by region and is_enabled, with fees and categories',
    tags: ['read'],
    async run(ctx) {
      const res = await get(ctx, '/v1/payin-outlets/', 'listPayinOutlets', {
        region: 'PH',
        is_enabled: 1,
        per_page: 100,
      });
      ctx.expectStatus(res, 200);
      const items = (res.body as { 'payin-outlets': Item[] })['payin-outlets'];
      ctx.check(
        items.length > 0 && items.every((o) => o.region === 'PH'),
        'region=PH listed no outlet or another region',
        'listPayinOutlets',
      );
      const none = await get(ctx, '/v1/payin-outlets/', 'listPayinOutlets', { region: 'ZZ' });
      ctx.check(
        (none.body as { 'payin-outlets': Item[] })['payin-outlets'].length === 0,
        'region=ZZ listed outlets',
        'listPayinOutlets',
      );
      ctx.expectError(
        await get(ctx, '/v1/payin-outlets/', 'listPayinOutlets', { is_enabled: 'maybe' }),
        400,
        'validation_error',
        'is_enabled',
      );
      const fees = await get(ctx, '/v1/payin-outlet-fees/', 'listPayinOutletFees', {
        per_page: 100,
      });
      ctx.expectStatus(fees, 200);
      const cats = await get(ctx, '/v1/payin-outlet-categories/', 'listPayinOutletCategories');
      ctx.expectStatus(cats, 200);
      const members = (cats.body as { 'payin-outlet-categories': Array<{ outlets: string[] }> })[
        'payin-outlet-categories'
      ].flatMap((c) => c.outlets);
      for (const o of items)
        ctx.check(
          members.includes(o.id),
          `pay-in outlet ${o.id} is in no category`,
          'listPayinOutletCategories',
        );
    },
  },
  {
    name: 'outlets: a sell quote equals the partner fee quote; validate-field checks a field of an outlet',
    tags: ['read'],
    async run(ctx) {
      const outlets = await allPayoutOutlets(ctx);
      const outlet =
        outlets.find(
          (o) =>
            Array.isArray(o.fields) &&
            (o.fields as Array<{ id: string }>).some((f) => f.id === 'mobile_number'),
        ) ?? itemAt(outlets, 0);
      const quote = await get(ctx, '/v2/sellquote', 'getSellQuote', {
        payment_outlet: outlet.id,
        amount: '1500',
      });
      ctx.expectStatus(quote, 200);
      const partner = await ctx.dev.quotePartnerPayoutOutletFee({
        outlet_id: outlet.id,
        amount: '1500',
      });
      ctx.check(
        sameJson((quote.body as { quote: unknown }).quote, partner),
        'sell quote differs from the partner fee quote',
        'getSellQuote',
      );
      ctx.expectError(
        await get(ctx, '/v2/sellquote', 'getSellQuote', { payment_outlet: outlet.id, amount: 'x' }),
        400,
        'validation_error',
        'amount',
      );
      const validate = (body: Record<string, unknown>) =>
        ctx.dev.request({
          method: 'POST',
          path: '/v3/validate-field/',
          body,
          operationId: 'validateOutletField',
        });
      const field = (outlet.fields as Array<{ id: string }>)[0];
      if (field?.id === 'mobile_number') {
        const ok = await validate({
          payment_outlet: outlet.id,
          field: 'mobile_number',
          value: '09171234567',
        });
        ctx.expectStatus(ok, 200);
        ctx.expectError(
          await validate({ payment_outlet: outlet.id, field: 'mobile_number', value: '12' }),
          400,
          'validation_error',
          'value',
        );
      }
      ctx.expectError(
        await validate({
          payment_outlet: `ct-no-such-outlet-${ctx.info.runId}`,
          field: 'x',
          value: 'y',
        }),
        400,
        'validation_error',
        'payment_outlet',
      );
    },
  },
  {
    name: "quotes: the 2014 docs' GET /api/v2/sellquote without an outlet and GET /api/v2/buyquote quote every outlet, keyed by id",
    tags: ['read'],
    async run(ctx) {
      type Quote = {
        quote: { btc_amount: number; outlets: Record<string, { outlet_id: string }> };
      };
      const sell = await get(ctx, '/api/v2/sellquote', 'getSellQuote', {
        btc_amount: '0.01',
        currency: 'PHP',
      });
      ctx.expectStatus(sell, 200);
      const buy = await get(ctx, '/api/v2/buyquote', 'getBuyQuote', {
        btc_amount: '1',
        currency: 'PHP',
      });
      ctx.expectStatus(buy, 200);
      for (const [res, operationId] of [
        [sell, 'getSellQuote'],
        [buy, 'getBuyQuote'],
      ] as const) {
        const { quote } = res.body as Quote;
        const outlets = Object.entries(quote.outlets);
        ctx.check(
          outlets.length > 0 && outlets.every(([id, o]) => o.outlet_id === id),
          `a quote of every outlet came back as ${res.text.slice(0, 300)}`,
          operationId,
        );
      }
    },
  },
];
