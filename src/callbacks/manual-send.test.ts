import { describe, expect, it } from 'vitest';
import type { MerchantReceiver } from '../../examples/merchant-callback/server.js';
import {
  appWithReceiverSetup,
  type AppWithReceiverOptions,
} from '../testing/receiver-app.test-support.js';
import type { TestApp } from '../testing/test-app.js';
import { until } from './callbacks.test-support.js';

let t: TestApp;
let receiver: MerchantReceiver;
const setupApp = appWithReceiverSetup();

async function setup(o?: AppWithReceiverOptions) {
  ({ t, receiver } = await setupApp(o));
}

let ext = 0;
function createInvoice() {
  const merchant = t.services.identities.merchantById(t.merchant.id)!;
  return t.services.invoices.create(merchant, {
    amount: '20',
    currency: 'PHP',
    external_transaction_id: `ms-${++ext}`,
  });
}
const deliveryCount = () =>
  (t.db.prepare('SELECT COUNT(*) AS n FROM deliveries').get() as { n: number }).n;
const fire = (id: string, body: Record<string, unknown>) =>
  t.request('POST', `/_sandbox/invoices/${id}/callbacks`, { body });

describe('the manual send of an event (POST /_sandbox/invoices/{id}/callbacks)', () => {
  it('refuses invoice.fully_paid for an invoice that is not fully paid (409, nothing queued) unless force is given', async () => {
    await setup({ background: false });
    const inv = createInvoice();
    const before = deliveryCount();
    const refused = await fire(inv.id, { event: 'invoice.fully_paid' });
    expect(refused.status).toBe(409);
    expect(refused.body.error_codes).toEqual(['invalid_state_transition']);
    expect(refused.body.errors.non_field_errors[0]).toMatch(
      /^The invoice is pending, not fully_paid: the real service never sends invoice\.fully_paid for it\./,
    );
    expect(deliveryCount()).toBe(before);
    const forced = await fire(inv.id, { event: 'invoice.fully_paid', force: true });
    expect(forced.status).toBe(201);
    expect(forced.body.delivery).toMatchObject({
      event: 'invoice.fully_paid',
      kind: 'manual',
      redelivery_of: null,
    });
    // invoice.created goes as it is (the real service sent it for this invoice).
    expect((await fire(inv.id, { event: 'invoice.created' })).status).toBe(201);
    expect((await fire(inv.id, { event: 'invoice.fully_paid', force: 'yes' })).status).toBe(400);
  });

  it.each([
    [
      'invoice.updated',
      /^The invoice has received no payment: the real service sends invoice\.updated when a payment arrives\./,
    ],
    [
      'invoice.payment_reference_number_generated',
      /^The invoice has no payment reference number: the real service sends this event when one is generated\./,
    ],
  ])(
    'refuses %s when the invoice state cannot produce it (409, nothing queued) unless force is given',
    async (event, message) => {
      await setup({ background: false });
      const inv = createInvoice();
      const before = deliveryCount();
      const refused = await fire(inv.id, { event });
      expect(refused.status).toBe(409);
      expect(refused.body.error_codes).toEqual(['invalid_state_transition']);
      expect(refused.body.errors.non_field_errors[0]).toMatch(message);
      expect(refused.body.errors.non_field_errors[0]).toMatch(/send \{"force": true\}/);
      expect(deliveryCount()).toBe(before);
      expect((await fire(inv.id, { event, force: true })).status).toBe(201);
    },
  );

  it('sends invoice.updated once a payment arrived, and the reference event once a reference was issued', async () => {
    await setup({ background: false });
    const inv = createInvoice();
    const paid = await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'coins_peso_wallet', amount: 5 },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect((await fire(inv.id, { event: 'invoice.updated' })).status).toBe(201);
    const other = createInvoice();
    const ref = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.payment_reference_number_generated', invoice_id: other.id },
    });
    expect(ref.status, JSON.stringify(ref.body)).toBe(201);
    expect(
      (await fire(other.id, { event: 'invoice.payment_reference_number_generated' })).status,
    ).toBe(201);
  });

  it('keeps per-invoice order: a manual send waits behind the earlier delivery of its invoice and says so', async () => {
    await setup({ background: false });
    const inv = createInvoice();
    const created = (await t.request('GET', `/_sandbox/deliveries?invoice_id=${inv.id}`)).body
      .deliveries[0];
    expect(created).toMatchObject({ event: 'invoice.created', kind: 'event' });
    expect(created.waiting_reason).toMatch(
      /^due now: attempt 1 of 3 goes out as soon as a slot is free$/,
    );
    const manual = (await fire(inv.id, { event: 'invoice.updated', force: true })).body.delivery;
    expect(manual.waiting_reason).toBe(
      `queued behind delivery ${created.id} (invoice.created), which has not been sent yet`,
    );
    const again = (await t.request('POST', `/_sandbox/deliveries/${created.id}/redeliver`)).body
      .delivery;
    expect(again).toMatchObject({ kind: 'redelivery', redelivery_of: created.id });
    expect(again.waiting_reason).toMatch(/^due now/); // a redelivery waits for nobody
    // The dispatcher sends them in that order: invoice.created (and its redelivery) before the manual send.
    t.sandbox.startBackground();
    await until(
      () => receiver.received.length,
      (n) => n >= 3,
      'three callbacks',
    );
    const names = receiver.received.map((r) => r.event?.event.name);
    expect(names.indexOf('invoice.updated')).toBeGreaterThan(names.indexOf('invoice.created'));
    expect(receiver.received.filter((r) => r.event?.event.name === 'invoice.created')).toHaveLength(
      2,
    );
  });

  it('a failing delivery names its next attempt, and the later one of its invoice names it as the reason it waits', async () => {
    await setup({ receiver: { respond: () => ({ status: 503, body: 'busy' }) } });
    const inv = createInvoice();
    await until(
      () =>
        t.db
          .prepare('SELECT attempts_count, status FROM deliveries WHERE invoice_id = ?')
          .get(inv.id) as { attempts_count: number; status: string },
      (d) => d.attempts_count === 1 && d.status === 'pending',
      'the first attempt recorded',
    );
    const manual = (await fire(inv.id, { event: 'invoice.updated', force: true })).body.delivery;
    const list = (await t.request('GET', `/_sandbox/deliveries?invoice_id=${inv.id}`)).body
      .deliveries;
    const created = list.find((d: { event: string }) => d.event === 'invoice.created');
    expect(created.waiting_reason).toMatch(
      /^attempt 1 failed \(receiver answered 503\); next attempt at \S+Z \(attempt 2 of 3\)$/,
    );
    expect(created.waiting_reason).toContain(created.next_attempt_at);
    const waiting = list.find((d: { id: string }) => d.id === manual.id);
    expect(waiting.waiting_reason).toBe(
      `queued behind delivery ${created.id} (invoice.created), which is failing (1 attempt(s), last: receiver answered 503; its attempt 2 of 3 is at ${created.next_attempt_at})`,
    );
  });
});
