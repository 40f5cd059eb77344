import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode } from '../testing/error-code.js';
import { listenPerTest, overSocket, type SocketAnswer } from '../testing/socket.test-support.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

// Names every plain object inherits: a lookup `table[name]` finds them unless it checks own properties.
const INHERITED = [
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
  'isPrototypeOf',
];

describe('request values that name inherited members', () => {
  it('answers 404 for /docs/assets/<inherited name>, and still serves the real assets', async () => {
    for (const name of INHERITED) {
      const res = await t.request('GET', `/docs/assets/${name}`, { operationId: false });
      expect(res.status, name).toBe(404);
    }
    expect(
      (await t.request('GET', '/docs/assets/swagger-ui.css', { operationId: false })).status,
    ).toBe(200);
  });

  it('never answers 5xx when an id, key, event or collector is an inherited name', async () => {
    const tok = t.merchant.merchant_api_token;
    const created = await t.request('POST', '/v1/invoices/', {
      token: tok,
      body: { amount: 20, currency: 'PHP', external_transaction_id: 'inh' },
    });
    const inv = created.body.invoice.id as string;
    for (const name of INHERITED) {
      const calls: Array<[string, string, Record<string, unknown>?]> = [
        ['GET', `/v1/invoices/${name}`],
        ['GET', `/_sandbox/apps/${name}/otp`],
        ['GET', `/payment/invoice/${name}`],
        ['GET', `/payment/invoice/${name}/status`],
        ['POST', `/_sandbox/invoices/${name}/expire`],
        ['POST', '/_sandbox/trigger', { event: name }],
        ['POST', `/_sandbox/invoices/${inv}/payments`, { collector: name }],
        ['GET', `/${name}`],
      ];
      for (const [method, path, body] of calls) {
        const res = await t.request(method, path, { token: tok, body, operationId: false });
        expect(res.status, `${method} ${path} ${JSON.stringify(body)}`).toBeLessThan(500);
      }
      const signed = await t.signed('GET', `/v3/transfers/${name}`, { operationId: false });
      expect(signed.status, name).toBeLessThan(500);
    }
  });
});

describe('dot segments over a real socket', () => {
  let server: RunningServer;
  listenPerTest(
    () => t,
    (s) => (server = s),
  );

  /** A request with the target exactly as given (Node's client does not normalize it). */
  function raw(path: string): Promise<SocketAnswer> {
    return overSocket(`${server.url}/`, {
      path,
      headers: { authorization: `Token ${t.merchant.merchant_api_token}` },
    });
  }

  it('never lets %2e%2e (any case) climb a segment: the route does not change', async () => {
    // `/v3/invoices/x/%2e%2e/` would become the invoice list `/v3/invoices/` if it were read as `..`.
    expect((await raw('/v3/invoices/')).status).toBe(200);
    for (const dots of ['%2e%2e', '%2E%2E', '%2e.', '.%2E', '%2e', '..', '.']) {
      const res = await raw(`/v3/invoices/x/${dots}/`);
      expect(res.status, dots).toBe(404);
      expect(errorCode(JSON.parse(res.body)), dots).toBe('not_found');
    }
    // `/_sandbox/%2e%2e/healthz` must not become `/healthz` either.
    expect((await raw('/_sandbox/%2E%2e/healthz')).status).toBe(404);
  });

  it('still serves paths whose segments merely contain dots or an encoded dot', async () => {
    expect((await raw('/openapi.json')).status).toBe(200);
    expect((await raw('/docs/assets/swagger-ui%2ecss')).status).toBe(200);
  });
});

describe('loopback listen check', () => {
  it('treats --host 127.x.evil as the name it is: no listen without a control token', async () => {
    const evil = createTestApp({ config: { host: '127.x.evil', port: 0 } });
    try {
      await expect(listen(evil.sandbox)).rejects.toThrow(
        /Refusing to listen on 127\.x\.evil without a control token/,
      );
    } finally {
      await evil.close();
    }
  });
});
