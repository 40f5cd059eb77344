import { request as httpRequest } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signRequest } from '../auth/hmac.js';
import { listen, type RunningServer } from '../server.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode, merchantError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const invoice = (ext: string) => ({ amount: 20, currency: 'PHP', external_transaction_id: ext });
const count = () => (t.db.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n;

describe('paths', () => {
  it('answers with and without a trailing slash', async () => {
    const tok = t.merchant.merchant_api_token;
    expect(
      (await t.request('POST', '/v1/invoices', { token: tok, body: invoice('a') })).status,
    ).toBe(201);
    expect(
      (await t.request('POST', '/v1/invoices/', { token: tok, body: invoice('b') })).status,
    ).toBe(201);
    expect((await t.request('GET', '/v3/invoices', { token: tok })).body.meta.total_count).toBe(2);
  });

  it('serves the legacy /api/v3, /api/v2 and /d/api prefixes as aliases', async () => {
    const tok = t.merchant.merchant_api_token;
    const created = await t.request('POST', '/d/api/invoices/', {
      token: tok,
      body: invoice('legacy'),
    });
    expect(created.status).toBe(201);
    const id = created.body.invoice.id;
    expect(
      (await t.request('GET', `/api/v3/invoices/${id}/`, { token: tok })).body.invoice.id,
    ).toBe(id);
    expect((await t.request('GET', `/d/api/invoices/${id}`, { token: tok })).body.invoice.id).toBe(
      id,
    );
    expect(
      (await t.request('GET', '/api/v3/invoices/', { token: tok })).body.meta.total_count,
    ).toBe(1);
    expect((await t.signed('GET', '/api/v3/crypto-accounts/')).status).toBe(200);
    expect((await t.signed('GET', '/d/api/crypto-accounts/')).status).toBe(200);
  });

  it('answers an unknown path with the 404 envelope', async () => {
    // The real `Not found.` body (the merchant API's, `error_codes` empty) on every unknown path but
    // the control API's, which keeps its code.
    const notFound = { non_field_errors: ['Not found.'] };
    for (const [path, body] of [
      ['/nope', merchantError('not_found', notFound)],
      ['/v9/invoices/', merchantError('not_found', notFound)],
      ['/v1/invoices/a/b/c', merchantError('not_found', notFound)],
      ['/api/v3/nope', merchantError('not_found', notFound)],
      ['/d/api/nope/', merchantError('not_found', notFound)],
      ['/_sandbox/nope', { error_codes: ['not_found'], errors: notFound }],
    ] as const) {
      const res = await t.request('GET', path, { operationId: false });
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body, path).toEqual(body);
    }
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const res = await t.request('DELETE', '/v1/invoices/', { operationId: false });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect(res.body).toEqual({
      error_codes: ['method_not_allowed'],
      errors: { non_field_errors: ['Method "DELETE" not allowed.'] },
    });
    const v3 = await t.request('PUT', '/v3/invoices', { operationId: false });
    expect(v3.status).toBe(405);
    expect(v3.headers.get('allow')!.split(', ').sort()).toEqual(['GET', 'HEAD', 'POST']);
  });
});

describe('bodies', () => {
  it('answers malformed JSON with 400 and changes nothing', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      raw: '{"amount": 20,',
    });
    expect(res.status).toBe(400);
    expect(res.body.error_codes).toEqual(['malformed_json']);
    expect(res.body.errors.non_field_errors[0]).toMatch(/^JSON parse error - /);
    expect(count()).toBe(0);
  });

  it('answers a JSON body that is not an object with a clear 400', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      raw: '[1,2]',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.non_field_errors).toEqual([
      'Invalid data. Expected a dictionary, but got list.',
    ]);
  });

  it('answers an empty body on a create with 400', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      raw: '',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.non_field_errors).toEqual(['No data provided.']);
  });

  it('refuses a body over 64 KiB with a Content-Length (413) and changes nothing', async () => {
    const big = JSON.stringify({
      ...invoice('big'),
      description: 'x',
      metadata: { pad: 'y'.repeat(70 * 1024) },
    });
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      raw: big,
      headers: { 'content-length': String(big.length) },
      operationId: false,
    });
    expect(res.status).toBe(413);
    expect(errorCode(res.body)).toBe('payload_too_large');
    expect(count()).toBe(0);
  });

  describe('over a real socket', () => {
    let server: RunningServer;
    beforeEach(async () => {
      t.sandbox.config.port = 0;
      server = await listen(t.sandbox);
    });
    afterEach(() => server.stop());

    function chunked(chunks: string[]): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          `${server.url}/v1/invoices/`,
          {
            method: 'POST',
            headers: {
              authorization: `Token ${t.merchant.merchant_api_token}`,
              'content-type': 'application/json',
              'transfer-encoding': 'chunked',
            },
          },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        for (const c of chunks) req.write(c);
        req.end();
      });
    }

    it('refuses a chunked body over 64 KiB (no Content-Length) with 413', async () => {
      const pad = 'z'.repeat(8 * 1024);
      const chunks = [
        '{"amount":20,"currency":"PHP","external_transaction_id":"chunked","description":"',
        ...Array(10).fill(pad),
        '"}',
      ];
      const res = await chunked(chunks);
      expect(res.status).toBe(413);
      expect(errorCode(JSON.parse(res.body))).toBe('payload_too_large');
      expect(count()).toBe(0);
    });

    /** A signed GET over the socket: the message uses `signedUrl`, the request goes to the server. */
    function signedGet(
      path: string,
      signedUrl: string,
      headers: Record<string, string> = {},
    ): Promise<{ status: number; body: string }> {
      const app = t.fixtures.developers[0]!.app;
      const nonce = String(Date.now() * 1000);
      return new Promise((resolve, reject) => {
        const req = httpRequest(
          `${server.url}${path}`,
          {
            headers: {
              ACCESS_KEY: app.api_key,
              ACCESS_NONCE: nonce,
              ACCESS_SIGNATURE: signRequest(app.api_secret, nonce, signedUrl, ''),
              ...headers,
            },
          },
          (res) => {
            let body = '';
            res.on('data', (d) => (body += d));
            res.on('end', () => resolve({ status: res.statusCode!, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    }

    it('checks a signature against the URL as sent on the wire: host, port, path and raw query', async () => {
      const path = '/v3/crypto-accounts/?per_page=5&page=1';
      expect((await signedGet(path, `${server.url}${path}`)).status).toBe(200);
      // The same request signed over another spelling of the URL does not match.
      for (const other of [
        `${server.url}/v3/crypto-accounts/`,
        `${server.url}/v3/crypto-accounts?per_page=5&page=1`,
        `https://${server.url.slice(7)}${path}`,
      ]) {
        const res = await signedGet(path, other);
        expect(res.status, other).toBe(401);
        expect(errorCode(JSON.parse(res.body))).toBe('invalid_signature');
      }
    });

    it('signs a GET that carries a body over that body, as public clients send one (`"order"`)', async () => {
      const app = t.fixtures.developers[0]!.app;
      let nonce = BigInt(Date.now()) * 1000n;
      const getWithBody = (
        path: string,
        body: string,
        signedBody: string,
        extra: Record<string, string> = {},
      ) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const n = String(++nonce);
          const req = httpRequest(
            `${server.url}${path}`,
            {
              method: 'GET',
              headers: {
                ACCESS_KEY: app.api_key,
                ACCESS_NONCE: n,
                ACCESS_SIGNATURE: signRequest(
                  app.api_secret,
                  n,
                  `${server.url}${path}`,
                  signedBody,
                ),
                'content-type': 'application/json',
                ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
                ...extra,
              },
            },
            (res) => {
              let text = '';
              res.on('data', (d) => (text += d));
              res.on('end', () => resolve({ status: res.statusCode!, body: text }));
            },
          );
          req.on('error', reject);
          req.end(body);
        });
      const list = await getWithBody('/api/v2/sellorder/?limit=2', '"order"', '"order"');
      expect(list.status).toBe(200);
      expect(JSON.parse(list.body).orders).toHaveLength(2);
      // Signed without the body it carries: the bytes on the wire decide.
      const unsigned = await getWithBody('/api/v2/sellorder/', '"order"', '');
      expect(unsigned.status).toBe(401);
      expect(errorCode(JSON.parse(unsigned.body))).toBe('invalid_signature');
      // No body: signed over nothing, as before.
      expect((await getWithBody('/v3/crypto-accounts/', '', '')).status).toBe(200);
      const huge = await getWithBody(
        '/v3/crypto-accounts/',
        'x'.repeat(70_000),
        'x'.repeat(70_000),
      );
      expect(huge.status).toBe(413);
    });

    it('takes scheme and host from X-Forwarded-* over the socket only with trust-proxy', async () => {
      const path = '/v3/crypto-accounts/';
      const fwd = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'api.example.ph' };
      expect((await signedGet(path, `https://api.example.ph${path}`, fwd)).status).toBe(401);
      t.sandbox.config.trustProxy = true;
      expect((await signedGet(path, `https://api.example.ph${path}`, fwd)).status).toBe(200);
    });

    it('reads a body with a Content-Length straight from the socket, byte for byte', async () => {
      const post = (raw: string) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const req = httpRequest(
            `${server.url}/v1/invoices/`,
            {
              method: 'POST',
              headers: {
                authorization: `Token ${t.merchant.merchant_api_token}`,
                'content-type': 'application/json',
                'content-length': Buffer.byteLength(raw),
              },
            },
            (res) => {
              let body = '';
              res.on('data', (d) => (body += d));
              res.on('end', () => resolve({ status: res.statusCode!, body }));
            },
          );
          req.on('error', reject);
          // Sent in pieces, so the body spans several reads of the socket.
          const bytes = Buffer.from(raw);
          req.write(bytes.subarray(0, 7));
          setTimeout(() => req.end(bytes.subarray(7)), 20);
        });
      const description = 'Kape at pandesal — ₱ 20 ✓';
      const created = await post(
        JSON.stringify({
          amount: 20,
          currency: 'PHP',
          external_transaction_id: 'socket-body',
          description,
        }),
      );
      expect(created.status).toBe(201);
      expect(JSON.parse(created.body).invoice.description).toBe(description);
      const bad = await post('{"amount": 20,');
      expect(bad.status).toBe(400);
      expect(errorCode(JSON.parse(bad.body))).toBe('malformed_json');
      expect(count()).toBe(1);
    });

    it('accepts a small chunked body', async () => {
      const res = await chunked([
        '{"amount":20,"currency":"PHP",',
        '"external_transaction_id":"small-chunked"}',
      ]);
      expect(res.status).toBe(201);
    });
  });
});

describe('around the API', () => {
  it('serves /healthz, the document and the reference page from local assets', async () => {
    expect((await t.request('GET', '/healthz')).body.status).toBe('ok');
    const json = await t.request('GET', '/openapi.json', { operationId: false });
    expect(json.body.openapi).toBe('3.1.0');
    const yaml = await t.request('GET', '/openapi.yaml', { operationId: false });
    expect(yaml.text).toMatch(/^openapi: 3\.1\.0/);
    const docs = await t.request('GET', '/docs', { operationId: false });
    expect(docs.status).toBe(200);
    expect(docs.text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|localhost)[^"']*\.(js|css)/);
    for (const asset of docs.text.match(/\/docs\/assets\/[\w.-]+/g) ?? []) {
      const res = await t.request('GET', asset, { operationId: false });
      expect(res.status, asset).toBe(200);
      expect(res.text.length).toBeGreaterThan(1000);
    }
  });
});
