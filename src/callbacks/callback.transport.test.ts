import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startMerchantReceiver } from '../../examples/merchant-callback/server.js';
import { createTestApp } from '../testing/test-app.js';
import {
  createHttpTransport,
  fetchTransport,
  type CallbackOutcome,
  type CallbackRequest,
  type CallbackTransport,
} from './callback.transport.js';
import { until } from './callbacks.test-support.js';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  vi.unstubAllGlobals();
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void,
): Promise<{ url: string; server: Server; connections: () => number }> {
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  );
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/cb`,
    server,
    connections: () => connections,
  };
}

const nowMs = () => performance.now();
const transports: Array<[string, (now: () => number) => CallbackTransport]> = [
  ['fetch', (now) => fetchTransport(() => fetch, now)],
  ['node:http', (now) => createHttpTransport({ nowMs: now })],
];

/** A clock that moves 12.5 ms at each reading: an attempt (two readings, start and end) takes exactly 12.5 ms. */
function steppingClock(): () => number {
  let ms = 1_000;
  return () => (ms += 12.5);
}

function request(url: string, body = '{"event":{"name":"invoice.created"}}'): CallbackRequest {
  return {
    url,
    headers: {
      'Content-Type': 'application/json',
      'User-Agent': 'paysandbox-callbacks/1',
      'X-Sandbox-Event-Id': 'e1',
      'X-Sandbox-Delivery-Attempt': '1',
    },
    body,
  };
}

/** The same outcome from both transports; each measures its attempt on the clock it was given. */
async function both(
  url: string,
  timeoutMs = 2_000,
  body?: string,
): Promise<Array<Omit<CallbackOutcome, 'durationMs'>>> {
  const out = [];
  for (const [, make] of transports) {
    const t = make(steppingClock());
    cleanups.push(() => t.close());
    const { durationMs, ...rest } = await t.send(request(url, body), timeoutMs);
    expect(durationMs).toBe(12.5);
    out.push(rest);
  }
  return out;
}

describe('node:http transport: the same outcomes as fetch', () => {
  it('sends the body bytes and headers as fetch does', async () => {
    const seen: Array<{
      headers: IncomingMessage['headers'];
      body: string;
      method?: string;
      url?: string;
    }> = [];
    const { url } = await serve((req, res, body) => {
      seen.push({ headers: req.headers, body, method: req.method, url: req.url });
      res.end('OK');
    });
    const body = '{"event":{"name":"invoice.created","data":{"note":"ünïcødé ✓"}}}';
    const [a, b] = await both(`${url}?x=1`, 2_000, body);
    expect(a).toEqual({ delivered: true, statusCode: 200, excerpt: 'OK', error: null });
    expect(b).toEqual(a);
    const [viaFetch, viaHttp] = seen;
    for (const s of [viaFetch!, viaHttp!]) {
      expect(s).toMatchObject({ method: 'POST', url: '/cb?x=1', body });
      expect(s.headers).toMatchObject({
        'content-type': 'application/json',
        'user-agent': 'paysandbox-callbacks/1',
        'x-sandbox-event-id': 'e1',
        'x-sandbox-delivery-attempt': '1',
        'content-length': String(Buffer.byteLength(body)),
        accept: '*/*',
      });
      expect(s.headers['transfer-encoding']).toBeUndefined();
    }
  });

  it('counts a redirect as a failure without following it, and non-2xx as failures', async () => {
    let hits = 0;
    const { url } = await serve((req, res) => {
      hits += 1;
      if (req.url === '/cb') res.writeHead(302, { location: '/elsewhere' }).end('moved');
      else res.writeHead(500).end('boom');
    });
    const [a, b] = await both(url);
    expect(a).toEqual({
      delivered: false,
      statusCode: 302,
      excerpt: 'moved',
      error: 'redirect 302 to /elsewhere not followed (redirects count as failures)',
    });
    expect(b).toEqual(a);
    expect(hits).toBe(2);
    const [c, d] = await both(url.replace('/cb', '/fail'));
    expect(c).toEqual({
      delivered: false,
      statusCode: 500,
      excerpt: 'boom',
      error: 'receiver answered 500',
    });
    expect(d).toEqual(c);
  });

  it('keeps a 2 KiB excerpt, decoded as fetch decodes (gzip inflated, BOM dropped)', async () => {
    const long = '\ufeff' + 'é'.repeat(3000);
    const { url } = await serve((req, res) => {
      if (req.url === '/gzip')
        res
          .writeHead(200, { 'content-encoding': 'gzip' })
          .end(gzipSync(Buffer.from('{"ok":true}')));
      else res.end(long);
    });
    const [a, b] = await both(url);
    expect(a!.excerpt).toBe(new TextDecoder().decode(Buffer.from(long).subarray(0, 2048)));
    expect(b).toEqual(a);
    const [c, d] = await both(url.replace('/cb', '/gzip'));
    expect(c).toMatchObject({ delivered: true, excerpt: '{"ok":true}' });
    expect(d).toEqual(c);
  });

  it('times out an answer that never comes, and keeps what came of a body that stalls', async () => {
    const { url } = await serve((req, res) => {
      if (req.url === '/stall') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('partial');
      } // else: never answer
    });
    const [a, b] = await both(url, 200);
    expect(a).toEqual({
      delivered: false,
      statusCode: null,
      excerpt: null,
      error: 'timeout: no answer within 200 ms',
    });
    expect(b).toEqual(a);
    const [c, d] = await both(url.replace('/cb', '/stall'), 200);
    expect(c).toEqual({ delivered: true, statusCode: 200, excerpt: 'partial', error: null });
    expect(d).toEqual(c);
  });

  it('words a refused connection as fetch does', async () => {
    const { url, server } = await serve(() => undefined);
    await new Promise<void>((r) => server.close(() => r()));
    const [a, b] = await both(url);
    expect(a!.error).toMatch(/^connection failed: connect ECONNREFUSED 127\.0\.0\.1:\d+$/);
    expect(b).toEqual(a);
  });

  it('reuses one keep-alive connection for callbacks sent one after another', async () => {
    const s = await serve((_req, res) => res.end('OK'));
    const t = createHttpTransport({ nowMs });
    cleanups.push(() => t.close());
    for (let i = 0; i < 20; i++) expect((await t.send(request(s.url), 2_000)).delivered).toBe(true);
    expect(s.connections()).toBe(1);
  });

  it('answers "aborted" for attempts in flight when closed', async () => {
    let arrived = false;
    const { url } = await serve(() => void (arrived = true));
    const t = createHttpTransport({ nowMs });
    const pending = t.send(request(url), 5_000);
    await until(() => arrived, Boolean, 'the request reached the server');
    t.close();
    expect((await pending).error).toBe('aborted: the sandbox stopped during this attempt');
  });
});

describe('the sandbox sends callbacks through node:http', () => {
  it('does not use the global fetch unless one was injected', async () => {
    const t = createTestApp({ config: { retrySchedule: [10] } });
    const receiver = await startMerchantReceiver({ token: t.merchant.merchant_api_token, port: 0 });
    cleanups.push(
      () => receiver.close(),
      () => t.close(),
    );
    const globalFetch = vi.fn(() => Promise.reject(new Error('the global fetch was used')));
    vi.stubGlobal('fetch', globalFetch);
    t.services.identities.updateMerchant(t.merchant.id, { callback_url: receiver.url });
    t.sandbox.startBackground();
    const merchant = t.services.identities.merchantById(t.merchant.id)!;
    const inv = t.services.invoices.create(merchant, {
      amount: '20',
      currency: 'PHP',
      external_transaction_id: 'via-http',
    });
    await until(
      () =>
        t.db.prepare('SELECT status FROM deliveries WHERE invoice_id = ?').get(inv.id) as {
          status: string;
        },
      (d) => d.status === 'delivered',
      'the delivery',
    );
    expect(globalFetch).not.toHaveBeenCalled();
    expect(receiver.received).toHaveLength(1);
  });
});

describe('callbacks and the group commit', () => {
  it('sends a callback only once its group commit is in, and none for a batch that failed', async () => {
    const t = createTestApp({ config: { retrySchedule: [10] } });
    const receiver = await startMerchantReceiver({ token: t.merchant.merchant_api_token, port: 0 });
    cleanups.push(
      () => receiver.close(),
      () => t.close(),
    );
    // A deferred foreign key fails only at COMMIT: a way to make one group commit fail on purpose.
    t.db.exec(`CREATE TABLE poison_parent (id TEXT PRIMARY KEY);
      CREATE TABLE poison_child (parent_id TEXT REFERENCES poison_parent(id) DEFERRABLE INITIALLY DEFERRED);`);
    t.services.identities.updateMerchant(t.merchant.id, { callback_url: receiver.url });
    t.sandbox.startBackground();
    const merchant = t.services.identities.merchantById(t.merchant.id)!;
    const create = (ext: string) =>
      t.services.invoices.create(merchant, {
        amount: '20',
        currency: 'PHP',
        external_transaction_id: ext,
      });
    await new Promise((r) => setImmediate(r));

    // The event, then a pump while its batch is still open: the delivery is claimed inside the batch.
    const lost = create('lost-with-its-batch');
    t.sandbox.tick();
    expect(
      (
        t.db.prepare('SELECT status FROM deliveries WHERE invoice_id = ?').get(lost.id) as {
          status: string;
        }
      ).status,
    ).toBe('delivering');
    t.services.unitOfWork(() =>
      t.db.prepare('INSERT INTO poison_child (parent_id) VALUES (?)').run('missing'),
    );
    await t.services.writeBatch.settled();
    expect(t.services.writeBatch.failedGeneration()).toBeGreaterThan(0);
    expect(t.services.invoiceRepo.byId(lost.id)).toBeUndefined();

    const kept = create('kept');
    await until(
      () =>
        t.db.prepare('SELECT status FROM deliveries WHERE invoice_id = ?').get(kept.id) as {
          status: string;
        },
      (d) => d.status === 'delivered',
      'the delivery',
    );
    // Nothing left in flight: the claim of the lost batch was dropped, so no request can still go out.
    await until(
      () => t.sandbox.modules.callbacks.api.inFlight(),
      (n) => n === 0,
      'nothing in flight',
    );
    const ids = receiver.received.map((r) => r.event?.event.data.id);
    expect(ids).toEqual([kept.id]);
  });
});
