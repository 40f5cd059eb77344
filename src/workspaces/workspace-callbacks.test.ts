import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.js';
import { createSandbox, sharedSpec } from '../sandbox.js';
import { listen } from '../server.js';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The parts of the bodies this test reads. */
interface Body {
  workspace: { id: string; merchant: { id: string; merchant_api_token: string } };
  invoice: { id: string };
  deliveries: Array<{ id: string; url: string }>;
  delivery: { id: string };
  snapshot: { id: string };
  callbacks: Array<{ event: string }>;
}

/**
 * A real sandbox on its own port with its dispatcher running (callbacks leave over HTTP), without a
 * control token so that the hosted page offers its sandbox outcomes.
 */
async function serve(retrySchedule?: number[]) {
  const sandbox = createSandbox({
    db: openDatabase(':memory:'),
    spec: sharedSpec(),
    config: { db: ':memory:', port: 0, quiet: true, ...(retrySchedule ? { retrySchedule } : {}) },
  });
  const server = await listen(sandbox);
  sandbox.startBackground();
  cleanups.push(
    () => sandbox.close(),
    () => server.stop(),
  );
  const call = async (method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Token ${token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Body };
  };
  return { server, call };
}

describe("a workspace's merchant, out of the box", () => {
  it('has its own example receiver and thank-you page, so its callbacks are delivered there', async () => {
    const { server, call } = await serve();
    const ws = (await call('POST', '/_sandbox/workspaces', {})).body.workspace;
    const merchant = ws.merchant;
    expect(merchant).toMatchObject({
      callback_url: `/_sandbox/inbox/${merchant.id}`,
      redirect_url: `/_sandbox/inbox/${merchant.id}/thank-you`,
    });

    const inv = await call(
      'POST',
      '/v1/invoices/',
      { amount: 10, currency: 'PHP', external_transaction_id: 'ws-callbacks' },
      merchant.merchant_api_token,
    );
    expect(inv.status).toBe(201);
    const id = inv.body.invoice.id;
    const done = await call(
      'GET',
      `/_sandbox/deliveries?invoice_id=${id}&event=invoice.created&status=delivered&wait=10`,
    );
    expect(done.body.deliveries).toHaveLength(1);
    expect(done.body.deliveries[0]?.url).toBe(
      `http://127.0.0.1:${server.port}/_sandbox/inbox/${merchant.id}`,
    );
    const inbox = await call('GET', `/_sandbox/inbox?merchant_id=${merchant.id}&invoice_id=${id}`);
    expect(inbox.status).toBe(200);
    expect(inbox.body.callbacks.map((e) => e.event)).toEqual(['invoice.created']);

    // The hosted page's outcome sends the customer to the merchant's own thank-you page.
    const paid = await fetch(`${server.url}/payment/invoice/${id}/sandbox`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'outcome=full',
    });
    expect(paid.status).toBe(303);
    const location = new URL(paid.headers.get('location') ?? '', server.url);
    expect(location.pathname).toBe(`/_sandbox/inbox/${merchant.id}/thank-you`);
    const thanks = await fetch(`${server.url}${location.pathname}${location.search}`);
    expect(thanks.status).toBe(200);
  });

  it('saves its delivered, redelivered and failed callbacks as the dispatcher left them, and the document imports', async () => {
    // One attempt only: a callback that cannot be delivered fails at once.
    const { call } = await serve([]);
    const ws = (await call('POST', '/_sandbox/workspaces', {})).body.workspace;
    const token = ws.merchant.merchant_api_token;
    const invoice = async (ref: string) => {
      const res = await call(
        'POST',
        '/v1/invoices/',
        { amount: 10, currency: 'PHP', external_transaction_id: ref },
        token,
      );
      expect(res.status).toBe(201);
      return res.body.invoice.id;
    };
    const waitFor = async (id: string, status: string) => {
      const res = await call(
        'GET',
        `/_sandbox/deliveries?invoice_id=${id}&status=${status}&wait=10`,
      );
      expect(res.body.deliveries.length).toBeGreaterThan(0);
      return res.body.deliveries;
    };
    const first = await invoice('saved-delivered');
    const [delivered] = await waitFor(first, 'delivered');
    const again = await call('POST', `/_sandbox/deliveries/${delivered?.id}/redeliver`);
    expect(again.status).toBe(202);
    // `wait` answers once one matches (the original): poll until the redelivery is delivered too.
    let delivered2 = 0;
    for (let i = 0; i < 100 && delivered2 < 2; i++) {
      if (i) await new Promise((r) => setTimeout(r, 50));
      delivered2 = (await call('GET', `/_sandbox/deliveries?invoice_id=${first}&status=delivered`))
        .body.deliveries.length;
    }
    expect(delivered2).toBe(2);
    expect(
      (
        await call('PATCH', `/_sandbox/merchants/${ws.merchant.id}`, {
          callback_url: 'http://127.0.0.1:9/refused',
        })
      ).status,
    ).toBe(200);
    await waitFor(await invoice('saved-failed'), 'failed');

    const snap = await call('POST', `/_sandbox/workspaces/${ws.id}/snapshots`);
    expect(snap.status).toBe(201);
    const doc = (await call('GET', `/_sandbox/snapshots/${snap.body.snapshot.id}/export`))
      .body as unknown as {
      tables: { deliveries: Array<{ status: string; redelivery_of: string | null }> };
    };
    const rows = doc.tables.deliveries;
    expect(rows.map((d) => d.status).sort()).toEqual(['delivered', 'delivered', 'failed']);
    expect(rows.filter((d) => d.redelivery_of !== null)).toHaveLength(1);
    const imported = await call('POST', '/_sandbox/snapshots', doc);
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    const copy = await call('POST', '/_sandbox/workspaces', {
      from_snapshot: imported.body.snapshot.id,
    });
    expect(copy.status, JSON.stringify(copy.body)).toBe(201);
  });
});
