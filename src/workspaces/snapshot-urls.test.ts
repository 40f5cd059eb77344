import { afterEach, describe, expect, it } from 'vitest';
import { itemAt } from '../shared/defined.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { newWorkspace, NOW_MS, takeSnapshot, type WorkspaceView } from './snapshot.test-support.js';

let t: TestApp;
afterEach(() => t?.close());

/** The URL of the first callback of an invoice the workspace's merchant creates now. */
async function firstCallbackUrl(ws: WorkspaceView, externalId: string): Promise<string> {
  const created = await t.request('POST', '/v1/invoices/', {
    token: ws.merchant.merchant_api_token,
    body: { amount: 10, currency: 'PHP', external_transaction_id: externalId },
  });
  expect(created.status, created.text).toBe(201);
  const deliveries = await t.request(
    'GET',
    `/_sandbox/deliveries?invoice_id=${created.body.invoice.id}`,
  );
  return itemAt(deliveries.body.deliveries as Array<{ url: string }>, 0).url;
}

describe('saved states', () => {
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
    const copy = await newWorkspace(t, { from_snapshot: (await takeSnapshot(t, ws.id)).id });
    expect(copy.merchant).toMatchObject({
      callback_url: inbox(copy.merchant.id),
      redirect_url: `${inbox(copy.merchant.id)}/thank-you`,
    });
    // Its callbacks go to its own inbox, not the original's.
    expect(await firstCallbackUrl(copy, 'after-restore')).toContain(inbox(copy.merchant.id));

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
    const second = await newWorkspace(t, { from_snapshot: (await takeSnapshot(t, ws.id)).id });
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
    const third = await newWorkspace(t, { from_snapshot: (await takeSnapshot(t, ws.id)).id });
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
    const saved = await takeSnapshot(t, ws.id);
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
    // A path of the copy's sandbox, resolved against its own address when sent (not the 7070 it came from).
    expect(await firstCallbackUrl(copy, 'portable')).toBe(`http://127.0.0.1:7580${copyInbox}`);
  });
});
