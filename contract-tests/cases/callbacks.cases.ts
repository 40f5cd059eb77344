import { required } from '../../src/shared/defined.js';
import type { CallbackEvent, Delivery } from '../../src/client/index.js';
import type { ContractCase } from '../harness/case.context.js';
import type { ReceivedCallback } from '../harness/callback.receiver.js';
import { sameJson } from '../harness/compare.js';
import { merchantReceiver, needsReceiver } from './lifecycle.cases.js';

const CALLBACK_WAIT_MS = 15_000;

/** Callback deliveries driven through the control API (docs/design.md#callbacks, #control-api). */
export const callbackCases: ContractCase[] = [
  {
    name: 'callbacks: an event re-fired and redelivered through the control API reaches the merchant again, every attempt logged',
    tags: ['write', 'sandbox'],
    needs: needsReceiver,
    async run(ctx) {
      const receiver = await merchantReceiver(ctx, 'refire', 'always');
      const ext = ctx.ref('refire');
      const inv = await ctx.merchant.createInvoice({
        amount: '5',
        currency: 'PHP',
        external_transaction_id: ext,
      });
      const created = (c: ReceivedCallback) => {
        const e = (c.body as CallbackEvent | undefined)?.event;
        return e?.name === 'invoice.created' && e.data.id === inv.id;
      };
      const first = await receiver.waitFor(created, CALLBACK_WAIT_MS);
      ctx.check(
        sameJson(first.body, {
          event: {
            name: 'invoice.created',
            data: {
              id: inv.id,
              currency: 'PHP',
              // Unpadded, as the real callbacks are recorded (the invoice API writes "5.00000000").
              amount: '5',
              amount_received: '0',
              external_transaction_id: ext,
            },
          },
        }),
        `invoice.created body ${first.text}`,
      );
      ctx.check(
        first.headers.authorization === `Token ${ctx.creds.merchantToken}`,
        `callback_auth always: Authorization is ${JSON.stringify(first.headers.authorization)}`,
      );

      const fired = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/invoices/${inv.id}/callbacks`,
        body: { event: 'invoice.created' },
        operationId: 'fireInvoiceCallback',
      });
      ctx.expectStatus(fired, 201);
      const delivery = (fired.body as { delivery: Delivery }).delivery;
      ctx.check(
        delivery.invoice_id === inv.id && delivery.event === 'invoice.created',
        `fired delivery ${JSON.stringify(delivery).slice(0, 200)}`,
        'fireInvoiceCallback',
      );
      await receiver.waitFor(() => receiver.received.filter(created).length >= 2, CALLBACK_WAIT_MS);

      // The receiver has the request before the sandbox has its answer: wait (bounded) for the answer
      // to be recorded, then find the delivery in the log as delivered.
      const until = Date.now() + CALLBACK_WAIT_MS;
      while (
        (await ctx.control.getDelivery(delivery.id)).status !== 'delivered' &&
        Date.now() < until
      )
        await new Promise((r) => setTimeout(r, 50));
      const delivered = await ctx.control.listDeliveries({
        invoice_id: inv.id,
        event: 'invoice.created',
        status: 'delivered',
      });
      ctx.check(
        delivered.deliveries.some((d) => d.id === delivery.id),
        'the fired delivery is not listed as delivered',
        'listDeliveries',
      );
      const full = await ctx.control.getDelivery(delivery.id);
      const attempt = full.attempts?.[0];
      ctx.check(
        attempt?.status_code === 200 && attempt.url === receiver.url,
        `attempts ${JSON.stringify(full.attempts).slice(0, 300)}`,
        'getDelivery',
      );

      const again = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/deliveries/${delivery.id}/redeliver`,
        operationId: 'redeliverDelivery',
      });
      ctx.expectStatus(again, 202);
      const third = await receiver.waitFor(
        () => receiver.received.filter(created).length >= 3,
        CALLBACK_WAIT_MS,
      );
      ctx.check(
        Number(third.headers['x-sandbox-delivery-attempt']) >= 1,
        `X-Sandbox-Delivery-Attempt is ${JSON.stringify(third.headers['x-sandbox-delivery-attempt'])}`,
      );
    },
  },
  {
    name: 'callbacks: the manual send of invoice.fully_paid for an unpaid invoice is refused (409) unless forced, and queues in order',
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const inv = await ctx.merchant.createInvoice({
        amount: '5',
        currency: 'PHP',
        external_transaction_id: ctx.ref('manual-send'),
      });
      const path = `/_sandbox/invoices/${inv.id}/callbacks`;
      const refused = await ctx.control.request({
        method: 'POST',
        path,
        body: { event: 'invoice.fully_paid' },
        operationId: 'fireInvoiceCallback',
      });
      ctx.expectStatus(refused, 409);
      const codes = (refused.body as { error_codes?: string[] }).error_codes;
      ctx.check(
        codes?.[0] === 'invalid_state_transition',
        `error_codes ${JSON.stringify(codes)}`,
        'fireInvoiceCallback',
      );
      const forced = await ctx.control.request({
        method: 'POST',
        path,
        body: { event: 'invoice.fully_paid', force: true },
        operationId: 'fireInvoiceCallback',
      });
      ctx.expectStatus(forced, 201);
      const d = (forced.body as { delivery: Delivery }).delivery;
      ctx.check(
        d.kind === 'manual' && d.invoice_id === inv.id,
        `forced delivery ${JSON.stringify(d).slice(0, 200)}`,
        'fireInvoiceCallback',
      );
      ctx.check(
        d.status === 'delivered' || d.status === 'failed' || typeof d.waiting_reason === 'string',
        `a delivery not finished says why it waits: ${JSON.stringify(d.waiting_reason)}`,
        'fireInvoiceCallback',
      );
    },
  },
  {
    name: 'callbacks: the example receiver records a callback with its Authorization verdict and lists it',
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const id = required(
        ctx.creds.merchantId,
        "the merchant's control-API id (needsReceiver checked it)",
      );
      const body = {
        event: {
          name: 'invoice.created',
          data: {
            id: 'c'.repeat(32),
            currency: 'PHP',
            amount: '1',
            amount_received: '0',
            external_transaction_id: ctx.ref('inbox'),
          },
        },
      };
      const got = await ctx.control.request({
        method: 'POST',
        path: `/_sandbox/inbox/${id}`,
        body,
        headers: { Authorization: 'Token not-the-merchant-token' },
        operationId: 'receiveInboxCallback',
      });
      ctx.expectStatus(got, 200);
      const entry = (got.body as { entry: { authorization: string; merchant_id: string } }).entry;
      ctx.check(
        entry.authorization === 'invalid' && entry.merchant_id === id,
        `entry ${JSON.stringify(entry).slice(0, 200)}`,
        'receiveInboxCallback',
      );
      const list = await ctx.control.request({
        method: 'GET',
        path: `/_sandbox/inbox?merchant_id=${id}&invoice_id=${'c'.repeat(32)}`,
        operationId: 'listInbox',
      });
      ctx.expectStatus(list, 200);
      ctx.check(
        (list.body as { callbacks: unknown[] }).callbacks.length >= 1,
        'the received callback is not listed',
        'listInbox',
      );
    },
  },
  {
    name: 'callbacks: a counter reference number is issued once, and paid at the outlet it settles the invoice',
    tags: ['write', 'sandbox'],
    async run(ctx) {
      const inv = await ctx.merchant.createInvoice({
        amount: '30',
        currency: 'PHP',
        external_transaction_id: ctx.ref('otc'),
        supported_payment_collectors: ['cash_payment'],
      });
      const issued = await ctx.control.trigger({
        event: 'invoice.payment_reference_number_generated',
        invoice_id: inv.id,
      });
      const ref = ctx.expectPresent(
        issued.invoice.current_payment_reference_number || null,
        `no reference number issued: ${JSON.stringify(issued.invoice).slice(0, 200)}`,
        'triggerEvent',
      );
      ctx.check(
        (await ctx.merchant.getInvoice(inv.id)).current_payment_reference_number === ref,
        'the invoice does not show its reference number',
        'getInvoiceV1',
      );
      await ctx.rejects(
        ctx.control.trigger({
          event: 'invoice.payment_reference_number_generated',
          invoice_id: inv.id,
        }),
        409,
      );
      const paid = await ctx.control.confirmCounterPayment({ reference_number: ref });
      ctx.expectLastStatus('confirmCounterPayment', 201);
      ctx.check(
        paid.invoice.status === 'fully_paid' && paid.payment.reference_number === ref,
        `outlet payment: ${paid.invoice.status}, reference ${paid.payment.reference_number}`,
        'confirmCounterPayment',
      );
      await ctx.rejects(
        ctx.control.confirmCounterPayment({ reference_number: ref }),
        409,
        'invoice_not_payable',
      );
      // 13 digits no reference is issued with (they start with 1-9): unknown; not 13 digits: malformed.
      await ctx.rejects(
        ctx.control.confirmCounterPayment({ reference_number: '0000 0000 00000' }),
        404,
        'not_found',
      );
      await ctx.rejects(
        ctx.control.confirmCounterPayment({ reference_number: `ct-${ctx.info.runId}-none` }),
        400,
        'validation_error',
      );

      const other = await ctx.merchant.createInvoice({
        amount: '4',
        currency: 'PHP',
        external_transaction_id: ctx.ref('expire-now'),
      });
      const expired = await ctx.control.expireInvoice(other.id);
      ctx.check(
        expired.status === 'expired' && !expired.expires_in_seconds,
        `expire gave ${expired.status}, ${expired.expires_in_seconds}`,
        'expireInvoice',
      );
      await ctx.rejects(ctx.control.expireInvoice(other.id), 409);
    },
  },
];
