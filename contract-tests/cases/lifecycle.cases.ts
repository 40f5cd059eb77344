import { required } from '../../src/shared/defined.js';
import type { CallbackEvent, Invoice, PageMeta, SandboxMerchant } from '../../src/client/index.js';
import type { CaseContext, ContractCase } from '../harness/case.context.js';
import type { CallbackReceiver, ReceivedCallback } from '../harness/callback.receiver.js';
import { sameJson } from '../harness/compare.js';
import { units } from '../harness/decimal.js';

/** How long a callback may take to arrive on the receiver (the sandbox delivers within a tick). */
const CALLBACK_WAIT_MS = 15_000;

const eventOf = (c: ReceivedCallback) => (c.body as CallbackEvent | undefined)?.event;

/** The receiver listens on 127.0.0.1; the merchant's callback_url is set through its control-API id. */
export const needsReceiver = (t: {
  info: { loopback: boolean };
  creds: { merchantId?: string };
}) => {
  if (!t.info.loopback)
    return 'the callback receiver listens on 127.0.0.1, which this target cannot reach';
  return t.creds.merchantId
    ? undefined
    : "needs the merchant's control-API id (no merchant of /_sandbox/merchants has CONTRACT_MERCHANT_TOKEN)";
};

/**
 * A receiver on 127.0.0.1 set as the merchant's callback_url, with the callback_auth the case relies
 * on: a case never depends on how the given merchant happens to be configured (the second fixture
 * merchant sends its token `always`, the first only to https). The merchant's own settings come back
 * after the case, so no callback goes to a closed port later.
 */
export async function merchantReceiver(
  ctx: CaseContext,
  label: string,
  callbackAuth: 'https-only' | 'always' | 'never',
): Promise<CallbackReceiver> {
  const id = required(
    ctx.creds.merchantId,
    "the merchant's control-API id (needsReceiver checked it)",
  );
  let original: SandboxMerchant | undefined;
  for (let page: number | null = 1, i = 0; page !== null && !original && i < 10; i++) {
    const res: { merchants: SandboxMerchant[]; meta: PageMeta } = await ctx.control.listMerchants({
      page,
      per_page: 100,
    });
    original = res.merchants.find((m) => m.id === id);
    page = res.meta.next_page;
  }
  const receiver = await ctx.receiver(label);
  ctx.defer(async () => {
    if (original)
      await ctx.control.updateMerchant(id, {
        callback_url: original.callback_url,
        callback_auth: original.callback_auth,
      });
  });
  const updated = await ctx.control.updateMerchant(id, {
    callback_url: receiver.url,
    callback_auth: callbackAuth,
  });
  ctx.expectLastStatus('updateMerchant', 200);
  ctx.check(
    updated.callback_url === receiver.url && updated.callback_auth === callbackAuth,
    `the merchant kept callback_url ${updated.callback_url}, callback_auth ${updated.callback_auth}`,
    'updateMerchant',
  );
  return receiver;
}

async function pay(ctx: CaseContext, invoiceId: string, amount?: string) {
  const out = await ctx.control.payInvoice(invoiceId, {
    collector: 'coins_peso_wallet',
    amount,
    customer: ctx.creds.customer,
  });
  ctx.expectLastStatus('payInvoice', 201);
  return out;
}

/** The invoice lifecycle through the control API (docs/design.md#invoice-lifecycle-and-events, #callbacks, #control-api); needs `/_sandbox`. */
export const lifecycleCases: ContractCase[] = [
  {
    name: 'lifecycle: partial then full payment, invoice.updated and invoice.fully_paid reach the merchant',
    tags: ['write', 'sandbox'],
    needs: needsReceiver,
    async run(ctx) {
      const receiver = await merchantReceiver(ctx, 'lifecycle', 'https-only');
      const ext = ctx.ref('lifecycle');
      const inv = await ctx.merchant.createInvoice({
        amount: '100',
        currency: 'PHP',
        external_transaction_id: ext,
      });
      const wallet = await ctx.control.getAccount(inv.receiver);

      const partial = await pay(ctx, inv.id, '40');
      const p = partial.invoice;
      ctx.check(
        p.status === 'pending' &&
          p.amount_received === '40.00000000' &&
          p.amount_due === '60.00000000',
        `after paying 40 of 100: ${p.status} ${p.amount_received}/${p.amount_due}`,
        'payInvoice',
      );
      ctx.check(
        partial.payment.amount === '40.00000000' &&
          partial.payment.payment_collector === 'coins_peso_wallet',
        `payment ${JSON.stringify(partial.payment)}`,
        'payInvoice',
      );
      await receiver.waitFor(
        (c) => eventOf(c)?.name === 'invoice.updated' && eventOf(c)?.data.id === inv.id,
        CALLBACK_WAIT_MS,
      );

      const full = await pay(ctx, inv.id);
      ctx.check(
        full.invoice.status === 'fully_paid' && full.invoice.amount_due === '0.00000000',
        `after paying the rest: ${full.invoice.status}, due ${full.invoice.amount_due}`,
        'payInvoice',
      );
      const cb = await receiver.waitFor(
        (c) => eventOf(c)?.name === 'invoice.fully_paid' && eventOf(c)?.data.id === inv.id,
        CALLBACK_WAIT_MS,
      );
      const expected = {
        event: {
          name: 'invoice.fully_paid',
          data: {
            id: inv.id,
            currency: 'PHP',
            amount: '100',
            amount_received: '100',
            external_transaction_id: ext,
          },
        },
      };
      ctx.check(
        sameJson(cb.body, expected),
        `callback body ${cb.text.slice(0, 300)}`,
        'payInvoice',
      );
      ctx.check(
        /^application\/json/.test(cb.headers['content-type'] ?? ''),
        `callback Content-Type ${cb.headers['content-type']}`,
      );
      ctx.check(
        Boolean(cb.headers['x-sandbox-event-id']) &&
          Boolean(cb.headers['x-sandbox-delivery-attempt']),
        'callback lacks X-Sandbox-Event-Id / X-Sandbox-Delivery-Attempt',
      );
      ctx.check(
        cb.headers.authorization === undefined,
        'an http callback_url got an Authorization token (callback_auth https-only)',
      );

      const deliveries = await ctx.control.listDeliveries({
        invoice_id: inv.id,
        event: 'invoice.fully_paid',
        status: 'delivered',
        wait: 10,
      });
      ctx.check(
        deliveries.deliveries.length >= 1 &&
          deliveries.deliveries.every((d) => d.invoice_id === inv.id),
        'no delivered invoice.fully_paid delivery listed',
        'listDeliveries',
      );

      const paid = await ctx.merchant.getInvoice(inv.id);
      ctx.check(
        paid.status === 'fully_paid' && paid.payments.length === 2,
        `retrieved: ${paid.status}, ${paid.payments.length} payments`,
        'getInvoiceV1',
      );
      await ctx.rejects(
        ctx.control.payInvoice(inv.id, {
          collector: 'coins_peso_wallet',
          customer: ctx.creds.customer,
        }),
        409,
        'invoice_not_payable',
      );
      const after = await ctx.control.getAccount(inv.receiver);
      ctx.check(
        units(after.balance) - units(wallet.balance) === units('100'),
        `merchant wallet went from ${wallet.balance} to ${after.balance}`,
        'getAccount',
      );
    },
  },
  {
    name: "lifecycle: an invoice expires at expires_at on its merchant's clock",
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const inv = await ctx.merchant.createInvoice({
        amount: '12',
        currency: 'PHP',
        external_transaction_id: ctx.ref('expiry'),
        expires_at: '2m',
      });
      // The run's own workspace clock when it has one (nobody else's time moves), else the sandbox clock.
      const ws = ctx.info.workspaceId;
      const read = () => (ws ? ctx.control.getWorkspaceClock(ws) : ctx.control.getClock());
      const clock = await read();
      if (ws) await ctx.control.advanceWorkspaceClock(ws, 121);
      else await ctx.control.advanceClock(121);
      ctx.expectLastStatus(ws ? 'advanceWorkspaceClock' : 'advanceClock', 200);
      const moved = await read();
      ctx.check(
        Date.parse(moved.now) - Date.parse(clock.now) >= 121_000,
        `the clock moved from ${clock.now} to ${moved.now}`,
        ws ? 'getWorkspaceClock' : 'getClock',
      );
      const got: Invoice = await ctx.merchantV3.getInvoice(inv.id);
      ctx.check(
        got.status === 'expired',
        `status is ${got.status} after expires_at`,
        'getInvoiceV3',
      );
      // A recorded expired invoice shows it empty (null here; the record cannot tell null from "").
      ctx.check(
        !got.expires_in_seconds,
        `expires_in_seconds is ${JSON.stringify(got.expires_in_seconds)} once expired`,
        'getInvoiceV3',
      );
      ctx.check(
        got.updated_at === got.expires_at,
        `updated_at ${got.updated_at} is not expires_at ${got.expires_at}`,
        'getInvoiceV3',
      );
      await ctx.rejects(
        ctx.control.payInvoice(inv.id, {
          collector: 'coins_peso_wallet',
          customer: ctx.creds.customer,
        }),
        409,
        'invoice_not_payable',
      );
      const listed = await ctx.merchant.listInvoices({
        status: 'expired',
        external_transaction_id: inv.external_transaction_id,
      });
      ctx.check(
        listed.invoices.length === 1,
        'status=expired does not list the expired invoice',
        'listInvoices',
      );
    },
  },
  {
    name: 'lifecycle: a canceled invoice is final; a counter payment carries a reference number',
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const a = await ctx.merchant.createInvoice({
        amount: '9',
        currency: 'PHP',
        external_transaction_id: ctx.ref('cancel'),
      });
      const canceled = await ctx.control.cancelInvoice(a.id);
      ctx.check(canceled.status === 'canceled', `cancel gave ${canceled.status}`, 'cancelInvoice');
      await ctx.rejects(
        ctx.control.payInvoice(a.id, {
          collector: 'coins_peso_wallet',
          customer: ctx.creds.customer,
        }),
        409,
        'invoice_not_payable',
      );
      await ctx.rejects(ctx.control.cancelInvoice(a.id), 409);

      const b = await ctx.merchant.createInvoice({
        amount: '30',
        currency: 'PHP',
        external_transaction_id: ctx.ref('counter'),
      });
      const out = await ctx.control.payInvoice(b.id, { collector: 'cash_payment' });
      ctx.check(
        out.invoice.status === 'fully_paid' && typeof out.payment.reference_number === 'string',
        `counter payment: ${out.invoice.status}, reference ${out.payment.reference_number}`,
        'payInvoice',
      );
      ctx.check(
        (await ctx.merchant.getInvoice(b.id)).payments[0]?.reference_number ===
          out.payment.reference_number,
        'the retrieved payment has another reference number',
        'getInvoiceV1',
      );
    },
  },
];
