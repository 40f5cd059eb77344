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
    external_transaction_id: `dl-${++ext}`,
  });
}
/** Bounded wait until the sandbox has stored the outcome of the first attempt. */
const firstAttemptRecorded = (invoiceId: string) =>
  until(
    () =>
      t.db
        .prepare('SELECT status, attempts_count FROM deliveries WHERE invoice_id = ?')
        .get(invoiceId) as { status: string; attempts_count: number },
    (d) => d.status === 'pending' && d.attempts_count === 1,
    'the first attempt recorded',
  );
const wait = (invoiceId: string, status = 'delivered') =>
  t.request('GET', `/_sandbox/deliveries?invoice_id=${invoiceId}&status=${status}&wait=20`);

describe('GET /_sandbox/deliveries', () => {
  it('lists newest first, filters by invoice, event and status, and pages', async () => {
    await setup({ background: false });
    const a = createInvoice();
    const b = createInvoice();
    t.services.payments.payFromWallet(a.id, t.services.payments.customer());
    const all = await t.request('GET', '/_sandbox/deliveries?per_page=2');
    expect(all.status).toBe(200);
    expect(
      all.body.deliveries.map((d: { event: string; invoice_id: string }) => [
        d.event,
        d.invoice_id,
      ]),
    ).toEqual([
      ['invoice.fully_paid', a.id],
      ['invoice.created', b.id],
    ]);
    expect(all.body.meta).toEqual({ total_count: 3, next_page: 2, previous_page: null });
    expect(all.body.deliveries[0]).toMatchObject({
      status: 'pending',
      attempts_count: 0,
      url: receiver.url,
      redelivery_of: null,
    });
    expect(all.body.deliveries[0].body).toEqual({
      event: {
        name: 'invoice.fully_paid',
        data: {
          id: a.id,
          currency: 'PHP',
          amount: '20',
          amount_received: '20',
          external_transaction_id: a.external_transaction_id,
        },
      },
    });
    const byInvoice = await t.request(
      'GET',
      `/_sandbox/deliveries?invoice_id=${a.id}&event=invoice.created`,
    );
    expect(byInvoice.body.deliveries).toHaveLength(1);
    expect(
      (await t.request('GET', '/_sandbox/deliveries?status=delivered')).body.meta.total_count,
    ).toBe(0);
    expect((await t.request('GET', '/_sandbox/deliveries?status=sent')).status).toBe(400);
    expect((await t.request('GET', '/_sandbox/deliveries?wait=61')).status).toBe(400);
  });

  it('wait= answers as soon as a matching delivery lands', async () => {
    let answers = 0;
    await setup({ receiver: { respond: () => (++answers === 1 ? { status: 500 } : undefined) } });
    const inv = createInvoice();
    let answered = false;
    const polled = wait(inv.id).then((res) => ((answered = true), res));
    await receiver.waitFor((cb) => cb.status === 500);
    await firstAttemptRecorded(inv.id);
    expect(answered).toBe(false); // the first attempt failed: nothing matches yet
    // The retry is due 10 s later on the sandbox clock: move it with the control API.
    expect(
      (await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 10 } })).status,
    ).toBe(200);
    const res = await polled;
    expect(res.status).toBe(200);
    expect(res.body.deliveries).toHaveLength(1);
    expect(res.body.deliveries[0]).toMatchObject({
      invoice_id: inv.id,
      status: 'delivered',
      attempts_count: 2,
    });
  });

  it('wait= answers at once when something already matches, and with an empty page when nothing does', async () => {
    await setup({ background: false });
    const inv = createInvoice();
    const now = await t.request('GET', `/_sandbox/deliveries?invoice_id=${inv.id}&wait=30`);
    expect(now.body.deliveries).toHaveLength(1);
    const none = await t.request(
      'GET',
      `/_sandbox/deliveries?invoice_id=${inv.id}&status=delivered&wait=1`,
    );
    expect(none.body).toEqual({
      deliveries: [],
      meta: { total_count: 0, next_page: null, previous_page: null },
    });
  });
});

describe('GET /_sandbox/deliveries/{id}', () => {
  it('shows the delivery with every attempt, and 404 for an unknown id', async () => {
    await setup();
    const inv = createInvoice();
    const listed = await wait(inv.id);
    const res = await t.request('GET', `/_sandbox/deliveries/${listed.body.deliveries[0].id}`);
    expect(res.status).toBe(200);
    const [a] = res.body.delivery.attempts;
    expect(a).toMatchObject({
      attempt: 1,
      url: receiver.url,
      status_code: 200,
      response_excerpt: 'OK',
      error: null,
    });
    expect(a.request_headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-Sandbox-Delivery-Attempt': '1',
    });
    expect(JSON.parse(a.request_body)).toEqual(res.body.delivery.body);
    expect(
      (await t.request('GET', '/_sandbox/deliveries/0123456789abcdef0123456789abcdef')).status,
    ).toBe(404);
  });
});

describe('POST /_sandbox/deliveries/{id}/redeliver', () => {
  it('sends the same event again as a new delivery with the same event id', async () => {
    await setup();
    const inv = createInvoice();
    const original = (await wait(inv.id)).body.deliveries[0];
    const res = await t.request('POST', `/_sandbox/deliveries/${original.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body.delivery).toMatchObject({
      event_id: original.event_id,
      redelivery_of: original.id,
      event: 'invoice.created',
      attempts: [],
    });
    expect(res.body.delivery.id).not.toBe(original.id);
    const dup = await receiver.waitFor((cb) => cb.duplicate);
    expect(dup.headers['x-sandbox-event-id']).toBe(original.event_id);
    expect(dup.body).toBe(receiver.received[0]!.body);
    expect(
      (await t.request('GET', `/_sandbox/deliveries/${original.id}`)).body.delivery.attempts,
    ).toHaveLength(1);
    expect(
      (await t.request('POST', '/_sandbox/deliveries/0123456789abcdef0123456789abcdef/redeliver'))
        .status,
    ).toBe(404);
  });
});

describe('POST /_sandbox/invoices/{id}/callbacks', () => {
  it('sends an event now with the current invoice data and changes nothing', async () => {
    await setup();
    const inv = createInvoice();
    t.services.payments.payFromWallet(inv.id, t.services.payments.customer());
    await receiver.waitFor((cb) => cb.event?.event.name === 'invoice.fully_paid');
    const events = () =>
      (t.db.prepare('SELECT COUNT(*) AS n FROM outbox_events').get() as { n: number }).n;
    const before = events();
    const res = await t.request('POST', `/_sandbox/invoices/${inv.id}/callbacks`, {
      body: { event: 'invoice.updated' },
    });
    expect(res.status).toBe(201);
    expect(res.body.delivery).toMatchObject({
      event: 'invoice.updated',
      invoice_id: inv.id,
      redelivery_of: null,
    });
    const cb = await receiver.waitFor((c) => c.event?.event.name === 'invoice.updated');
    expect(JSON.parse(cb.body)).toEqual({
      event: {
        name: 'invoice.updated',
        data: {
          id: inv.id,
          currency: 'PHP',
          amount: '20',
          amount_received: '20',
          external_transaction_id: inv.external_transaction_id,
        },
      },
    });
    expect(cb.headers['x-sandbox-event-id']).toBe(res.body.delivery.event_id);
    expect(events()).toBe(before);
    expect(t.services.invoiceRepo.byId(inv.id)!.status).toBe('fully_paid');
  });

  it('refuses an unknown event (400) and an unknown invoice (404)', async () => {
    await setup({ background: false });
    const inv = createInvoice();
    expect(
      (
        await t.request('POST', `/_sandbox/invoices/${inv.id}/callbacks`, {
          body: { event: 'invoice.paid' },
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await t.request('POST', '/_sandbox/invoices/0123456789abcdef0123456789abcdef/callbacks', {
          body: { event: 'invoice.created' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('control token', () => {
  it('guards the delivery log like every control call', async () => {
    await setup({ config: { controlToken: 'sekrit' }, background: false });
    expect((await t.request('GET', '/_sandbox/deliveries')).status).toBe(401);
    expect(
      (await t.request('GET', '/_sandbox/deliveries', { headers: { 'x-sandbox-token': 'sekrit' } }))
        .status,
    ).toBe(200);
  });
});
