import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startMerchantReceiver,
  type MerchantReceiver,
  type ReceiverOptions,
} from '../../examples/merchant-callback/server.js';
import type { AppConfig } from '../config.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { until } from './callbacks.test-support.js';
import type { DeliveryRow } from './deliveries.repo.js';
import { MERCHANT_DISABLED, NO_CALLBACK_URL } from './event-delivery.writer.js';

const PHP = 100_000_000n;
let t: TestApp;
let receiver: MerchantReceiver;
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A sandbox with its dispatcher running and the first merchant's callback_url on a local receiver. */
async function setup(
  o: {
    config?: Partial<AppConfig>;
    receiver?: Partial<ReceiverOptions>;
    fetch?: typeof fetch;
  } = {},
) {
  t = createTestApp({ config: { retrySchedule: [10, 60, 300], ...o.config }, fetch: o.fetch });
  receiver = await startMerchantReceiver({
    token: t.merchant.merchant_api_token,
    port: 0,
    ...o.receiver,
  });
  cleanups.push(
    () => receiver.close(),
    () => t.close(),
  );
  setMerchant({ callback_url: receiver.url });
  t.sandbox.startBackground();
}

function setMerchant(fields: {
  callback_url?: string | null;
  callback_auth?: 'https-only' | 'always' | 'never';
}) {
  t.services.identities.updateMerchant(t.merchant.id, fields);
}

let ext = 0;
function createInvoice(amount = '20') {
  const merchant = t.services.identities.merchantById(t.merchant.id)!;
  return t.services.invoices.create(merchant, {
    amount,
    currency: 'PHP',
    external_transaction_id: `cb-${++ext}`,
  });
}

const deliveries = (invoiceId: string) =>
  t.db
    .prepare('SELECT * FROM deliveries WHERE invoice_id = ? ORDER BY seq')
    .all(invoiceId) as DeliveryRow[];
const outbox = (invoiceId: string) =>
  t.db
    .prepare('SELECT id, name, payload FROM outbox_events WHERE invoice_id = ? ORDER BY seq')
    .all(invoiceId) as Array<{ id: string; name: string; payload: string }>;

const settled = (invoiceId: string, n: number, status = 'delivered') =>
  until(
    () => deliveries(invoiceId),
    (ds) => ds.length === n && ds.every((d) => d.status === status),
    `${n} ${status}`,
  );

/** Move the sandbox clock and run what is due (as `POST /_sandbox/clock/advance` does). */
function advance(seconds: number) {
  t.advance(seconds);
  t.sandbox.tick();
}

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
      amount: '20.00000000',
      amount_received: received,
      external_transaction_id: inv.external_transaction_id,
    });
    const expected = [
      { event: { name: 'invoice.created', data: data('0.00000000') } },
      { event: { name: 'invoice.payment_reference_number_generated', data: data('0.00000000') } },
      { event: { name: 'invoice.updated', data: data('5.00000000') } },
      { event: { name: 'invoice.fully_paid', data: data('20.00000000') } },
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

  it('counts a 302 as a failure and does not follow it', async () => {
    let followed = 0;
    const elsewhere = createServer((_req, res) => {
      followed += 1;
      res.end('OK');
    });
    await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.1', r));
    cleanups.push(() => new Promise<void>((r) => elsewhere.close(() => r())));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/moved`;
    await setup({ receiver: { respond: () => ({ status: 302, headers: { location: target } }) } });
    const inv = createInvoice();
    const [d] = await until(
      () => deliveries(inv.id),
      (ds) => ds[0]?.attempts_count === 1 && ds[0].status === 'pending',
      'a failed attempt',
    );
    expect(d!.last_error).toBe(
      `redirect 302 to ${target} not followed (redirects count as failures)`,
    );
    const a = t.db
      .prepare('SELECT status_code FROM delivery_attempts WHERE delivery_id = ?')
      .get(d!.id) as { status_code: number };
    expect(a.status_code).toBe(302);
    expect(followed).toBe(0);
  });

  it('fails an attempt that hangs past the timeout', async () => {
    await setup({
      config: { callbackTimeoutMs: 200 },
      receiver: { respond: () => ({ hang: true }) },
    });
    const inv = createInvoice();
    const [d] = await until(
      () => deliveries(inv.id),
      (ds) => ds[0]?.attempts_count === 1 && ds[0].status === 'pending',
      'a timed-out attempt',
    );
    expect(d!.last_error).toBe('timeout: no answer within 200 ms');
    expect(receiver.received).toHaveLength(1);
  });

  it('keeps per-invoice order: a later event waits while an earlier one is retrying', async () => {
    let answers = 0;
    await setup({ receiver: { respond: () => (++answers === 1 ? { status: 500 } : undefined) } });
    const inv = createInvoice();
    await until(
      () => deliveries(inv.id)[0]!,
      (d) => d.status === 'pending' && d.attempts_count === 1,
      'first failure',
    );
    t.services.payments.payFromWallet(inv.id, t.services.payments.customer());
    const other = createInvoice(); // another invoice is not held up
    await settled(other.id, 1);
    t.sandbox.tick();
    expect(deliveries(inv.id).map((d) => [d.event, d.status, d.attempts_count])).toEqual([
      ['invoice.created', 'pending', 1],
      ['invoice.fully_paid', 'pending', 0],
    ]);
    advance(10);
    await settled(inv.id, 2);
    const names = receiver.received
      .filter((r) => r.event?.event.data.id === inv.id)
      .map((r) => `${r.event!.event.name}:${r.status}`);
    expect(names).toEqual(['invoice.created:500', 'invoice.created:200', 'invoice.fully_paid:200']);
  });

  it('lets later events go once an earlier one has failed for good', async () => {
    await setup({
      config: { retrySchedule: [] },
      receiver: {
        respond: (cb) => (cb.event?.event.name === 'invoice.created' ? { status: 500 } : undefined),
      },
    });
    const inv = createInvoice();
    t.services.payments.payFromWallet(inv.id, t.services.payments.customer());
    await until(
      () => deliveries(inv.id).map((d) => d.status),
      (s) => s.join() === 'failed,delivered',
      'created failed, fully_paid delivered',
    );
  });

  it('sends at most 8 callbacks at a time', async () => {
    await setup({ receiver: { respond: () => ({ hang: true }) } });
    const invoices = Array.from({ length: 12 }, () => createInvoice());
    await until(
      () => receiver.received.length,
      (n) => n === 8,
      '8 requests in flight',
    );
    t.sandbox.tick();
    const count = (status: string) =>
      invoices.filter((i) => deliveries(i.id)[0]!.status === status).length;
    expect([count('delivering'), count('pending')]).toEqual([8, 4]);
  });

  it('fails at once, without an attempt, when the merchant has no callback_url', async () => {
    await setup();
    setMerchant({ callback_url: null });
    const inv = createInvoice();
    // Written failed by `outbox.append` itself, in the create's transaction: no second write.
    expect(deliveries(inv.id).map((x) => [x.status, x.next_attempt_at])).toEqual([
      ['failed', null],
    ]);
    const [d] = await settled(inv.id, 1, 'failed');
    expect(d).toMatchObject({ attempts_count: 0, last_error: NO_CALLBACK_URL });
    expect(NO_CALLBACK_URL).toBe('the merchant has no callback_url; set one, then redeliver'); // as the dispatcher gives it
    setMerchant({ callback_url: receiver.url });
    const res = await t.request('POST', `/_sandbox/deliveries/${d!.id}/redeliver`);
    expect(res.status).toBe(202);
    await until(
      () => deliveries(inv.id).map((x) => x.status),
      (s) => s.join() === 'failed,delivered',
      'the redelivery',
    );
  });

  it('fails at once, without an attempt, an event of a disabled merchant (a deleted workspace)', async () => {
    await setup();
    t.db.prepare('UPDATE merchants SET disabled = 1 WHERE id = ?').run(t.merchant.id);
    const inv = createInvoice();
    expect(deliveries(inv.id).map((x) => [x.status, x.attempts_count, x.last_error])).toEqual([
      ['failed', 0, MERCHANT_DISABLED],
    ]);
    // A pump claims whatever is due synchronously: with nothing in flight after it, nothing can be sent.
    t.sandbox.tick();
    expect(t.sandbox.modules.callbacks.api.inFlight()).toBe(0);
    expect(deliveries(inv.id).map((x) => [x.status, x.attempts_count])).toEqual([['failed', 0]]);
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses loopback targets with --block-private-callbacks, without sending anything', async () => {
    await setup({ config: { blockPrivateCallbacks: true } });
    const inv = createInvoice();
    const [d] = await until(
      () => deliveries(inv.id),
      (ds) => ds[0]?.attempts_count === 1 && ds[0].status === 'pending',
      'a refused attempt',
    );
    expect(d!.last_error).toMatch(
      /^refused by --block-private-callbacks: 127\.0\.0\.1 resolves to 127\.0\.0\.1/,
    );
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a callback_url that is not http or https', async () => {
    await setup();
    setMerchant({ callback_url: 'ftp://127.0.0.1/callbacks' });
    const inv = createInvoice();
    const [d] = await until(
      () => deliveries(inv.id),
      (ds) => ds[0]?.attempts_count === 1 && ds[0].status === 'pending',
      'a refused attempt',
    );
    expect(d!.last_error).toBe('only http and https callback URLs are allowed (got "ftp:")');
  });

  it('keeps only a 2 KiB excerpt of the answer', async () => {
    await setup({ receiver: { respond: () => ({ status: 200, body: 'x'.repeat(100_000) }) } });
    const inv = createInvoice();
    const [d] = await settled(inv.id, 1);
    const res = await t.request('GET', `/_sandbox/deliveries/${d!.id}`);
    expect(res.body.delivery.attempts[0].response_excerpt).toBe('x'.repeat(2048));
  });
});
