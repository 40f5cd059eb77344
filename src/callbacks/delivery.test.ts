import { describe, expect, it } from 'vitest';
import type { MerchantReceiver } from '../../examples/merchant-callback/server.js';
import { deliveryHarness } from '../testing/delivery.test-support.js';
import type { TestApp } from '../testing/test-app.js';
import { until } from './callbacks.test-support.js';

const PHP = 100_000_000n;
let t: TestApp;
let receiver: MerchantReceiver;
const { setup, setMerchant, createInvoice, deliveries, outbox, settled, advance } = deliveryHarness(
  (started) => ({ t, receiver } = started),
);

describe('callback requests', () => {
  it('sends each event body exactly as stored, in order, with the sandbox headers and no token to http', async () => {
    await setup();
    const inv = createInvoice('20');
    const customer = t.services.payments.customer();
    t.services.payments.issueReference(inv.id);
    t.services.payments.payFromWallet(inv.id, customer, 5n * PHP);
    t.services.payments.payFromWallet(inv.id, customer);
    await settled(inv.id, 4);

    const events = outbox(inv.id);
    expect(events.map((e) => e.name)).toEqual([
      'invoice.created',
      'invoice.payment_reference_number_generated',
      'invoice.updated',
      'invoice.fully_paid',
    ]);
    const data = (received: string) => ({
      id: inv.id,
      currency: 'PHP',
      amount: '20',
      amount_received: received,
      external_transaction_id: inv.external_transaction_id,
    });
    const expected = [
      { event: { name: 'invoice.created', data: data('0') } },
      { event: { name: 'invoice.payment_reference_number_generated', data: data('0') } },
      { event: { name: 'invoice.updated', data: data('5') } },
      { event: { name: 'invoice.fully_paid', data: data('20') } },
    ];
    expect(receiver.received.map((r) => r.body)).toEqual(expected.map((b) => JSON.stringify(b)));
    receiver.received.forEach((r, i) => {
      expect(r.body).toBe(events[i]!.payload);
      expect(r.headers['content-type']).toBe('application/json');
      expect(r.headers['x-sandbox-event-id']).toBe(events[i]!.id);
      expect(r.headers['x-sandbox-delivery-attempt']).toBe('1');
      expect(r.headers.authorization).toBeUndefined(); // http URL under https-only
      expect(r.status).toBe(200);
    });
    const logged = t.db
      .prepare('SELECT * FROM delivery_attempts WHERE delivery_id = ?')
      .get(deliveries(inv.id)[0]!.id) as Record<string, unknown>;
    expect(logged).toMatchObject({
      attempt: 1,
      status_code: 200,
      response_excerpt: 'OK',
      error: null,
      url: receiver.url,
      request_body: events[0]!.payload,
    });
    expect(JSON.parse(logged.request_headers as string)).toMatchObject({
      'Content-Type': 'application/json',
      'X-Sandbox-Event-Id': events[0]!.id,
    });
  });

  it('sends the Token to https under https-only, always under always, never under never', async () => {
    const seen: Array<{ url: string; headers: Record<string, string> }> = [];
    // The https merchant is reached through an injected fetch that forwards to the local receiver.
    const forward: typeof fetch = async (input, init) => {
      seen.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
      return fetch(receiver.url, init);
    };
    await setup({ fetch: forward, receiver: { requireToken: true } });
    const cases = [
      { callback_url: 'https://shop.example/callbacks', callback_auth: 'https-only', token: true },
      { callback_url: receiver.url, callback_auth: 'always', token: true },
      { callback_url: 'https://shop.example/callbacks', callback_auth: 'never', token: false },
      { callback_url: receiver.url, callback_auth: 'https-only', token: false },
    ] as const;
    for (const c of cases) {
      setMerchant({ callback_url: c.callback_url, callback_auth: c.callback_auth });
      const inv = createInvoice();
      const [d] = await until(
        () => deliveries(inv.id),
        (ds) => ds[0]?.attempts_count === 1 && ds[0].status !== 'delivering',
        'one attempt',
      );
      const sent = seen.at(-1)!;
      expect(sent.url).toBe(c.callback_url);
      expect(sent.headers.Authorization).toBe(
        c.token ? `Token ${t.merchant.merchant_api_token}` : undefined,
      );
      // The reference receiver (token required) accepts exactly the requests that carry the right token.
      expect(d!.status, JSON.stringify(c)).toBe(c.token ? 'delivered' : 'pending');
    }
  });

  it('retries 500, 500 on the schedule of the sandbox clock, then delivers on 200', async () => {
    let answers = 0;
    await setup({
      receiver: { respond: () => (++answers <= 2 ? { status: 500, body: 'boom' } : undefined) },
    });
    const inv = createInvoice();
    const [first] = await until(
      () => deliveries(inv.id),
      (ds) => ds[0]?.status === 'pending' && ds[0].attempts_count === 1,
      'first failure',
    );
    const firstAttempt = t.db
      .prepare('SELECT * FROM delivery_attempts WHERE delivery_id = ?')
      .get(first!.id) as { started_at: number };
    expect(first!.next_attempt_at! - firstAttempt.started_at).toBeGreaterThanOrEqual(10_000_000);

    advance(5); // not yet due
    expect(deliveries(inv.id)[0]).toMatchObject({ status: 'pending', attempts_count: 1 });
    advance(5);
    expect(deliveries(inv.id)[0]).toMatchObject({ status: 'delivering', attempts_count: 2 });
    await until(
      () => deliveries(inv.id)[0]!,
      (d) => d.status === 'pending' && d.attempts_count === 2,
      'second failure',
    );

    advance(30); // the second retry waits 60 s
    expect(deliveries(inv.id)[0]).toMatchObject({ status: 'pending', attempts_count: 2 });
    advance(30);
    await settled(inv.id, 1);

    const res = await t.request('GET', `/_sandbox/deliveries/${first!.id}`);
    expect(res.body.delivery).toMatchObject({
      status: 'delivered',
      attempts_count: 3,
      next_attempt_at: null,
      last_error: null,
    });
    expect(res.body.delivery.attempts.map((a: { status_code: number }) => a.status_code)).toEqual([
      500, 500, 200,
    ]);
    expect(res.body.delivery.attempts[0]).toMatchObject({
      response_excerpt: 'boom',
      error: 'receiver answered 500',
    });
    expect(receiver.received.map((r) => r.headers['x-sandbox-delivery-attempt'])).toEqual([
      '1',
      '2',
      '3',
    ]);
    expect(new Set(receiver.received.map((r) => r.headers['x-sandbox-event-id']))).toEqual(
      new Set([outbox(inv.id)[0]!.id]),
    );
  });

  it('gives up as failed once the schedule is used up', async () => {
    await setup({
      config: { retrySchedule: [10] },
      receiver: { respond: () => ({ status: 503 }) },
    });
    const inv = createInvoice();
    await until(
      () => deliveries(inv.id)[0]!,
      (d) => d.status === 'pending' && d.attempts_count === 1,
      'first failure',
    );
    advance(10);
    const [d] = await settled(inv.id, 1, 'failed');
    expect(d).toMatchObject({
      attempts_count: 2,
      next_attempt_at: null,
      last_error: 'receiver answered 503',
    });
  });
});
