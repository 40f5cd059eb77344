import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../config.js';
import { formatDecimal, parseAmount } from '../shared/money.js';
import { itemAt } from '../shared/defined.js';
import { liveSandboxes } from '../testing/live-sandbox.test-support.js';
import { waitUntil } from '../testing/wait.js';

/**
 * The example receiver as the sandbox's own dispatcher reaches it over HTTP: what it takes out of the
 * box, and what it refuses (another sandbox's, another workspace's). Its handling of one request
 * (Authorization verdicts, the thank-you page) is in inbox-handling.test.ts.
 */

const live = liveSandboxes('control-secret');

/** A real sandbox on its own port with its dispatcher running, on the fixtures as they ship. */
async function serve(config: Partial<AppConfig> = {}) {
  const { sandbox, server, request } = await live.serve(config);
  return { sandbox, server, call: request, merchant: itemAt(sandbox.fixtures.merchants, 0) };
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
    const first = itemAt(entries, 0);
    expect(first).toMatchObject({
      merchant_id: merchant.id,
      invoice_id: id,
      delivery_attempt: 1,
      authorization: 'not_sent', // https-only merchant, http URL: the real service sends no token
      from_this_sandbox: true,
    });
    expect((first.headers as Record<string, string>)['x-sandbox-event-id']).toBe(first.event_id);
    // The invoice API pads the amount ("20.00000000"); the callback writes it unpadded ("20").
    expect(JSON.parse(first.body as string).event.data.amount_received).toBe(
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

  it('names the same absolute URL in every answer about a delivery: the POSTs that make one, its GET, the list', async () => {
    const { server, call, merchant } = await serve();
    const own = `http://127.0.0.1:${server.port}/_sandbox/inbox/${merchant.id}`;
    const trig = await call('POST', '/_sandbox/trigger', { event: 'invoice.fully_paid' });
    const id = trig.body.invoice.id as string;
    const fired = await call('POST', `/_sandbox/invoices/${id}/callbacks`, {
      event: 'invoice.created',
    });
    expect(fired.status).toBe(201);
    expect(fired.body.delivery.url).toBe(own);
    const again = await call('POST', `/_sandbox/deliveries/${fired.body.delivery.id}/redeliver`);
    expect(again.status).toBe(202);
    expect(again.body.delivery.url).toBe(own);
    for (const d of [fired.body.delivery, again.body.delivery]) {
      const read = await call('GET', `/_sandbox/deliveries/${d.id}`);
      expect(read.body.delivery.url).toBe(own);
    }
    const listed = await call('GET', `/_sandbox/deliveries?invoice_id=${id}`);
    expect(listed.body.deliveries.map((d: { url: string }) => d.url)).toEqual(
      listed.body.deliveries.map(() => own),
    );
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
  live.onCleanup(() => new Promise((resolve) => proxy.close(resolve)));
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
