import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppConfig } from '../config.js';
import { listen, type RunningServer } from '../server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await t.close();
});

async function start(config: Partial<AppConfig> = {}) {
  t = createTestApp({ config: { port: 0, ...config } });
  server = await listen(t.sandbox);
}

/** A request over the socket with exactly these headers (Host included). */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server!.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => {
        let parsed: unknown = text;
        try {
          parsed = JSON.parse(text);
        } catch {
          // HTML (the dashboard)
        }
        resolve({ status: res.statusCode!, body: parsed });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const invoiceCount = () =>
  (t.db.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n;
async function oneInvoice() {
  const res = await t.request('POST', '/v1/invoices/', {
    token: t.merchant.merchant_api_token,
    body: { amount: 5, currency: 'PHP', external_transaction_id: 'guard' },
  });
  expect(res.status).toBe(201);
}

describe('control API Host check (DNS rebinding)', () => {
  it('refuses a foreign Host without a control token, on the API and the dashboard alike', async () => {
    await start();
    for (const host of [
      'evil.example',
      'evil.example:7070',
      '127.0.0.1.evil.example',
      '127.x.evil',
      'localhost.evil.example',
    ]) {
      for (const path of ['/_sandbox/apps', '/_sandbox/', '/_sandbox']) {
        const res = await send('GET', path, { host });
        expect(res.status, `${host} ${path}`).toBe(403);
        expect(res.body.error_codes).toEqual(['host_not_allowed']);
        expect(res.body.errors.non_field_errors[0]).toMatch(/--allowed-hosts/);
      }
    }
    await oneInvoice();
    expect((await send('POST', '/_sandbox/reset', { host: 'evil.example' })).status).toBe(403);
    expect(invoiceCount()).toBe(1);
  });

  it('answers loopback names, the public URL host and --allowed-hosts', async () => {
    await start({ publicUrl: 'http://sandbox.test:7070', allowedHosts: ['ci.internal'] });
    const port = server!.port;
    for (const host of [
      'localhost',
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      '127.9.9.9',
      `[::1]:${port}`,
      'sandbox.test:7070',
      'ci.internal',
    ]) {
      expect((await send('GET', '/_sandbox/apps', { host })).status, host).toBe(200);
    }
    expect((await send('GET', '/_sandbox/apps', { host: 'other.internal' })).status).toBe(403);
  });

  it('keeps each Host verdict, and decides again when the public URL changes', async () => {
    await start({ publicUrl: 'http://sandbox.test:7070' });
    const status = async (host: string) => (await send('GET', '/_sandbox/apps', { host })).status;
    // Asked twice: the kept verdict is the same as the first.
    expect([await status('sandbox.test'), await status('sandbox.test')]).toEqual([200, 200]);
    expect([await status('moved.test'), await status('moved.test')]).toEqual([403, 403]);
    // `start` sets the public URL once the port is known: a verdict of the old URL does not stick.
    t.sandbox.config.publicUrl = 'http://moved.test:7070';
    expect(await status('moved.test')).toBe(200);
    expect(await status('sandbox.test')).toBe(403);
    // Many distinct refused hosts (a client may send any Host): each still refused, the first too.
    for (let i = 0; i < 100; i++) expect(await status(`h${i}.test`)).toBe(403);
    expect(await status('moved.test')).toBe(200);
  });

  it('lets any Host through with `*`, or when a control token is required (the token is the defence)', async () => {
    await start({ allowedHosts: ['*'] });
    expect((await send('GET', '/_sandbox/apps', { host: 'anything.example' })).status).toBe(200);
    await server!.stop();
    await t.close();
    await start({ controlToken: 'secret-token' });
    expect((await send('GET', '/_sandbox/apps', { host: 'anything.example' })).status).toBe(401);
    expect(
      (
        await send('GET', '/_sandbox/apps', {
          host: 'anything.example',
          'x-sandbox-token': 'secret-token',
        })
      ).status,
    ).toBe(200);
  });

  it('leaves the public API alone: only /_sandbox is guarded', async () => {
    await start();
    const res = await send('GET', '/v3/invoices/', {
      host: 'api.example',
      authorization: `Token ${t.merchant.merchant_api_token}`,
    });
    expect(res.status).toBe(200);
  });
});

describe('control API cross-site writes (CSRF)', () => {
  it('refuses a foreign or null Origin, and changes nothing', async () => {
    t = createTestApp();
    await oneInvoice();
    for (const origin of [
      'http://evil.example',
      'https://evil.example',
      'null',
      'http://localhost.evil.example',
      'not a url',
      'https://localhost', // this host over another scheme: another origin
    ]) {
      const res = await t.request('POST', '/_sandbox/reset', {
        headers: { origin },
        operationId: false,
      });
      expect(res.status, origin).toBe(403);
      expect(res.body.error_codes).toEqual(['origin_not_allowed']);
      const read = await t.request('GET', '/_sandbox/apps', {
        headers: { origin },
        operationId: false,
      });
      expect(read.status, origin).toBe(403);
    }
    expect(invoiceCount()).toBe(1);
    // The sandbox's own origin (the dashboard) is welcome.
    expect(
      (
        await t.request('POST', '/_sandbox/clock/advance', {
          headers: { origin: 'http://localhost' },
          body: { seconds: 1 },
        })
      ).status,
    ).toBe(200);
  });

  it('requires application/json on writes: text/plain, form and multipart bodies are refused', async () => {
    t = createTestApp();
    await oneInvoice();
    for (const type of [
      'text/plain',
      'text/plain;charset=UTF-8',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const reset = await t.request('POST', '/_sandbox/reset', {
        raw: '{}',
        headers: { 'content-type': type },
        operationId: false,
      });
      expect(reset.status, type).toBe(403);
      expect(reset.body.error_codes).toEqual(['json_required']);
      const advance = await t.request('POST', '/_sandbox/clock/advance', {
        raw: '{"seconds": 5}',
        headers: { 'content-type': type },
        operationId: false,
      });
      expect(advance.status, type).toBe(403);
      const del = await t.request('DELETE', '/_sandbox/faults', {
        headers: { 'content-type': type },
        operationId: false,
      });
      expect(del.status, type).toBe(403);
    }
    expect(invoiceCount()).toBe(1);
    expect((await t.request('GET', '/_sandbox/clock')).body.offset_seconds).toBe(0);
    // JSON (charset allowed), or no body and no Content-Type, go through.
    expect(
      (
        await t.request('POST', '/_sandbox/clock/advance', {
          raw: '{"seconds": 5}',
          headers: { 'content-type': 'application/json; charset=utf-8' },
        })
      ).status,
    ).toBe(200);
    expect((await t.request('POST', '/_sandbox/clock/reset')).status).toBe(200);
  });

  it('refuses a bodiless cross-site POST by its Origin, over a real socket', async () => {
    await start();
    await oneInvoice();
    const res = await send('POST', '/_sandbox/reset', {
      host: `127.0.0.1:${server!.port}`,
      origin: 'http://evil.example',
    });
    expect(res.status).toBe(403);
    expect(res.body.error_codes).toEqual(['origin_not_allowed']);
    expect(invoiceCount()).toBe(1);
  });
});
