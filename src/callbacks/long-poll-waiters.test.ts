import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestResponse } from '../testing/test-app.js';

// Hundreds of open long-polls (GET /_sandbox/deliveries?wait=N): a write costs one shared check per
// distinct filter in wait, not one query per waiter; every waiter still gets its own right answer; and
// past --max-waiters one more is a clear 503 with Retry-After.
let t: TestApp;
beforeEach(() => {
  t = createTestApp({ config: { maxWaiters: 350 } });
});
afterEach(() => t.close());

let ext = 0;
function createInvoice() {
  const merchant = t.services.identities.merchantById(t.merchant.id)!;
  return t.services.invoices.create(merchant, {
    amount: '20',
    currency: 'PHP',
    external_transaction_id: `lp-${++ext}`,
  });
}
const waiters = () => t.sandbox.modules.callbacks.api.waiters();
const pay = (invoiceId: string) =>
  t.request('POST', `/_sandbox/invoices/${invoiceId}/payments`, {
    body: { collector: 'coins_peso_wallet' },
  });

/** Yield to the event loop until `n` long-polls wait (bounded). */
async function untilWaiting(n: number) {
  for (let i = 0; i < 2000 && waiters().waiting !== n; i++)
    await new Promise((r) => setImmediate(r));
  expect(waiters().waiting).toBe(n);
}

it('300 waiters on 3 filters: each write runs at most 3 checks, and each waiter gets its own invoice’s delivery', async () => {
  const invoices = [createInvoice(), createInvoice(), createInvoice()];
  const polls: Array<[string, Promise<TestResponse>]> = [];
  for (let i = 0; i < 300; i++) {
    const inv = invoices[i % 3]!;
    polls.push([
      inv.id,
      t.request(
        'GET',
        `/_sandbox/deliveries?invoice_id=${inv.id}&event=invoice.fully_paid&wait=30`,
      ),
    ]);
  }
  await untilWaiting(300);
  const before = waiters().checks;
  for (let i = 0; i < 50; i++) {
    createInvoice(); // a write every waiter's filter ignores
    await new Promise((r) => setImmediate(r));
  }
  const checks = waiters().checks - before;
  expect(checks).toBeGreaterThan(0);
  expect(checks).toBeLessThanOrEqual(50 * 3); // one query per waiter would be 50 × 300
  expect(waiters().waiting).toBe(300);

  // Paying one invoice answers its 100 waiters only.
  expect((await pay(invoices[0]!.id)).status).toBe(201);
  await untilWaiting(200);
  for (const inv of invoices.slice(1)) expect((await pay(inv.id)).status).toBe(201);
  const answers = await Promise.all(polls.map(async ([id, p]) => [id, await p] as const));
  for (const [id, res] of answers) {
    expect(res.status).toBe(200);
    expect(
      res.body.deliveries.map((d: { invoice_id: string; event: string }) => [
        d.invoice_id,
        d.event,
      ]),
    ).toEqual([[id, 'invoice.fully_paid']]);
  }
  expect(waiters().waiting).toBe(0);
});

it('past --max-waiters a long-poll is a 503 too_many_waiters with Retry-After; a list without wait still answers', async () => {
  const inv = createInvoice();
  const polls = Array.from({ length: 350 }, () =>
    t.request('GET', `/_sandbox/deliveries?invoice_id=${inv.id}&status=delivered&wait=30`),
  );
  await untilWaiting(350);
  const refused = await t.request(
    'GET',
    `/_sandbox/deliveries?invoice_id=${inv.id}&status=delivered&wait=5`,
  );
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBe('1');
  expect(refused.body.error_codes).toEqual(['too_many_waiters']);
  expect(refused.body.errors.non_field_errors[0]).toMatch(
    /^350 long-polls \(wait\) are already open/,
  );
  const plain = await t.request('GET', `/_sandbox/deliveries?invoice_id=${inv.id}`);
  expect(plain.status).toBe(200);
  // A long-poll that matches at once never waits, so it is never refused.
  expect((await t.request('GET', `/_sandbox/deliveries?invoice_id=${inv.id}&wait=5`)).status).toBe(
    200,
  );
  // The waiters end (the delivery is marked delivered), and room frees up.
  t.db.prepare("UPDATE deliveries SET status = 'delivered' WHERE invoice_id = ?").run(inv.id);
  createInvoice(); // a change: the shared check runs once for all 350
  for (const res of await Promise.all(polls)) expect(res.body.deliveries).toHaveLength(1);
  expect(waiters().waiting).toBe(0);
});

it('a long-poll that times out answers the empty list, and its place is freed', async () => {
  const res = await t.request('GET', '/_sandbox/deliveries?event=invoice.fully_paid&wait=1');
  expect(res.status).toBe(200);
  expect(res.body.deliveries).toEqual([]);
  expect(waiters().waiting).toBe(0);
});
