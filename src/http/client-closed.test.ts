import { connect } from 'node:net';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { createServerLog } from '../cli/server-log.js';
import { listen, type RunningServer } from '../server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

// A client that sends its headers and part of its body, then closes the connection, is logged as what
// it is (499, the client closed), never as a 500 with a stack trace.
let t: TestApp;
let server: RunningServer;
beforeEach(async () => {
  t = createTestApp({ config: { host: '127.0.0.1', port: 0 } });
  server = await listen(t.sandbox);
});
afterEach(async () => {
  await server.stop();
  t.close();
  vi.restoreAllMocks();
});

/** Send the request line, headers and part of the body, then destroy the socket. */
function sendPartly(path: string, headers: string, partial: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${headers}\r\n${partial}`,
        () => {
          // Give the server the time to start reading the body before the connection goes.
          setImmediate(() => {
            socket.destroy();
            resolve();
          });
        },
      );
    });
    socket.once('error', reject);
  });
}

async function loggedCount(n: number) {
  for (let i = 0; i < 200 && t.sandbox.requestLog.latestId() < n; i++)
    await new Promise((r) => setTimeout(r, 10));
  return t.sandbox.requestLog.page(n, 0).items;
}

it('logs a request whose client closed mid-body as 499, with no stack trace, on the API, the control API and the hosted page', async () => {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
  const lines: string[] = [];
  const log = createServerLog({
    format: 'text',
    color: false,
    write: (l) => lines.push(l),
    nowMs: () => 0,
  });
  const invoice = await t.request('POST', '/v1/invoices/', {
    token: t.merchant.merchant_api_token,
    body: { amount: 5, currency: 'PHP', external_transaction_id: 'x1' },
  });
  t.sandbox.requestLog.setTap(log.request);
  const json = 'Content-Type: application/json\r\n';
  await sendPartly(
    '/v1/invoices/',
    `Authorization: Token ${t.merchant.merchant_api_token}\r\n${json}Content-Length: 100\r\n`,
    '{"amount": 1',
  );
  await sendPartly('/_sandbox/workspaces', `${json}Content-Length: 100\r\n`, '{"ttl_');
  await sendPartly(
    '/v1/invoices/',
    `Authorization: Token ${t.merchant.merchant_api_token}\r\n${json}Transfer-Encoding: chunked\r\n`,
    '5\r\n{"amo\r\n',
  );
  const form = 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n';
  await sendPartly(`/payment/invoice/${invoice.body.invoice.id}/wallet/login`, form, 'login=a');
  const entries = await loggedCount(5);
  expect(entries.slice(0, 4).map((e) => [e.method, e.path, e.status])).toEqual([
    ['POST', `/payment/invoice/${invoice.body.invoice.id}/wallet/login`, 499],
    ['POST', '/v1/invoices/', 499],
    ['POST', '/_sandbox/workspaces', 499],
    ['POST', '/v1/invoices/', 499],
  ]);
  expect(errors).not.toHaveBeenCalled();
  expect(lines).toHaveLength(4);
  for (const line of lines) expect(line).toMatch(/ 499 aborted \(client closed\) /);
  // Nothing was written by the requests that never arrived whole.
  expect(t.db.prepare('SELECT COUNT(*) FROM workspaces').pluck().get()).toBe(0);
  expect(t.db.prepare('SELECT COUNT(*) FROM invoices WHERE amount = 100000000').pluck().get()).toBe(
    0,
  );
  // The log over HTTP says the same.
  const res = await fetch(`${server.url}/_sandbox/requests?per_page=10`);
  const listed = ((await res.json()) as { requests: Array<{ status: number }> }).requests;
  expect(listed.filter((r) => r.status === 499)).toHaveLength(4);
  const dashboard = await (await fetch(`${server.url}/_sandbox/`)).text();
  expect(dashboard).toContain('499 <span class="muted">aborted (client closed)</span>');
});

it('logs a long poll whose client gave up as 499 (not the 200 nobody received), and a cut body as not checked', async () => {
  const aborted = new AbortController();
  const poll = fetch(`${server.url}/_sandbox/deliveries?invoice_id=${'0'.repeat(32)}&wait=1`, {
    signal: aborted.signal,
  }).catch((err: Error) => err.name);
  await new Promise((r) => setTimeout(r, 150));
  aborted.abort();
  expect(await poll).toBe('AbortError');
  const [entry] = await loggedCount(1);
  expect([entry?.path, entry?.status]).toEqual(['/_sandbox/deliveries', 499]);

  await sendPartly(
    '/v1/invoices/',
    `Authorization: Token ${t.merchant.merchant_api_token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n`,
    '{"amount": 1',
  );
  const [cut] = await loggedCount(2);
  // The token was never checked (the body never arrived): not `none`, which says none was sent.
  expect([cut?.status, cut?.auth]).toEqual([499, 'not checked']);
});
