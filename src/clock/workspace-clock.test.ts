import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMerchantReceiver } from '../../examples/merchant-callback/server.js';
import { until } from '../callbacks/callbacks.test-support.js';
import { getPage, postForm } from '../testing/checkout.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

type Receiver = Awaited<ReturnType<typeof startMerchantReceiver>>;
let t: TestApp;
let receiver: Receiver;
beforeEach(async () => {
  t = createTestApp();
  receiver = await startMerchantReceiver({
    token: 'unused',
    port: 0,
    respond: () => ({ status: 500 }),
  });
});
afterEach(async () => {
  await receiver.close();
  await t.close();
});

interface Ws {
  id: string;
  token: string;
  merchantId: string;
}

async function workspace(): Promise<Ws> {
  const res = await t.request('POST', '/_sandbox/workspaces', { body: {} });
  expect(res.status).toBe(201);
  const w = res.body.workspace;
  return { id: w.id, token: w.merchant.merchant_api_token, merchantId: w.merchant.id };
}

async function invoice(ws: Ws, ext: string) {
  const res = await t.request('POST', '/v1/invoices/', {
    token: ws.token,
    body: { amount: 5, currency: 'PHP', external_transaction_id: ext },
  });
  expect(res.status).toBe(201);
  return res.body.invoice as { id: string; created_at: string; expires_at: string };
}

const status = (id: string) =>
  t.db.prepare('SELECT status FROM invoices WHERE id = ?').pluck().get(id) as string;
const attempts = (merchantId: string) =>
  t.db
    .prepare('SELECT attempts_count AS n, status FROM deliveries WHERE merchant_id = ?')
    .get(merchantId) as { n: number; status: string };
const clockOf = async (id: string) =>
  (await t.request('GET', `/_sandbox/workspaces/${id}/clock`)).body as {
    now: string;
    offset_seconds: number;
  };

describe('a clock per workspace', () => {
  it('shows, advances and resets one workspace clock; the sandbox clock and other workspaces stay put', async () => {
    const a = await workspace();
    const b = await workspace();
    expect((await clockOf(a.id)).offset_seconds).toBe(0);
    const moved = await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 900.5 },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.offset_seconds).toBe(900.5);
    expect(Date.parse(moved.body.now) - Date.now()).toBeGreaterThan(890_000);
    expect(t.db.prepare('SELECT clock_offset FROM workspaces WHERE id = ?').pluck().get(a.id)).toBe(
      900_500_000,
    );
    expect((await clockOf(b.id)).offset_seconds).toBe(0);
    expect((await t.request('GET', '/_sandbox/clock')).body.offset_seconds).toBe(0);
    const reset = await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/reset`);
    expect(reset.body.offset_seconds).toBe(0);
    expect(Math.abs(Date.parse(reset.body.now) - Date.now())).toBeLessThan(60_000);
  });

  it('answers 404 in the control envelope for an unknown or deleted workspace, and 400 for bad seconds', async () => {
    const a = await workspace();
    const bad = await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: -1 },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error_codes).toEqual(['validation_error']);
    expect((await clockOf(a.id)).offset_seconds).toBe(0);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${a.id}`)).status).toBe(204);
    for (const id of [a.id, 'f'.repeat(32)]) {
      for (const [method, path] of [
        ['GET', 'clock'],
        ['POST', 'clock/advance'],
        ['POST', 'clock/reset'],
      ] as const) {
        const res = await t.request(
          method,
          `/_sandbox/workspaces/${id}/${path}`,
          method === 'POST' ? { body: { seconds: 60 } } : {},
        );
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body).toMatchObject({ error_codes: ['not_found'] });
      }
    }
  });

  it("writes a workspace's objects in its own time: created_at, expires_at and expires_in_seconds", async () => {
    const a = await workspace();
    await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 86_400 },
    });
    const inv = await invoice(a, 'own-time');
    expect(Date.parse(inv.created_at) - Date.now()).toBeGreaterThan(86_300_000);
    expect(Date.parse(inv.expires_at) - Date.parse(inv.created_at)).toBe(900_000);
    const read = await t.request('GET', `/v1/invoices/${inv.id}`, { token: a.token });
    expect(Number(read.body.invoice.expires_in_seconds)).toBeGreaterThan(890);
    expect(read.body.invoice.status).toBe('pending');
  });

  it('advancing one workspace 901 s expires only its invoice and fires only its callback retries', async () => {
    const a = await workspace();
    const b = await workspace();
    for (const w of [a, b])
      t.services.identities.updateMerchant(w.merchantId, { callback_url: receiver.url });
    t.sandbox.startBackground();
    const ia = await invoice(a, 'ws-a');
    const ib = await invoice(b, 'ws-b');
    // Each invoice.created callback failed once; its retry waits 10 s on its own workspace's clock.
    for (const w of [a, b])
      await until(
        () => attempts(w.merchantId),
        (d) => d.status === 'pending' && d.n === 1,
        'first attempt',
      );

    const res = await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 901 },
    });
    expect(res.status).toBe(200);
    expect(status(ia.id)).toBe('expired');
    expect(status(ib.id)).toBe('pending');
    // The advance claimed A's retry at once; B's is not due on B's clock.
    expect(attempts(a.merchantId).n).toBe(2);
    expect(attempts(b.merchantId)).toEqual({ n: 1, status: 'pending' });
    await until(
      () => receiver.received.length,
      (n) => n >= 3,
      'the retry sent',
    );
    expect(attempts(b.merchantId).n).toBe(1);
    expect(
      (await t.request('GET', `/v1/invoices/${ib.id}`, { token: b.token })).body.invoice.status,
    ).toBe('pending');
    expect((await t.request('GET', '/_sandbox/clock')).body.offset_seconds).toBe(0);
  });

  it("the delivery log tells why a workspace's delivery waits on that workspace's clock", async () => {
    const a = await workspace();
    t.services.identities.updateMerchant(a.merchantId, { callback_url: receiver.url });
    await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 600 },
    });
    // Nothing sends (no background work): the invoice.created callback stays due, at A's time.
    const inv = await invoice(a, 'ws-waiting');
    const listed = await t.request('GET', `/_sandbox/deliveries?invoice_id=${inv.id}`);
    expect(listed.status).toBe(200);
    const [delivery] = listed.body.deliveries as Array<{ id: string; waiting_reason: string }>;
    // On the sandbox clock it would be ten minutes ahead ("next attempt at …"); on its own it is due.
    expect(delivery?.waiting_reason).toMatch(/^due now: attempt 1 of /);
    const one = await t.request('GET', `/_sandbox/deliveries/${delivery?.id}`);
    expect(one.body.delivery.waiting_reason).toMatch(/^due now/);
  });

  it("the hosted page pays a workspace's invoice on that workspace's clock (after reading its form)", async () => {
    const res = await t.request('POST', '/_sandbox/workspaces', { body: {} });
    const w = res.body.workspace;
    await t.request('POST', `/_sandbox/workspaces/${w.id}/clock/advance`, {
      body: { seconds: 86_400 },
    });
    const inv = await invoice(
      { id: w.id, token: w.merchant.merchant_api_token, merchantId: '' },
      'hp',
    );
    const page = `/payment/invoice/${inv.id}`;
    const login = await postForm(t, `${page}/wallet/login`, {
      login: w.customer.email,
      password: w.customer.password,
    });
    expect(login.status).toBe(303);
    // The form's body is read before the payment: the payment still runs on the workspace's clock.
    expect((await postForm(t, `${page}/wallet/confirm`, {}, login.cookie)).status).toBe(303);
    const read = await t.request('GET', `/v1/invoices/${inv.id}`, {
      token: w.merchant.merchant_api_token,
    });
    expect(read.body.invoice.status).toBe('fully_paid');
    expect(Date.parse(read.body.invoice.updated_at) - Date.now()).toBeGreaterThan(86_300_000);
  });

  it("a request of an advanced workspace does not make another tenant's callback retry due", async () => {
    const a = await workspace();
    const b = await workspace();
    for (const w of [a, b])
      t.services.identities.updateMerchant(w.merchantId, { callback_url: receiver.url });
    await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 3600 },
    });
    t.sandbox.startBackground();
    await invoice(b, 'ws-b-retry');
    // B's invoice.created callback failed once; its retry waits 10 s on B's clock.
    await until(
      () => attempts(b.merchantId),
      (d) => d.status === 'pending' && d.n === 1,
      'first attempt',
    );
    // A write of A's: its commit wakes the dispatcher (A's callback is due), which must judge B's
    // retry on B's clock, not on the clock of the request that woke it.
    await invoice(a, 'ws-a-write');
    await until(
      () => attempts(a.merchantId),
      (d) => d.n === 1,
      "A's first attempt",
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(attempts(b.merchantId)).toEqual({ n: 1, status: 'pending' });
    expect(receiver.received).toHaveLength(2);
  });

  it("a hosted page slowed by a latency fault still counts down on the workspace's clock", async () => {
    const a = await workspace();
    await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 600 },
    });
    const inv = await invoice(a, 'slow-page');
    const fault = await t.request('POST', '/_sandbox/faults', {
      body: { path: '/payment/invoice/*', latency_ms: 1 },
    });
    expect(fault.status).toBe(201);
    const page = await getPage(t, `/payment/invoice/${inv.id}`);
    expect(page.status).toBe(200);
    // 900 s left on A's clock; on the sandbox clock (600 s behind) it would read 1,500.
    const seconds = Number(/data-seconds="(\d+)"/.exec(page.html)?.[1]);
    expect(seconds).toBeGreaterThan(890);
    expect(seconds).toBeLessThanOrEqual(900);
  });

  it('a global advance moves every workspace, advanced or not', async () => {
    const a = await workspace();
    const b = await workspace();
    await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 60 },
    });
    const ia = await invoice(a, 'global-a');
    const ib = await invoice(b, 'global-b');
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 901 } });
    expect([status(ia.id), status(ib.id)]).toEqual(['expired', 'expired']);
    expect((await clockOf(a.id)).offset_seconds).toBe(60);
    expect(Date.parse((await clockOf(b.id)).now) - Date.now()).toBeGreaterThan(890_000);
  });

  it("expires a workspace app's OAuth2 token on that workspace's clock only", async () => {
    const apps = [];
    for (let i = 0; i < 2; i++) {
      const w = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
      const tok = await t.request('POST', `/_sandbox/apps/${w.app.api_key}/tokens`, {
        body: { expires_in_seconds: 60 },
      });
      expect(tok.status).toBe(201);
      apps.push({ id: w.id as string, token: tok.body.access_token as string });
    }
    const read = (token: string) =>
      t.request('GET', '/v3/crypto-accounts/', { headers: { authorization: `Bearer ${token}` } });
    await t.request('POST', `/_sandbox/workspaces/${apps[0]!.id}/clock/advance`, {
      body: { seconds: 61 },
    });
    expect((await read(apps[0]!.token)).status).toBe(401);
    expect((await read(apps[1]!.token)).status).toBe(200);
    // Its workspace clock back: the token stays expired.
    await t.request('POST', `/_sandbox/workspaces/${apps[0]!.id}/clock/reset`);
    expect((await read(apps[0]!.token)).status).toBe(401);
  });

  it('no reset revives anything: a workspace reset or a global reset leaves what expired expired', async () => {
    const a = await workspace();
    const inv = await invoice(a, 'no-revive');
    await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/advance`, {
      body: { seconds: 901 },
    });
    expect(status(inv.id)).toBe('expired');
    await t.request('POST', `/_sandbox/workspaces/${a.id}/clock/reset`);
    expect(status(inv.id)).toBe('expired');
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 30 } });
    await t.request('POST', '/_sandbox/clock/reset');
    const read = await t.request('GET', `/v1/invoices/${inv.id}`, { token: a.token });
    expect(read.body.invoice).toMatchObject({ status: 'expired', expires_in_seconds: null });
    const pay = await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
      body: { collector: 'coins_peso_wallet' },
    });
    expect(pay.status).toBe(409);
    expect(pay.body.error_codes).toEqual(['invoice_not_payable']);
  });
});
