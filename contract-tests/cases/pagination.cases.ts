import type { ApiResponse, QueryValue } from '../../src/client/index.js';
import type { CaseContext, ContractCase } from '../harness/case.context.js';
import { walkOffsets, walkPages } from '../harness/page.walker.js';

type Getter = (ctx: CaseContext, query: Record<string, QueryValue>) => Promise<ApiResponse>;

const signedList =
  (path: string, operationId: string): Getter =>
  (ctx, query) =>
    ctx.dev.request({ method: 'GET', path, query, operationId });

const accounts = signedList('/v3/crypto-accounts/', 'listCryptoAccounts');
const outlets = signedList('/v1/payout-outlets/', 'listPayoutOutlets');
const fees = signedList('/v3/partner-payout-outlet-fees', 'listPartnerPayoutOutletFees');
const transfers = signedList('/v3/transfers', 'listTransfers');
const sellOrders = signedList('/v2/sellorder', 'listSellOrders');
const buyOrders = signedList('/v2/buyorder', 'listBuyOrders');

function pageWalk(
  ctx: CaseContext,
  get: Getter,
  key: string,
  perPage: number,
  extra: Record<string, QueryValue> = {},
  orderBy?: string,
) {
  return walkPages(ctx, {
    key,
    perPage,
    orderBy,
    fetch: (page, per_page) => get(ctx, { ...extra, page, per_page }),
  });
}

/** Walk every page of every list (docs/design.md#pagination): no gaps, no duplicates, metas consistent, nulls. */
export const paginationCases: ContractCase[] = [
  {
    name: 'pagination: every page of the invoice list, newest first',
    tags: ['write'],
    async run(ctx) {
      const made: string[] = [];
      for (let i = 0; i < 7; i++)
        made.push(
          (
            await ctx.merchant.createInvoice({
              amount: 1 + i,
              currency: 'PHP',
              external_transaction_id: ctx.ref('walk'),
            })
          ).id,
        );
      const walk = await walkPages(ctx, {
        key: 'invoices',
        perPage: 3,
        orderBy: 'created_at',
        fetch: (page, per_page) =>
          ctx.merchant.request({
            method: 'GET',
            path: '/v3/invoices/',
            query: { page, per_page },
            operationId: 'listInvoices',
          }),
      });
      if (walk.complete)
        ctx.check(
          made.every((id) => walk.ids.includes(id)),
          'invoices created in this run are missing from the walk',
          'listInvoices',
        );
      const head = walk.ids.slice(0, 7);
      ctx.check(
        JSON.stringify(head) === JSON.stringify([...made].reverse()),
        'the newest invoices are not first, in creation order reversed',
        'listInvoices',
      );
    },
  },
  {
    name: 'pagination: every page of wallet accounts',
    tags: ['read'],
    run: async (ctx) => void (await pageWalk(ctx, accounts, 'crypto-accounts', 1)),
  },
  {
    name: 'pagination: every page of payout outlets',
    tags: ['read'],
    run: async (ctx) => void (await pageWalk(ctx, outlets, 'payout-outlets', 3)),
  },
  {
    name: 'pagination: every page of partner payout outlet fees, all of them and per outlet',
    tags: ['read'],
    async run(ctx) {
      await pageWalk(ctx, fees, 'partner-payout-outlet-fees', 4);
      const first = await fees(ctx, { per_page: 1 });
      ctx.expectStatus(first, 200);
      const outlet = (
        first.body as { 'partner-payout-outlet-fees': Array<{ payment_outlet: string }> }
      )['partner-payout-outlet-fees'][0]?.payment_outlet;
      if (!outlet) return;
      await pageWalk(ctx, fees, 'partner-payout-outlet-fees', 2, { outlet_id: outlet });
      const filtered = await fees(ctx, { outlet_id: outlet, per_page: 100 });
      const items = (
        filtered.body as { 'partner-payout-outlet-fees': Array<{ payment_outlet: string }> }
      )['partner-payout-outlet-fees'];
      ctx.check(
        items.length > 0 && items.every((f) => f.payment_outlet === outlet),
        `outlet_id=${outlet} returned brackets of other outlets`,
        'listPartnerPayoutOutletFees',
      );
    },
  },
  {
    name: 'pagination: every page of transfers (page style)',
    tags: ['read'],
    run: async (ctx) => void (await pageWalk(ctx, transfers, 'transfers', 2, {}, 'created_at')),
  },
  {
    name: 'pagination: every slice of sell orders (offset style)',
    tags: ['read'],
    run: async (ctx) =>
      void (await walkOffsets(ctx, {
        key: 'orders',
        limit: 2,
        fetch: (offset, limit) => sellOrders(ctx, { offset, limit }),
      })),
  },
  {
    name: 'pagination: every slice of buy orders (offset style)',
    tags: ['read'],
    run: async (ctx) =>
      void (await walkOffsets(ctx, {
        key: 'orders',
        limit: 2,
        fetch: (offset, limit) => buyOrders(ctx, { offset, limit }),
      })),
  },
  {
    name: 'pagination: developer list parameters are validated, limit and per_page clamped to 100',
    tags: ['read'],
    async run(ctx) {
      const bad: Array<[Getter, Record<string, QueryValue>, string]> = [
        [accounts, { page: 0 }, 'page'],
        [transfers, { per_page: 0 }, 'per_page'],
        [outlets, { page: 'x' }, 'page'],
        [fees, { per_page: -3 }, 'per_page'],
        [sellOrders, { limit: 0 }, 'limit'],
        [sellOrders, { offset: -1 }, 'offset'],
        [buyOrders, { limit: 'abc' }, 'limit'],
      ];
      for (const [get, query, field] of bad)
        ctx.expectError(await get(ctx, query), 400, 'validation_error', field);
      for (const get of [sellOrders, buyOrders]) {
        const res = await get(ctx, { limit: 500 });
        ctx.expectStatus(res, 200);
        const limit = (res.body as { meta: { pagination: { limit: number } } }).meta.pagination
          .limit;
        ctx.check(
          limit === 100,
          `limit=500 is echoed as ${limit}, expected it clamped to 100`,
          res.operationId,
        );
      }
      const many = await transfers(ctx, { per_page: 1000 });
      ctx.expectStatus(many, 200);
      ctx.check(
        (many.body as { transfers: unknown[] }).transfers.length <= 100,
        'per_page=1000 returned more than 100 transfers',
        'listTransfers',
      );
    },
  },
];
