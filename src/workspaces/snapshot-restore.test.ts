import { afterEach, describe, expect, it } from 'vitest';
import { required } from '../shared/defined.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  buildScenario,
  newWorkspace,
  normalized,
  NOW_MS,
  readWorkspace,
  takeSnapshot,
  type WorkspaceView,
} from './snapshot.test-support.js';

let t: TestApp;
afterEach(() => t?.close());
interface InvoiceRead {
  id: string;
  external_transaction_id: string;
  status: string;
  created_at: string;
  expires_in_seconds: string;
}
/** A workspace's invoices as its merchant lists them. */
const invoicesOf = async (w: WorkspaceView) =>
  (
    await t.request('GET', '/v3/invoices/?per_page=100', {
      token: w.merchant.merchant_api_token,
    })
  ).body.invoices as InvoiceRead[];
const byOrder = (items: InvoiceRead[], order: string) =>
  items.find((i) => i.external_transaction_id === order);

describe('saved states', () => {
  it('a snapshot restored into a new workspace answers the same reads as the original, with new ids and credentials', async () => {
    t = createTestApp({ realNowMs: () => NOW_MS });
    const ws = await buildScenario(t);
    const before = await readWorkspace(t, ws);
    const snap = await takeSnapshot(t, ws.id);
    expect(snap).toMatchObject({
      workspace_id: ws.id,
      source: 'workspace',
      counts: { invoices: 5, payments: 2, transfers: 1, sell_orders: 1 },
    });

    const copy = await newWorkspace(t, { from_snapshot: snap.id });
    expect(copy.id).not.toBe(ws.id);
    expect(copy.merchant.merchant_api_token).not.toBe(ws.merchant.merchant_api_token);
    expect(copy.app.api_key).not.toBe(ws.app.api_key);
    expect(copy.app.api_secret).not.toBe(ws.app.api_secret);
    // New credentials are issued as a fresh workspace's are: lowercase base36 of the same length
    // (40, 32 and 48 characters), not hex (120 base36 characters all in 0-9a-f: about 1 in 10^42).
    const made = [copy.merchant.merchant_api_token, copy.app.api_key, copy.app.api_secret];
    const fresh = [ws.merchant.merchant_api_token, ws.app.api_key, ws.app.api_secret];
    expect(made.map((c) => c.length)).toEqual([40, 32, 48]);
    expect(made.map((c) => c.length)).toEqual(fresh.map((c) => c.length));
    for (const credential of [...made, ...fresh]) expect(credential).toMatch(/^[0-9a-z]+$/);
    expect(made.join('')).toMatch(/[g-z]/);
    expect(fresh.join('')).toMatch(/[g-z]/);
    expect(copy.customer.email).not.toBe(ws.customer.email);
    expect(copy.customer.mobile_number).not.toBe(ws.customer.mobile_number);
    expect(copy.customer.password).toBe(ws.customer.password);

    const restored = await readWorkspace(t, copy);
    expect(normalized(restored)).toEqual(normalized(before));
    // States, amounts and windows are there to see, not only equal: a part-paid invoice, a counter reference,
    // pending callbacks to the failing receiver, a pending transfer.
    const byExternal = Object.fromEntries(
      restored.invoices.invoices.map((i: InvoiceRead) => [i.external_transaction_id, i]),
    );
    expect(byExternal['order-1']).toMatchObject({ status: 'fully_paid' });
    expect(byExternal['order-2']).toMatchObject({
      status: 'pending',
      amount_received: '100.00000000',
      expires_in_seconds: '899',
    });
    expect(byExternal['order-4']).toMatchObject({ status: 'canceled' });
    expect(
      restored.deliveries
        .flatMap((d: { deliveries: Array<{ status: string }> }) => d.deliveries)
        .every((d) => d.status === 'pending'),
    ).toBe(true);
    expect(restored.transfers.transfers[0]).toMatchObject({
      status: 'pending',
      amount: '5',
    });
    // No id of the original leaks into the copy's reads.
    const text = JSON.stringify(restored);
    for (const inv of before.invoices.invoices) expect(text).not.toContain(inv.id);
    t.assertLedger();
    // The original is untouched and the two live apart: the copy's token does not see the original's invoices.
    expect(normalized(await readWorkspace(t, ws))).toEqual(normalized(before));
    const foreign = await t.request('GET', `/v1/invoices/${before.invoices.invoices[0].id}`, {
      token: copy.merchant.merchant_api_token,
    });
    expect(foreign.status).toBe(404);
  });

  it('a restored workspace goes on from the saved moment: its pending invoice takes the rest, and expires when its time is up', async () => {
    t = createTestApp();
    const ws = await buildScenario(t);
    const snap = await takeSnapshot(t, ws.id);
    t.advance(600); // ten minutes later, the copy still has the invoice's full window left
    const copy = await newWorkspace(t, { from_snapshot: snap.id });
    const partPaid = required(byOrder(await invoicesOf(copy), 'order-2'), 'the invoice order-2');
    expect(Number(partPaid.expires_in_seconds)).toBeGreaterThan(890);
    const paid = await t.request('POST', `/_sandbox/invoices/${partPaid.id}/payments`, {
      body: { collector: 'coins_peso_wallet', customer: copy.customer.email },
    });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.invoice).toMatchObject({
      status: 'fully_paid',
      amount_received: '250.00000000',
    });
    expect(byOrder(await invoicesOf(ws), 'order-2')).toMatchObject({
      status: 'pending',
      amount_received: '100.00000000',
    });
    t.advance(900);
    expect(byOrder(await invoicesOf(copy), 'order-5')).toMatchObject({
      status: 'expired',
    });
    t.assertLedger();
  });

  it("a copy's clock is the snapshot's moment (its own workspace time when saved): the same times, the same window left", async () => {
    t = createTestApp({ realNowMs: () => NOW_MS });
    const ws = await buildScenario(t);
    const advanced = await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: 600 },
    });
    expect(advanced.status, advanced.text).toBe(200);
    const snap = await takeSnapshot(t, ws.id);
    // The clock hands out strictly increasing microseconds, so times agree to well under a second.
    const near = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) < 50;
    expect(near(snap.taken_at, advanced.body.now), snap.taken_at).toBe(true); // the workspace's time
    t.advance(3600); // an hour later on the sandbox clock: the original's pending invoices are long expired
    const copy = await newWorkspace(t, { from_snapshot: snap.id });
    const clock = await t.request('GET', `/_sandbox/workspaces/${copy.id}/clock`);
    expect(near(clock.body.now, snap.taken_at), clock.body.now).toBe(true);
    expect(clock.body.offset_seconds).toBeCloseTo(-3000, 1);
    const [original, copied] = [await invoicesOf(ws), await invoicesOf(copy)];
    expect(byOrder(original, 'order-5')?.status).toBe('expired');
    expect(byOrder(copied, 'order-5')).toMatchObject({
      status: 'pending',
      expires_in_seconds: '299', // 900 s window, 600 s used before the save (the countdown floors)
      created_at: byOrder(original, 'order-5')?.created_at,
    });
    const later = await t.request('POST', `/_sandbox/workspaces/${copy.id}/clock/advance`, {
      body: { seconds: 300 },
    });
    expect(later.body.offset_seconds).toBeCloseTo(-2700, 1);
    expect(byOrder(await invoicesOf(copy), 'order-5')?.status).toBe('expired');
    const reset = await t.request('POST', `/_sandbox/workspaces/${copy.id}/clock/reset`);
    expect(reset.body.offset_seconds).toBe(0);
    t.assertLedger();
  });
});
