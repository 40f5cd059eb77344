import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMerchantReceiver } from '../../examples/merchant-callback/server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { until } from './callbacks.test-support.js';

// Callback retries are due work of the registry (src/clock/due-work.ts). Real time is under the test's
// hand and only the dispatcher runs (no background tick): a retry that falls due is sent because the
// registry pumps the dispatcher, before the first request after it or on a clock move.
type Receiver = Awaited<ReturnType<typeof startMerchantReceiver>>;
let real = 1_800_000_000_000;
let t: TestApp;
let receiver: Receiver;
let stopDispatcher: (() => Promise<void> | void) | undefined;
beforeEach(async () => {
  real = 1_800_000_000_000;
  t = createTestApp({ realNowMs: () => real });
  // On 127.0.0.1; the first callback it receives is answered 500, the rest 200.
  receiver = await startMerchantReceiver({ token: 'unused', port: 0, failFirst: 1 });
});
afterEach(async () => {
  await stopDispatcher?.();
  stopDispatcher = undefined;
  await receiver.close();
  await t.close();
});

const startDispatcher = () => {
  stopDispatcher = t.sandbox.modules.callbacks.start() ?? undefined;
};
const delivery = (merchantId: string) =>
  t.db
    .prepare(
      'SELECT status, attempts_count, next_attempt_at FROM deliveries WHERE merchant_id = ? ORDER BY seq',
    )
    .get(merchantId) as { status: string; attempts_count: number; next_attempt_at: number | null };
const createInvoice = async (token: string, ext: string) => {
  const res = await t.request('POST', '/v1/invoices/', {
    token,
    body: { amount: 5, currency: 'PHP', external_transaction_id: ext },
  });
  expect(res.status).toBe(201);
};
/** The first attempt was answered 500: the delivery waits for its retry. */
const firstAttemptFailed = (merchantId: string) =>
  until(
    () => delivery(merchantId),
    (d) => d.status === 'pending' && d.attempts_count === 1,
    'the first attempt recorded',
  );
const sandboxNow = () => t.services.tenants.sandbox.now();

describe('callback retries as due work', () => {
  it('a scheduled retry lowers the guard; the first request once it is due sends it, with no tick', async () => {
    t.services.identities.updateMerchant(t.merchant.id, { callback_url: receiver.url });
    startDispatcher();
    await createInvoice(t.merchant.merchant_api_token, 'retry-guard');
    const waiting = await firstAttemptFailed(t.merchant.id);
    const retryAt = waiting.next_attempt_at ?? Number.NaN;
    expect(t.services.dueWork.nextDueAt()).toBe(retryAt);
    real += 9_000;
    await t.request('GET', '/_sandbox/clock');
    expect(delivery(t.merchant.id)).toMatchObject({ status: 'pending', attempts_count: 1 });
    real += 1_001; // 10 s after the failed attempt: the retry is due
    await t.request('GET', '/_sandbox/clock');
    // Claimed before that request's handler ran; the request itself goes out asynchronously.
    expect(delivery(t.merchant.id).attempts_count).toBe(2);
    await until(
      () => delivery(t.merchant.id).status,
      (s) => s === 'delivered',
      'the retry delivered',
    );
    expect(receiver.received.map((cb) => cb.status)).toEqual([500, 200]);
    // Nothing left to send: the guard is past now again (a request pays one comparison).
    await t.request('GET', '/_sandbox/clock');
    expect(t.services.dueWork.nextDueAt()).toBeGreaterThan(sandboxNow());
  });

  it("a workspace merchant's retry is due on its workspace clock, and a clock advance sends it at once", async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    t.services.identities.updateMerchant(ws.merchant.id, { callback_url: receiver.url });
    await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: 3600 },
    });
    startDispatcher();
    await createInvoice(ws.merchant.merchant_api_token, 'retry-ws');
    const waiting = await firstAttemptFailed(ws.merchant.id);
    // On the workspace clock, an hour ahead: due an hour earlier on the sandbox clock.
    expect(t.services.dueWork.nextDueAt()).toBe((waiting.next_attempt_at ?? Number.NaN) - 3600e6);
    const moved = await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 11 } });
    expect(moved.status).toBe(200);
    expect(delivery(ws.merchant.id).attempts_count).toBe(2);
    await until(
      () => receiver.received.length,
      (n) => n === 2,
      'the retry received',
    );
  });

  it('while no dispatcher runs, a delivery waiting to be sent does not make every request run the due work', async () => {
    t.services.identities.updateMerchant(t.merchant.id, { callback_url: receiver.url });
    await createInvoice(t.merchant.merchant_api_token, 'no-dispatcher');
    t.sandbox.tick();
    expect(delivery(t.merchant.id)).toMatchObject({ status: 'pending', attempts_count: 0 });
    expect(t.services.dueWork.nextDueAt()).toBeGreaterThan(sandboxNow());
    expect(t.services.dueWork.runIfDue()).toBe(false);
  });
});
