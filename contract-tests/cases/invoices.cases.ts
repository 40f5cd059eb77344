import type { Invoice, PaymentCollector } from '../../src/client/index.js';
import type { CaseContext, ContractCase } from '../harness/case.context.js';

const HEX32 = /^[0-9a-f]{32}$/;
const seconds = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 1000;

/** The invoice resource (docs/design.md#public-api) as a fresh pending invoice must look. */
export function checkFreshInvoice(
  ctx: CaseContext,
  inv: Invoice,
  amount: string,
  externalId: string,
  opId: string,
): void {
  const c = (ok: boolean, msg: string) => ctx.check(ok, `invoice ${inv.id}: ${msg}`, opId);
  c(HEX32.test(inv.id), `id ${JSON.stringify(inv.id)} is not 32 lowercase hex`);
  c(inv.status === 'pending', `status is ${inv.status}, expected pending`);
  c(
    inv.amount === amount && inv.amount_due === amount,
    `amount/amount_due are ${inv.amount}/${inv.amount_due}, expected ${amount}`,
  );
  c(
    inv.amount_received === '0.00000000',
    `amount_received is ${inv.amount_received}, expected 0.00000000`,
  );
  c(
    inv.currency === 'PHP' && inv.category === 'merchant',
    `currency/category are ${inv.currency}/${inv.category}`,
  );
  c(
    inv.external_transaction_id === externalId,
    `external_transaction_id is ${inv.external_transaction_id}, expected ${externalId}`,
  );
  c(Array.isArray(inv.payments) && inv.payments.length === 0, 'payments must be empty');
  c(
    inv.current_payment_reference_number === null,
    'current_payment_reference_number must be null before a counter payment',
  );
  c(inv.payment_url.includes(inv.id), `payment_url ${inv.payment_url} does not name the invoice`);
  c(HEX32.test(inv.receiver), `receiver ${JSON.stringify(inv.receiver)} is not an account id`);
  c(inv.supported_payment_collectors.length > 0, 'supported_payment_collectors is empty');
  const left = Number(inv.expires_in_seconds);
  const life = seconds(inv.created_at, inv.expires_at);
  c(
    life > 0 && Math.abs(left - life) <= 5,
    `expires_in_seconds ${inv.expires_in_seconds} does not match expires_at - created_at (${life} s)`,
  );
}

/** Create, retrieve, shape and input handling of invoices (docs/design.md#public-api; operationIds createInvoiceV1/V3, getInvoiceV1/V3). */
export const invoiceCases: ContractCase[] = [
  {
    name: 'invoices: create with Token on v1 returns the documented invoice',
    tags: ['write'],
    async run(ctx) {
      const ext = ctx.ref('create-v1');
      const inv = await ctx.merchant.createInvoice({
        amount: '20',
        currency: 'PHP',
        external_transaction_id: ext,
        description: 'Contract test',
        metadata: { order: ext, n: 1 },
      });
      ctx.expectLastStatus('createInvoiceV1', 201);
      checkFreshInvoice(ctx, inv, '20.00000000', ext, 'createInvoiceV1');
      ctx.check(
        inv.description === 'Contract test',
        `description is ${JSON.stringify(inv.description)}`,
        'createInvoiceV1',
      );
      ctx.check(
        JSON.stringify(inv.metadata) === JSON.stringify({ order: ext, n: 1 }),
        `metadata is ${JSON.stringify(inv.metadata)}`,
        'createInvoiceV1',
      );
    },
  },
  {
    name: 'invoices: create with Bearer on v3, retrieve on v1 and v3',
    tags: ['write'],
    async run(ctx) {
      const ext = ctx.ref('create-v3');
      const created = await ctx.merchantV3.createInvoice({
        amount: 15.5,
        currency: 'PHP',
        external_transaction_id: ext,
      });
      ctx.expectLastStatus('createInvoiceV3', 201);
      checkFreshInvoice(ctx, created, '15.50000000', ext, 'createInvoiceV3');
      for (const [client, opId] of [
        [ctx.merchant, 'getInvoiceV1'],
        [ctx.merchantV3, 'getInvoiceV3'],
      ] as const) {
        const got = await client.getInvoice(created.id);
        ctx.expectLastStatus(opId, 200);
        const same =
          got.id === created.id &&
          got.amount === created.amount &&
          got.external_transaction_id === ext &&
          got.created_at === created.created_at;
        ctx.check(
          same,
          `${opId} returned a different invoice: ${JSON.stringify(got).slice(0, 200)}`,
          opId,
        );
      }
    },
  },
  {
    name: 'invoices: amounts in as number or string, out with exactly 8 decimals',
    tags: ['write'],
    async run(ctx) {
      for (const [amount, wire] of [
        [0.5, '0.50000000'],
        ['1234.56789012', '1234.56789012'],
        [7, '7.00000000'],
        ['0.00000001', '0.00000001'],
      ] as const) {
        const inv = await ctx.merchant.createInvoice({
          amount,
          currency: 'PHP',
          external_transaction_id: ctx.ref('amount'),
        });
        ctx.check(
          inv.amount === wire && inv.amount_due === wire,
          `amount ${JSON.stringify(amount)} came back as ${inv.amount}/${inv.amount_due}, expected ${wire}`,
          'createInvoiceV1',
        );
      }
    },
  },
  {
    name: 'invoices: a duplicate external_transaction_id is 400 duplicate_external_transaction_id',
    tags: ['write'],
    async run(ctx) {
      const ext = ctx.ref('dup');
      await ctx.merchant.createInvoice({
        amount: 5,
        currency: 'PHP',
        external_transaction_id: ext,
      });
      await ctx.rejects(
        ctx.merchant.createInvoice({ amount: 6, currency: 'PHP', external_transaction_id: ext }),
        400,
        'duplicate_external_transaction_id',
        'external_transaction_id',
      );
      await ctx.rejects(
        ctx.merchantV3.createInvoice({ amount: 6, currency: 'PHP', external_transaction_id: ext }),
        400,
        'duplicate_external_transaction_id',
        'external_transaction_id',
      );
    },
  },
  {
    name: 'invoices: an amount above the merchant maximum is 400 amount_above_maximum on amount',
    tags: ['write'],
    async run(ctx) {
      const err = await ctx.rejects(
        ctx.merchant.createInvoice({
          amount: '1000000000',
          currency: 'PHP',
          external_transaction_id: ctx.ref('max'),
        }),
        400,
        'amount_above_maximum',
        'amount',
      );
      const msg = err.fieldErrors.amount?.join(' ') ?? '';
      ctx.check(
        /^Amount should be at most [\d.,]+ PHP\.$/.test(msg),
        `message ${JSON.stringify(msg)} is not "Amount should be at most N PHP."`,
        'createInvoiceV1',
      );
    },
  },
  {
    name: 'invoices: unknown fields are ignored, never stored as state',
    tags: ['write'],
    async run(ctx) {
      const ext = ctx.ref('mass-assign');
      const res = await ctx.merchant.request({
        method: 'POST',
        path: '/v1/invoices/',
        operationId: 'createInvoiceV1',
        body: {
          amount: 20,
          currency: 'PHP',
          external_transaction_id: ext,
          status: 'fully_paid',
          amount_received: '20',
          amount_due: '0',
          id: 'f'.repeat(32),
          category: 'x',
        },
      });
      ctx.expectStatus(res, 201);
      checkFreshInvoice(
        ctx,
        (res.body as { invoice: Invoice }).invoice,
        '20.00000000',
        ext,
        'createInvoiceV1',
      );
      ctx.check(
        (res.body as { invoice: Invoice }).invoice.id !== 'f'.repeat(32),
        'the client chose the invoice id',
        'createInvoiceV1',
      );
    },
  },
  {
    name: 'invoices: supported_payment_collectors and expires_at (delta and ISO 8601) are honoured',
    tags: ['write'],
    async run(ctx) {
      const probe = await ctx.merchant.createInvoice({
        amount: 3,
        currency: 'PHP',
        external_transaction_id: ctx.ref('probe'),
        expires_at: '1h',
      });
      const life = seconds(probe.created_at, probe.expires_at);
      ctx.check(
        Math.abs(life - 3600) <= 2,
        `expires_at "1h" gave a lifetime of ${life} s`,
        'createInvoiceV1',
      );
      const one = probe.supported_payment_collectors[0] as PaymentCollector;
      const at = new Date(Date.parse(probe.created_at) + 7200_000).toISOString();
      const inv = await ctx.merchant.createInvoice({
        amount: 3,
        currency: 'PHP',
        external_transaction_id: ctx.ref('iso'),
        expires_at: at,
        supported_payment_collectors: [one],
      });
      ctx.check(
        Math.abs(seconds(at, inv.expires_at)) <= 1,
        `expires_at ${at} came back as ${inv.expires_at}`,
        'createInvoiceV1',
      );
      ctx.check(
        JSON.stringify(inv.supported_payment_collectors) === JSON.stringify([one]),
        `supported_payment_collectors came back as ${JSON.stringify(inv.supported_payment_collectors)}`,
        'createInvoiceV1',
      );
      const d = await ctx.merchant.createInvoice({
        amount: 3,
        currency: 'PHP',
        external_transaction_id: ctx.ref('delta'),
        expires_at: '1w 3d 2h 32m 5s',
      });
      const want = 7 * 86400 + 3 * 86400 + 2 * 3600 + 32 * 60 + 5;
      ctx.check(
        Math.abs(seconds(d.created_at, d.expires_at) - want) <= 2,
        `expires_at "1w 3d 2h 32m 5s" gave ${seconds(d.created_at, d.expires_at)} s, expected ${want}`,
        'createInvoiceV1',
      );
    },
  },
  {
    name: 'invoices: GET /v1/invoices/{id} without any Authorization header answers the invoice (how merchant plugins poll)',
    tags: ['write'],
    async run(ctx) {
      const ext = ctx.ref('public-read');
      const inv = await ctx.merchant.createInvoice({
        amount: '3',
        currency: 'PHP',
        external_transaction_id: ext,
      });
      const res = await ctx.anon.send({
        method: 'GET',
        path: `/v1/invoices/${inv.id}`,
        operationId: 'getInvoiceV1',
      });
      ctx.expectStatus(res, 200);
      const seen = (res.body as { invoice?: Invoice }).invoice;
      ctx.check(
        seen?.id === inv.id && seen.status === 'pending' && seen.external_transaction_id === ext,
        `the public read answered ${JSON.stringify(res.body).slice(0, 200)}`,
        'getInvoiceV1',
      );
    },
  },
  {
    name: 'invoices: an unknown id is 404 not_found on v1 and v3',
    tags: ['read'],
    async run(ctx) {
      for (const id of ['0'.repeat(32), 'not-an-invoice']) {
        for (const client of [ctx.merchant, ctx.merchantV3]) {
          const err = await ctx.rejects(client.getInvoice(id), 404, 'not_found');
          ctx.check(
            JSON.stringify(err.fieldErrors) ===
              JSON.stringify({ non_field_errors: ['Not found.'] }),
            `404 errors are ${JSON.stringify(err.fieldErrors)}`,
          );
        }
      }
    },
  },
];
