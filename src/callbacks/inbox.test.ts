import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../config.js';
import { openDatabase } from '../db/open.js';
import { createSandbox, sharedSpec, type Sandbox } from '../sandbox.js';
import { listen } from '../server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { judgeAuthorization } from './inbox.js';
import { formatDecimal, parseAmount } from '../shared/money.js';
import { waitUntil } from '../testing/wait.js';

const TOKEN = 'control-secret';
const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** A real sandbox on its own port with its dispatcher running, on the fixtures as they ship. */
async function serve(config: Partial<AppConfig> = {}) {
  const sandbox: Sandbox = createSandbox({
    db: openDatabase(':memory:'),
    spec: sharedSpec(),
    config: { db: ':memory:', port: 0, quiet: true, controlToken: TOKEN, ...config },
  });
  const server = await listen(sandbox);
  sandbox.startBackground();
  cleanups.push(
    () => sandbox.close(),
    () => server.stop(),
  );
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        'X-Sandbox-Token': TOKEN,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (res.status === 204 ? null : await res.json()) as any };
  };
  return { sandbox, server, call, merchant: sandbox.fixtures.merchants[0]! };
}

describe('the example receiver (out of the box)', () => {
  it("takes the first merchant's callbacks on the sandbox's own port, with a control token set, and lists them", async () => {
    const { server, call, merchant } = await serve();
    const trig = await call('POST', '/_sandbox/trigger', { event: 'invoice.fully_paid' });
    expect(trig.status).toBe(201);
    const id = trig.body.invoice.id as string;
    const done = await call(
      'GET',
      `/_sandbox/deliveries?invoice_id=${id}&event=invoice.fully_paid&status=delivered&wait=10`,
    );
    expect(done.body.deliveries).toHaveLength(1);
    expect(done.body.deliveries[0].url).toBe(
      `http://127.0.0.1:${server.port}/_sandbox/inbox/${merchant.id}`,
    );
    const inbox = await call('GET', `/_sandbox/inbox?invoice_id=${id}`);
    expect(inbox.status).toBe(200);
    const entries = inbox.body.callbacks as Array<Record<string, unknown>>;
    expect(entries.map((e) => e.event)).toEqual(['invoice.fully_paid', 'invoice.created']);
    expect(entries[0]).toMatchObject({
      merchant_id: merchant.id,
      invoice_id: id,
      delivery_attempt: 1,
      authorization: 'not_sent', // https-only merchant, http URL: the real service sends no token
      from_this_sandbox: true,
    });
    expect((entries[0]!.headers as Record<string, string>)['x-sandbox-event-id']).toBe(
      entries[0]!.event_id,
    );
    // The invoice API pads the amount ("20.00000000"); the callback writes it unpadded ("20").
    expect(JSON.parse(entries[0]!.body as string).event.data.amount_received).toBe(
      formatDecimal(parseAmount(trig.body.invoice.amount_received)),
    );
    expect((await call('DELETE', '/_sandbox/inbox')).status).toBe(204);
    expect((await call('GET', '/_sandbox/inbox')).body.meta.total_count).toBe(0);
  });

  it("never receives another sandbox's callbacks (two sandboxes, same fixtures, one machine)", async () => {
    const a = await serve();
    const b = await serve();
    expect(a.merchant.id).toBe(b.merchant.id);
    const trig = await a.call('POST', '/_sandbox/trigger', { event: 'invoice.fully_paid' });
    const id = trig.body.invoice.id as string;
    await a.call(
      'GET',
      `/_sandbox/deliveries?invoice_id=${id}&event=invoice.fully_paid&status=delivered&wait=10`,
    );
    expect((await a.call('GET', `/_sandbox/inbox?invoice_id=${id}`)).body.meta.total_count).toBe(2);
    expect((await b.call('GET', '/_sandbox/inbox')).body.meta.total_count).toBe(0);
  });

  it('is allowed under --block-private-callbacks, while the same inbox written as a loopback URL is not', async () => {
    const { server, call, merchant, sandbox } = await serve({ blockPrivateCallbacks: true });
    const own = await call('POST', '/_sandbox/trigger', { event: 'invoice.created' });
    const ok = await call(
      'GET',
      `/_sandbox/deliveries?invoice_id=${own.body.invoice.id}&status=delivered&wait=10`,
    );
    expect(ok.body.deliveries).toHaveLength(1);
    sandbox.modules.identities.api.updateMerchant(merchant.id, {
      callback_url: `${server.url}/_sandbox/inbox/${merchant.id}`,
      callback_auth: 'https-only',
    });
    const loop = await call('POST', '/_sandbox/trigger', { event: 'invoice.created' });
    const failed = await call(
      'GET',
      `/_sandbox/deliveries?invoice_id=${loop.body.invoice.id}&wait=10`,
    );
    const d = await call('GET', `/_sandbox/deliveries/${failed.body.deliveries[0].id}`);
    expect(d.body.delivery.attempts[0]?.error ?? d.body.delivery.last_error).toMatch(
      /refused by --block-private-callbacks/,
    );
  });
});

describe('the example receiver checks Authorization as a merchant would', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('records valid, invalid and missing tokens (answering 200) and 404s an unknown merchant', async () => {
    t = createTestApp();
    const m = t.merchant;
    await t.request('PATCH', `/_sandbox/merchants/${m.id}`, { body: { callback_auth: 'always' } });
    const body = { event: { name: 'invoice.created', data: { id: 'x'.repeat(32) } } };
    const post = (headers: Record<string, string>) =>
      t.request('POST', `/_sandbox/inbox/${m.id}`, { body, headers });
    const valid = await post({
      authorization: `Token ${m.merchant_api_token}`,
      'x-sandbox-event-id': 'e1',
      'x-sandbox-delivery-attempt': '2',
    });
    expect(valid.status).toBe(200);
    expect(valid.body.entry).toMatchObject({
      authorization: 'valid',
      event_id: 'e1',
      delivery_attempt: 2,
      from_this_sandbox: false,
    });
    expect((await post({ authorization: 'Token nope' })).body.entry.authorization).toBe('invalid');
    expect((await post({})).body.entry.authorization).toBe('missing');
    expect((await t.request('POST', `/_sandbox/inbox/${'0'.repeat(32)}`, { body })).status).toBe(
      404,
    );
    expect(
      (
        await t.request('POST', `/_sandbox/inbox/${m.id}`, {
          raw: '{',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(400);
    const list = await t.request('GET', `/_sandbox/inbox?merchant_id=${m.id}&per_page=2`);
    expect(list.body.callbacks.map((e: { authorization: string }) => e.authorization)).toEqual([
      'missing',
      'invalid',
    ]);
    expect(list.body.meta).toEqual({ total_count: 3, next_page: 2, previous_page: null });
  });

  it("records a workspace merchant's callback at that workspace's time", async () => {
    t = createTestApp();
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const day = 86_400;
    const advanced = await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: day },
    });
    const body = { event: { name: 'invoice.created', data: { id: 'x'.repeat(32) } } };
    const got = await t.request('POST', `/_sandbox/inbox/${ws.merchant.id}`, { body });
    expect(got.status).toBe(200);
    const lag = Date.parse(got.body.entry.received_at) - Date.parse(advanced.body.now);
    expect(lag).toBeGreaterThanOrEqual(0);
    expect(lag).toBeLessThan(60_000); // the workspace's day ahead, not the sandbox's time
  });

  it('judges a missing token by the merchant mode and the URL', () => {
    const m = { callback_auth: 'https-only' as const, merchant_api_token: 'tok' };
    expect(judgeAuthorization(m, undefined, 'http://127.0.0.1:7070/_sandbox/inbox/x').verdict).toBe(
      'not_sent',
    );
    expect(judgeAuthorization(m, undefined, 'https://shop.example/cb').verdict).toBe('missing');
    expect(
      judgeAuthorization({ ...m, callback_auth: 'never' }, undefined, 'https://shop.example/cb')
        .verdict,
    ).toBe('not_sent');
    expect(judgeAuthorization(m, 'Bearer tok', 'http://x/').verdict).toBe('valid');
    expect(judgeAuthorization(m, 'Token tokk', 'http://x/').verdict).toBe('invalid');
  });
});

describe('merchant URLs on the sandbox itself', () => {
  let t: TestApp;
  afterEach(async () => t.close());

  it('a merchant can be pointed back at its example receiver and thank-you page with a PATCH', async () => {
    t = createTestApp();
    const id = t.fixtures.merchants[1]!.id;
    const res = await t.request('PATCH', `/_sandbox/merchants/${id}`, {
      body: {
        callback_url: `/_sandbox/inbox/${id}`,
        redirect_url: `/_sandbox/inbox/${id}/thank-you`,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.merchant).toMatchObject({
      callback_url: `/_sandbox/inbox/${id}`,
      redirect_url: `/_sandbox/inbox/${id}/thank-you`,
    });
  });

  it('the thank-you page shows what arrived with the redirect and the invoice as the merchant reads it', async () => {
    t = createTestApp();
    const m = t.merchant;
    const inv = await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.fully_paid' },
    });
    const id = inv.body.invoice.id as string;
    const page = await t.sandbox.app.request(
      `http://localhost/_sandbox/inbox/${m.id}/thank-you?invoice_id=${id}`,
    );
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'/);
    const text = await page.text();
    expect(text).toContain('Thank you for your payment');
    expect(text).toMatch(new RegExp(`<code>invoice_id</code></th><td><code>${id}</code>`));
    expect(text).toMatch(/data-testid="thank-you-status">fully_paid</);
    const other = await t.sandbox.app.request(
      `http://localhost/_sandbox/inbox/${m.id}/thank-you?invoice_id=${'0'.repeat(32)}`,
    );
    expect(await other.text()).toContain('No invoice of this merchant has this id.');
    expect(
      (await t.sandbox.app.request(`http://localhost/_sandbox/inbox/${'0'.repeat(32)}/thank-you`))
        .status,
    ).toBe(404);
  });
});

/**
 * A forwarder on a port of its own that passes every request on to `target` (a tunnel, a LAN address or
 * a hostname of the machine, as far as the sandbox can tell: a name of it that is not on its list).
 */
async function forwarder(target: string): Promise<string> {
  const proxy = createServer((req, res) => {
    const out = httpRequest(
      `${target}${req.url ?? '/'}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => proxy.close(resolve)));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

describe("the example receiver takes only its own workspace's callbacks", () => {
  it("refuses (403, not recorded) a callback of another workspace's merchant that reached it by a name the URL rule does not know", async () => {
    const { server, call } = await serve({ retrySchedule: [] });
    const a = (await call('POST', '/_sandbox/workspaces', {})).body.workspace;
    const b = (await call('POST', '/_sandbox/workspaces', {})).body.workspace;
    const via = await forwarder(server.url);
    // Another port of the machine: not this sandbox as far as the rule of merchant URLs can tell.
    const patched = await call('PATCH', `/_sandbox/merchants/${a.merchant.id}`, {
      callback_url: `${via}/_sandbox/inbox/${b.merchant.id}`,
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const res = await fetch(`${server.url}/v1/invoices/`, {
      method: 'POST',
      headers: {
        Authorization: `Token ${a.merchant.merchant_api_token}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ amount: 10, currency: 'PHP', external_transaction_id: 'cross-1' }),
    });
    expect(res.status).toBe(201);
    const invoice = ((await res.json()) as { invoice: { id: string } }).invoice;
    const attempt = await waitUntil('the callback attempt', async () => {
      const list = await call('GET', `/_sandbox/deliveries?invoice_id=${invoice.id}`);
      const id = list.body.deliveries[0]?.id as string | undefined;
      if (id === undefined) return undefined;
      const d = await call('GET', `/_sandbox/deliveries/${id}`);
      const { status, attempts } = d.body.delivery;
      return status === 'failed' || status === 'delivered' ? { status, ...attempts[0] } : undefined;
    });
    expect(attempt.status).toBe('failed');
    expect(attempt.status_code).toBe(403);
    expect(attempt.response_excerpt).toContain('callback_of_other_workspace');
    expect(
      (await call('GET', `/_sandbox/inbox?merchant_id=${b.merchant.id}`)).body.meta.total_count,
    ).toBe(0);
  });

  it("refuses a forged callback of another tenant's invoice, and keeps a plain test POST and its own workspace's", async () => {
    const { server, call, merchant, sandbox } = await serve();
    const ws = (await call('POST', '/_sandbox/workspaces', {})).body.workspace;
    const trig = await call('POST', '/_sandbox/trigger', { event: 'invoice.created' });
    const invoiceId = trig.body.invoice.id as string;
    const delivered = await call(
      'GET',
      `/_sandbox/deliveries?invoice_id=${invoiceId}&status=delivered&wait=10`,
    );
    const sent = delivered.body.deliveries[0] as { event_id: string; body: unknown };
    const body = JSON.stringify(sent.body);
    const post = (to: string, headers: Record<string, string>, text: string) =>
      fetch(`${server.url}/_sandbox/inbox/${to}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: text,
      });
    const before = (await call('GET', '/_sandbox/inbox')).body.meta.total_count;

    // The base data's callback, replayed at a workspace's receiver: refused, not recorded.
    const forged = await post(ws.merchant.id, { 'X-Sandbox-Event-Id': sent.event_id }, body);
    expect(forged.status).toBe(403);
    expect(await forged.json()).toEqual({
      error_codes: ['callback_of_other_workspace'],
      errors: {
        non_field_errors: [
          `This callback is of invoice ${invoiceId} of merchant ${merchant.id}, which is not of the workspace of merchant ${ws.merchant.id} (the base data counts as one): the example receiver takes only the callbacks of its own workspace's merchants. Not recorded.`,
        ],
      },
    });
    expect((await call('GET', '/_sandbox/inbox')).body.meta.total_count).toBe(before);

    // A user's own test POST (no event this sandbox sent), and the same callback at a receiver of its tenant.
    const own = await post(ws.merchant.id, {}, body);
    expect(own.status).toBe(200);
    const unknownEvent = await post(ws.merchant.id, { 'X-Sandbox-Event-Id': 'e-1' }, body);
    expect(unknownEvent.status).toBe(200);
    const sibling = sandbox.fixtures.merchants[1]?.id ?? '';
    const same = await post(sibling, { 'X-Sandbox-Event-Id': sent.event_id }, body);
    expect(same.status).toBe(200);
    expect(
      ((await same.json()) as { entry: { from_this_sandbox: boolean } }).entry.from_this_sandbox,
    ).toBe(true);
    expect((await call('GET', '/_sandbox/inbox')).body.meta.total_count).toBe(before + 3);
  });
});
