import type { ContractCase } from '../harness/case.context.js';
import { itemAt, required } from '../../src/shared/defined.js';

const valid = () => ({ amount: 20, currency: 'PHP', external_transaction_id: 'placeholder' });

/** Bad create bodies: each must be 400 validation_error with an error on that field (docs/design.md#wire-conventions, #limits-and-bad-input). */
const BAD_BODIES: Array<[string, Record<string, unknown>, string]> = [
  ['amount missing', { amount: undefined }, 'amount'],
  ['amount in exponent form', { amount: '1e3' }, 'amount'],
  ['negative amount', { amount: -5 }, 'amount'],
  ['zero amount', { amount: 0 }, 'amount'],
  ['amount with 9 decimals', { amount: '0.000000001' }, 'amount'],
  ['amount NaN', { amount: 'NaN' }, 'amount'],
  ['amount with a sign', { amount: '+5' }, 'amount'],
  ['amount true', { amount: true }, 'amount'],
  ['currency USD', { currency: 'USD' }, 'currency'],
  ['currency missing', { currency: undefined }, 'currency'],
  ['external_transaction_id blank', { external_transaction_id: '' }, 'external_transaction_id'],
  [
    'external_transaction_id of 256 characters',
    { external_transaction_id: 'x'.repeat(256) },
    'external_transaction_id',
  ],
  [
    'external_transaction_id missing',
    { external_transaction_id: undefined },
    'external_transaction_id',
  ],
  ['description of 1001 characters', { description: 'd'.repeat(1001) }, 'description'],
  ['metadata a list', { metadata: [1] }, 'metadata'],
  [
    'unknown payment collector',
    { supported_payment_collectors: ['ct_no_such_collector'] },
    'supported_payment_collectors',
  ],
];

/** Invoice inputs, list parameters and merchant scoping (docs/design.md#authentication, #public-api, #pagination, #limits-and-bad-input). */
export const invoiceInputCases: ContractCase[] = [
  {
    name: 'invoices: every bad create body is 400 validation_error on its field, and creates nothing',
    tags: ['write'],
    async run(ctx) {
      const refs: string[] = [];
      for (const [what, patch, field] of BAD_BODIES) {
        const ext = ctx.ref('bad');
        refs.push(ext);
        const body = { ...valid(), external_transaction_id: ext, ...patch };
        const res = await ctx.merchant.request({
          method: 'POST',
          path: '/v1/invoices/',
          body,
          operationId: 'createInvoiceV1',
        });
        ctx.check(
          res.status === 400,
          `${what}: expected 400, observed ${res.status}`,
          'createInvoiceV1',
        );
        ctx.expectError(res, 400, 'validation_error', field);
      }
      for (const ext of [itemAt(refs, 0), itemAt(refs, refs.length - 1)]) {
        const leaked = await ctx.merchant.listInvoices({ external_transaction_id: ext });
        ctx.check(
          leaked.meta.total_count === 0,
          `a refused create left invoice ${ext} behind`,
          'listInvoices',
        );
      }
    },
  },
  {
    name: 'invoices: malformed JSON is 400 malformed_json, a non-object body is 400',
    tags: ['write'],
    async run(ctx) {
      const broken = await ctx.merchant.request({
        method: 'POST',
        path: '/v1/invoices/',
        rawBody: '{"amount": 20, "currency": ',
        operationId: 'createInvoiceV1',
      });
      ctx.expectError(broken, 400, 'malformed_json');
      const list = await ctx.merchant.request({
        method: 'POST',
        path: '/v3/invoices/',
        rawBody: '[1, 2]',
        operationId: 'createInvoiceV3',
      });
      ctx.expectError(list, 400, 'validation_error', 'non_field_errors');
      const empty = await ctx.merchant.request({
        method: 'POST',
        path: '/v1/invoices/',
        rawBody: '',
        headers: { 'content-type': 'application/json' },
        operationId: 'createInvoiceV1',
      });
      ctx.expectStatus(empty, 400);
    },
  },
  {
    name: 'invoices: list filters by external_transaction_id and by status',
    tags: ['write'],
    async run(ctx) {
      const ext = ctx.ref('filter');
      const inv = await ctx.merchant.createInvoice({
        amount: 2,
        currency: 'PHP',
        external_transaction_id: ext,
      });
      const one = await ctx.merchantV3.listInvoices({ external_transaction_id: ext });
      ctx.check(
        one.invoices.length === 1 && itemAt(one.invoices, 0).id === inv.id,
        `filter by external_transaction_id found ${one.invoices.length}`,
        'listInvoices',
      );
      ctx.check(
        JSON.stringify(one.meta) ===
          JSON.stringify({ total_count: 1, next_page: null, previous_page: null }),
        `meta ${JSON.stringify(one.meta)}`,
        'listInvoices',
      );
      for (const status of ['pending', 'expired', 'fully_paid', 'canceled'] as const) {
        const page = await ctx.merchant.listInvoices({ status, per_page: 100 });
        ctx.check(
          page.invoices.every((i) => i.status === status),
          `status=${status} returned ${[...new Set(page.invoices.map((i) => i.status))].join(', ')}`,
          'listInvoices',
        );
      }
    },
  },
  {
    name: 'invoices: list parameters are validated (page, per_page, status)',
    tags: ['read'],
    async run(ctx) {
      for (const [query, field] of [
        [{ page: 0 }, 'page'],
        [{ page: 'abc' }, 'page'],
        [{ page: '1.5' }, 'page'],
        [{ per_page: 0 }, 'per_page'],
        [{ per_page: -1 }, 'per_page'],
        [{ status: 'ct-not-a-status' }, 'status'],
      ] as const) {
        const res = await ctx.merchant.request({
          method: 'GET',
          path: '/v3/invoices/',
          query,
          operationId: 'listInvoices',
        });
        ctx.expectError(res, 400, 'validation_error', field);
      }
    },
  },
  {
    name: 'invoices: per_page above 100 is clamped to 100',
    tags: ['read'],
    async run(ctx) {
      const page = await ctx.merchant.listInvoices({ per_page: 500 });
      const total = page.meta.total_count;
      ctx.check(
        page.invoices.length === Math.min(100, total),
        `per_page=500 returned ${page.invoices.length} of ${total}`,
        'listInvoices',
      );
      ctx.check(
        page.meta.next_page === (total > 100 ? 2 : null),
        `next_page ${page.meta.next_page} with per_page clamped to 100 and ${total} items`,
        'listInvoices',
      );
    },
  },
  {
    name: 'invoices: an empty result has total_count 0 and null pages, also past the end',
    tags: ['read'],
    async run(ctx) {
      const ext = `ct-${ctx.info.runId}-never-used`;
      for (const page of [1, 2]) {
        const res = await ctx.merchant.listInvoices({ external_transaction_id: ext, page });
        ctx.check(
          res.invoices.length === 0,
          `page ${page} of an empty result has items`,
          'listInvoices',
        );
        ctx.check(
          JSON.stringify(res.meta) ===
            JSON.stringify({ total_count: 0, next_page: null, previous_page: null }),
          `page ${page}: meta ${JSON.stringify(res.meta)}`,
          'listInvoices',
        );
      }
    },
  },
  {
    name: "scoping: another merchant's invoice is 404 on v1 and v3, and absent from its list",
    tags: ['write'],
    needs: (t) =>
      t.creds.merchantToken2 ? undefined : 'needs a second merchant: set CONTRACT_MERCHANT_TOKEN_2',
    async run(ctx) {
      const other = required(ctx.merchant2, 'a second merchant (needs checked it)');
      const ext = ctx.ref('scoped');
      const inv = await ctx.merchant.createInvoice({
        amount: 11,
        currency: 'PHP',
        external_transaction_id: ext,
      });
      for (const version of ['v1', 'v3'] as const) {
        const err = await ctx.rejects(other.getInvoice(inv.id, { version }), 404, 'not_found');
        ctx.check(!err.response.text.includes(ext), 'the 404 leaks the invoice');
      }
      const page = await other.listInvoices({ external_transaction_id: ext });
      ctx.check(
        page.meta.total_count === 0 && page.invoices.length === 0,
        "the other merchant's list shows the invoice",
        'listInvoices',
      );
      // The same external_transaction_id is free for the other merchant (unique per merchant).
      const mine = await other.createInvoice({
        amount: 11,
        currency: 'PHP',
        external_transaction_id: ext,
      });
      ctx.check(
        mine.id !== inv.id,
        'the other merchant got the same invoice back',
        'createInvoiceV1',
      );
    },
  },
];
