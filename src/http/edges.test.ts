import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { errorCode, merchantError } from '../testing/error-code.js';

let t: TestApp;
appPerTest((app) => (t = app));

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
