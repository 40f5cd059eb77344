import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { buildScenario, newWorkspace, normalized, readWorkspace } from './snapshot.test-support.js';

// Real time stands still (the sandbox clock still moves by its offset): reads that count seconds left
// (`expires_in_seconds`) answer the same for the original and its copy.
const NOW_MS = Date.parse('2026-11-20T09:00:00.000Z');
let t: TestApp;
interface InvoiceRead {
  external_transaction_id: string;
  status: string;
  created_at: string;
}
afterEach(() => t?.close());

async function snapshot(workspaceId: string) {
  const res = await t.request('POST', `/_sandbox/workspaces/${workspaceId}/snapshots`);
  expect(res.status, res.text).toBe(201);
  return res.body.snapshot;
}

describe('saved states', () => {
  it('a snapshot restored into a new workspace answers the same reads as the original, with new ids and credentials', async () => {
    t = createTestApp({ realNowMs: () => NOW_MS });
    const ws = await buildScenario(t);
    const before = await readWorkspace(t, ws);
    const snap = await snapshot(ws.id);
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
    // New credentials look like issued ones: lowercase hex of the same length.
    for (const [made, was] of [
      [copy.merchant.merchant_api_token, ws.merchant.merchant_api_token],
      [copy.app.api_key, ws.app.api_key],
      [copy.app.api_secret, ws.app.api_secret],
    ])
      expect(made).toMatch(new RegExp(`^[0-9a-f]{${String(was).length}}$`));
    expect(copy.customer.email).not.toBe(ws.customer.email);
    expect(copy.customer.mobile_number).not.toBe(ws.customer.mobile_number);
    expect(copy.customer.password).toBe(ws.customer.password);

    const restored = await readWorkspace(t, copy);
    expect(normalized(restored)).toEqual(normalized(before));
    // States, amounts and windows are there to see, not only equal: a part-paid invoice, a counter reference,
    // pending callbacks to the failing receiver, a pending transfer.
    const byExternal = Object.fromEntries(
      restored.invoices.invoices.map((i: any) => [i.external_transaction_id, i]),
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
        .flatMap((d: any) => d.deliveries)
        .every((d: any) => d.status === 'pending'),
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
    const snap = await snapshot(ws.id);
    t.advance(600); // ten minutes later, the copy still has the invoice's full window left
    const copy = await newWorkspace(t, { from_snapshot: snap.id });
    const list = async (w: typeof ws) =>
      (
        await t.request('GET', '/v3/invoices/?per_page=100', {
          token: w.merchant.merchant_api_token,
        })
      ).body.invoices as any[];
    const partPaid = (await list(copy)).find((i) => i.external_transaction_id === 'order-2');
    expect(Number(partPaid.expires_in_seconds)).toBeGreaterThan(890);
    const paid = await t.request('POST', `/_sandbox/invoices/${partPaid.id}/payments`, {
      body: { collector: 'coins_peso_wallet', customer: copy.customer.email },
    });
    expect(paid.status, paid.text).toBe(201);
    expect(paid.body.invoice).toMatchObject({
      status: 'fully_paid',
      amount_received: '250.00000000',
    });
    expect((await list(ws)).find((i) => i.external_transaction_id === 'order-2')).toMatchObject({
      status: 'pending',
      amount_received: '100.00000000',
    });
    t.advance(900);
    expect((await list(copy)).find((i) => i.external_transaction_id === 'order-5')).toMatchObject({
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
    const snap = await snapshot(ws.id);
    // The clock hands out strictly increasing microseconds, so times agree to well under a second.
    const near = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) < 50;
    expect(near(snap.taken_at, advanced.body.now), snap.taken_at).toBe(true); // the workspace's time
    t.advance(3600); // an hour later on the sandbox clock: the original's pending invoices are long expired
    const copy = await newWorkspace(t, { from_snapshot: snap.id });
    const clock = await t.request('GET', `/_sandbox/workspaces/${copy.id}/clock`);
    expect(near(clock.body.now, snap.taken_at), clock.body.now).toBe(true);
    expect(clock.body.offset_seconds).toBeCloseTo(-3000, 1);
    const list = async (w: typeof ws) =>
      (
        await t.request('GET', '/v3/invoices/?per_page=100', {
          token: w.merchant.merchant_api_token,
        })
      ).body.invoices as InvoiceRead[];
    const byOrder = (items: InvoiceRead[], order: string) =>
      items.find((i) => i.external_transaction_id === order);
    const [original, copied] = [await list(ws), await list(copy)];
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
    expect(byOrder(await list(copy), 'order-5')?.status).toBe('expired');
    const reset = await t.request('POST', `/_sandbox/workspaces/${copy.id}/clock/reset`);
    expect(reset.body.offset_seconds).toBe(0);
    t.assertLedger();
  });

  it("a copy's callback_url and redirect_url on the original's inbox (however spelled) point at the copy's own; another workspace's is refused; an outside URL is kept", async () => {
    t = createTestApp({ realNowMs: () => NOW_MS });
    const [ws, other] = [await newWorkspace(t), await newWorkspace(t)];
    const patch = (id: string, body: object) =>
      t.request('PATCH', `/_sandbox/merchants/${id}`, { body });
    const inbox = (id: string) => `/_sandbox/inbox/${id}`;
    expect(
      (
        await patch(ws.merchant.id, {
          callback_url: inbox(ws.merchant.id),
          redirect_url: `${inbox(ws.merchant.id)}/thank-you`,
        })
      ).status,
    ).toBe(200);
    const copy = await newWorkspace(t, { from_snapshot: (await snapshot(ws.id)).id });
    expect(copy.merchant).toMatchObject({
      callback_url: inbox(copy.merchant.id),
      redirect_url: `${inbox(copy.merchant.id)}/thank-you`,
    });
    // Its callbacks go to its own inbox, not the original's.
    const created = await t.request('POST', '/v1/invoices/', {
      token: copy.merchant.merchant_api_token,
      body: { amount: 10, currency: 'PHP', external_transaction_id: 'after-restore' },
    });
    expect(created.status, created.text).toBe(201);
    const deliveries = await t.request(
      'GET',
      `/_sandbox/deliveries?invoice_id=${created.body.invoice.id}`,
    );
    expect(deliveries.body.deliveries[0].url).toContain(inbox(copy.merchant.id));

    // Another workspace's inbox is refused (nothing to copy); an absolute URL to this sandbox's own
    // address and an escaped id are its own inbox too, and follow the copy; an outside site is kept.
    const foreign = await patch(ws.merchant.id, { callback_url: inbox(other.merchant.id) });
    expect(foreign.status, foreign.text).toBe(400);
    expect(Object.keys(foreign.body.errors)).toEqual(['callback_url']);
    const escaped = `/_sandbox/inbox/%${ws.merchant.id.charCodeAt(0).toString(16)}${ws.merchant.id.slice(1)}`;
    expect(
      (
        await patch(ws.merchant.id, {
          callback_url: `http://127.0.0.1:7070${inbox(ws.merchant.id)}`,
          redirect_url: `${escaped}/thank-you?order=${ws.merchant.id}`,
        })
      ).status,
    ).toBe(200);
    const second = await newWorkspace(t, { from_snapshot: (await snapshot(ws.id)).id });
    expect(second.merchant).toMatchObject({
      // Saved as the path it names (the document is portable), restored as that path.
      callback_url: inbox(second.merchant.id),
      redirect_url: `${inbox(second.merchant.id)}/thank-you?order=${second.merchant.id}`,
    });
    expect(
      (
        await patch(ws.merchant.id, {
          callback_url: `https://shop.example.ph/_sandbox/inbox/${ws.merchant.id}`,
          redirect_url: `https://shop.example.ph/thanks/${ws.merchant.id}`,
        })
      ).status,
    ).toBe(200);
    const third = await newWorkspace(t, { from_snapshot: (await snapshot(ws.id)).id });
    expect(third.merchant).toMatchObject({
      callback_url: `https://shop.example.ph/_sandbox/inbox/${ws.merchant.id}`,
      redirect_url: `https://shop.example.ph/thanks/${ws.merchant.id}`,
    });
  });

  it("a merchant URL to this sandbox's own address is saved as the path it names, so the copy on another sandbox (another port) uses its own", async () => {
    t = createTestApp({ realNowMs: () => NOW_MS });
    const ws = await newWorkspace(t);
    const id = ws.merchant.id;
    const inbox = `/_sandbox/inbox/${id}`;
    const patched = await t.request('PATCH', `/_sandbox/merchants/${id}`, {
      body: {
        callback_url: `http://127.0.0.1:7070${inbox}`,
        redirect_url: `http://localhost${inbox}/thank-you?from=${id}`,
      },
    });
    expect(patched.status, patched.text).toBe(200);
    const saved = await snapshot(ws.id);
    const exported = await t.request('GET', `/_sandbox/snapshots/${saved.id}/export`);
    expect(exported.status, exported.text).toBe(200);
    const merchant = exported.body.tables.merchants.find((m: { id: string }) => m.id === id);
    expect(merchant).toMatchObject({
      callback_url: inbox,
      redirect_url: `${inbox}/thank-you?from=${id}`,
    });

    // Another sandbox, on another port and public URL: the copy's callbacks go to its own receiver.
    await t.close();
    t = createTestApp({
      realNowMs: () => NOW_MS,
      config: { port: 7580, publicUrl: 'http://sandbox.test:7580' },
    });
    const imported = await t.request('POST', '/_sandbox/snapshots', { body: exported.body });
    expect(imported.status, imported.text).toBe(201);
    const copy = await newWorkspace(t, { from_snapshot: imported.body.snapshot.id });
    const copyInbox = `/_sandbox/inbox/${copy.merchant.id}`;
    expect(copy.merchant).toMatchObject({
      callback_url: copyInbox,
      redirect_url: `${copyInbox}/thank-you?from=${copy.merchant.id}`,
    });
    const created = await t.request('POST', '/v1/invoices/', {
      token: copy.merchant.merchant_api_token,
      body: { amount: 10, currency: 'PHP', external_transaction_id: 'portable' },
    });
    expect(created.status, created.text).toBe(201);
    const deliveries = await t.request(
      'GET',
      `/_sandbox/deliveries?invoice_id=${created.body.invoice.id}`,
    );
    // A path of the copy's sandbox, resolved against its own address when sent (not the 7070 it came from).
    expect(deliveries.body.deliveries[0].url).toBe(copyInbox);
  });

  it("lists a workspace's snapshots newest first, also once it is deleted; an unknown workspace or snapshot is 404", async () => {
    t = createTestApp();
    const ws = await newWorkspace(t);
    const first = await snapshot(ws.id);
    t.advance(1);
    const second = await snapshot(ws.id);
    const list = await t.request('GET', `/_sandbox/workspaces/${ws.id}/snapshots`);
    expect(list.body.snapshots.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
    expect(list.body.meta).toEqual({ total_count: 2, next_page: null, previous_page: null });
    expect(
      (await t.request('POST', '/_sandbox/workspaces/0123456789abcdef0123456789abcdef/snapshots'))
        .status,
    ).toBe(404);
    expect(
      (await t.request('GET', '/_sandbox/snapshots/0123456789abcdef0123456789abcdef/export'))
        .status,
    ).toBe(404);
    const bad = await t.request('POST', '/_sandbox/workspaces', {
      body: { from_snapshot: 'nope' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual({ from_snapshot: ['No snapshot has this id.'] });
    expect(
      (await t.request('GET', '/_sandbox/workspaces/0123456789abcdef0123456789abcdef/snapshots'))
        .status,
    ).toBe(404);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    expect((await t.request('POST', `/_sandbox/workspaces/${ws.id}/snapshots`)).status).toBe(404);
    // A snapshot outlives its workspace: still listed under it, and exported.
    const kept = await t.request('GET', `/_sandbox/workspaces/${ws.id}/snapshots`);
    expect(kept.status, kept.text).toBe(200);
    expect(kept.body.snapshots.map((s: { id: string }) => s.id)).toEqual([second.id, first.id]);
    expect((await t.request('GET', `/_sandbox/snapshots/${first.id}/export`)).status).toBe(200);
  });

  it('GET /_sandbox/snapshots lists every snapshot, imported ones too, newest first and page by page', async () => {
    t = createTestApp();
    const ws = await newWorkspace(t);
    const taken = await snapshot(ws.id);
    const doc = (await t.request('GET', `/_sandbox/snapshots/${taken.id}/export`)).body;
    t.advance(1);
    const imported = await t.request('POST', '/_sandbox/snapshots', { body: doc });
    expect(imported.status, imported.text).toBe(201);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    t.advance(1);
    const later = await snapshot((await newWorkspace(t)).id);

    const all = await t.request('GET', '/_sandbox/snapshots');
    expect(all.status, all.text).toBe(200);
    expect(all.body.snapshots.map((s: { id: string }) => s.id)).toEqual([
      later.id,
      imported.body.snapshot.id,
      taken.id,
    ]);
    expect(all.body.snapshots[1]).toMatchObject({ workspace_id: null, source: 'import' });
    expect(all.body.meta).toEqual({ total_count: 3, next_page: null, previous_page: null });

    const page2 = await t.request('GET', '/_sandbox/snapshots?per_page=2&page=2');
    expect(page2.body.snapshots.map((s: { id: string }) => s.id)).toEqual([taken.id]);
    expect(page2.body.meta).toEqual({ total_count: 3, next_page: null, previous_page: 1 });
    const onlyImported = await t.request('GET', '/_sandbox/snapshots?source=import');
    expect(onlyImported.body.snapshots.map((s: { id: string }) => s.id)).toEqual([
      imported.body.snapshot.id,
    ]);
    expect(onlyImported.body.meta.total_count).toBe(1);
    const bad = await t.request('GET', '/_sandbox/snapshots?source=nope');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors)).toEqual(['source']);
  });

  it('snapshots are stored in the database file and survive a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'paysandbox-snap-'));
    try {
      const file = join(dir, 'sandbox.db');
      t = createTestApp({ db: openDatabase(file) });
      const ws = await buildScenario(t);
      const snap = await snapshot(ws.id);
      const exported = (await t.request('GET', `/_sandbox/snapshots/${snap.id}/export`)).body;
      await t.close();
      t = createTestApp({ db: openDatabase(file) });
      expect(
        (await t.request('GET', `/_sandbox/workspaces/${ws.id}/snapshots`)).body.snapshots,
      ).toEqual([snap]);
      expect((await t.request('GET', `/_sandbox/snapshots/${snap.id}/export`)).body).toEqual(
        exported,
      );
      await newWorkspace(t, { from_snapshot: snap.id });
      t.assertLedger();
    } finally {
      await t.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
