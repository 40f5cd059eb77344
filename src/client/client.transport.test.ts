import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildUrl, createTransport, retryAfterMs, unwrap } from './client.transport.js';
import { PaySandboxApiError } from './client.errors.js';

let server: Server;
let base: string;
const hits: Record<string, number> = {};
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits[path] = (hits[path] ?? 0) + 1;
    if (path === '/busy' && hits[path]! < 3) {
      res
        .writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' })
        .end('{"error_codes":[],"errors":{"non_field_errors":["Slow down."]}}');
    } else if (path === '/down') {
      res.writeHead(503, { 'retry-after': '3600' }).end('maintenance');
    } else {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ ok: true, hit: hits[path] }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
// Each test starts from no hits, so none depends on which tests ran before it (or on a retry of itself).
beforeEach(() => {
  for (const path of Object.keys(hits)) delete hits[path];
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createTransport', () => {
  it('honours Retry-After on 429 and signs every attempt anew', async () => {
    let signed = 0;
    const t = createTransport({ baseUrl: base });
    const res = await t.send({ method: 'GET', path: '/busy' }, () => ({
      'x-attempt': String(++signed),
    }));
    expect([res.status, res.attempts, signed]).toEqual([200, 3, 3]);
    expect(res.body).toEqual({ ok: true, hit: 3 });
  });

  it('gives up when Retry-After asks for longer than maxWaitMs, and unwrap throws the typed error', async () => {
    const seen: number[] = [];
    const t = createTransport({
      baseUrl: base,
      retry: { maxWaitMs: 1000 },
      onResponse: (r) => void seen.push(r.status),
    });
    const res = await t.send({ method: 'GET', path: '/down' });
    expect([res.status, res.attempts, res.body]).toEqual([503, 1, 'maintenance']);
    expect(seen).toEqual([503]);
    expect(() => unwrap(res)).toThrow(PaySandboxApiError);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  it('builds the URL that fetch sends (the one to sign)', () => {
    expect(
      buildUrl('http://h:7070/', '/v3/transfers', { page: 2, per_page: 20, skip: undefined }),
    ).toBe('http://h:7070/v3/transfers?page=2&per_page=20');
    expect(
      buildUrl('http://h:7070/api', 'v3/invoices/', { external_transaction_id: 'a b&c' }),
    ).toBe('http://h:7070/api/v3/invoices/?external_transaction_id=a+b%26c');
  });

  it('serializes the body once and sends those bytes', async () => {
    const t = createTransport({ baseUrl: base });
    let signedBody = '';
    const res = await t.send(
      { method: 'POST', path: '/echo', body: { a: 1, b: 'ü' } },
      (_url, body) => ((signedBody = body), {}),
    );
    expect(signedBody).toBe('{"a":1,"b":"ü"}');
    expect(res.request.body).toBe(signedBody);
    expect(res.request.headers['content-type']).toBe('application/json');
  });
});
