import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { MerchantReceiver } from '../../examples/merchant-callback/server.js';
import { itemAt, required } from '../shared/defined.js';
import { deliveryHarness } from '../testing/delivery.test-support.js';
import type { TestApp } from '../testing/test-app.js';
import { until } from './callbacks.test-support.js';
import { MERCHANT_DISABLED, NO_CALLBACK_URL } from './event-delivery.writer.js';

let t: TestApp;
let receiver: MerchantReceiver;
const { setup, cleanups, setMerchant, createInvoice, deliveries, settled, failedOnce, advance } =
  deliveryHarness((started) => ({ t, receiver } = started));

describe('callback requests', () => {
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
    const d = await failedOnce(inv.id, 'a failed attempt');
    expect(d.last_error).toBe(
      `redirect 302 to ${target} not followed (redirects count as failures)`,
    );
    const a = t.db
      .prepare('SELECT status_code FROM delivery_attempts WHERE delivery_id = ?')
      .get(d.id) as { status_code: number };
    expect(a.status_code).toBe(302);
    expect(followed).toBe(0);
  });

  it('fails an attempt that hangs past the timeout', async () => {
    await setup({
      config: { callbackTimeoutMs: 200 },
      receiver: { respond: () => ({ hang: true }) },
    });
    const inv = createInvoice();
    const d = await failedOnce(inv.id, 'a timed-out attempt');
    expect(d.last_error).toBe('timeout: no answer within 200 ms');
    expect(receiver.received).toHaveLength(1);
  });

  it('keeps per-invoice order: a later event waits while an earlier one is retrying', async () => {
    let answers = 0;
    await setup({ receiver: { respond: () => (++answers === 1 ? { status: 500 } : undefined) } });
    const inv = createInvoice();
    await until(
      () => itemAt(deliveries(inv.id), 0),
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
      .map((r) => `${required(r.event, 'a callback event').event.name}:${r.status}`);
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
      invoices.filter((i) => itemAt(deliveries(i.id), 0).status === status).length;
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
    const res = await t.request(
      'POST',
      `/_sandbox/deliveries/${required(d, 'a delivery').id}/redeliver`,
    );
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
    const d = await failedOnce(inv.id, 'a refused attempt');
    expect(d.last_error).toMatch(
      /^refused by --block-private-callbacks: 127\.0\.0\.1 resolves to 127\.0\.0\.1/,
    );
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses a callback_url that is not http or https', async () => {
    await setup();
    setMerchant({ callback_url: 'ftp://127.0.0.1/callbacks' });
    const inv = createInvoice();
    const d = await failedOnce(inv.id, 'a refused attempt');
    expect(d.last_error).toBe('only http and https callback URLs are allowed (got "ftp:")');
  });

  it('keeps only a 2 KiB excerpt of the answer', async () => {
    await setup({ receiver: { respond: () => ({ status: 200, body: 'x'.repeat(100_000) }) } });
    const inv = createInvoice();
    const [d] = await settled(inv.id, 1);
    const res = await t.request('GET', `/_sandbox/deliveries/${required(d, 'a delivery').id}`);
    expect(res.body.delivery.attempts[0].response_excerpt).toBe('x'.repeat(2048));
  });
});
