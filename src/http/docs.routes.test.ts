import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseYamlDocument, specPath } from '../spec/load.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { yamlWithServers } from './docs.routes.js';

let t: TestApp | undefined;
afterEach(() => {
  t?.close();
  t = undefined;
});

describe('the served document names the sandbox it comes from', () => {
  it('follows a public URL changed after start, and keeps everything else of the document', async () => {
    t = createTestApp();
    const before = await t.request('GET', '/openapi.json', { operationId: false });
    expect(before.body.servers).toEqual([
      { url: t.services.config.publicUrl, description: 'This sandbox' },
    ]);
    t.services.config.publicUrl = 'http://127.0.0.1:45678';
    const after = await t.request('GET', '/openapi.json', { operationId: false });
    expect(after.body.servers).toEqual([
      { url: 'http://127.0.0.1:45678', description: 'This sandbox' },
    ]);
    const { servers: _a, ...restBefore } = before.body as Record<string, unknown>;
    const { servers: _b, ...restAfter } = after.body as Record<string, unknown>;
    expect(restAfter).toEqual(restBefore);
    expect(Object.keys(restAfter.paths as object).length).toBeGreaterThan(50);
  });

  it('gives /docs fresh external_transaction_id examples on every load ("Try it out" twice creates two invoices)', async () => {
    t = createTestApp();
    const example = (body: { paths: Record<string, any> }) =>
      body.paths['/v1/invoices/'].post.requestBody.content['application/json'].example
        .external_transaction_id as string;
    const plain = await t.request('GET', '/openapi.json', { operationId: false });
    expect(example(plain.body)).toBe('order-1001');
    const one = await t.request('GET', '/openapi.json?examples=unique', { operationId: false });
    const two = await t.request('GET', '/openapi.json?examples=unique', { operationId: false });
    expect(example(one.body)).toMatch(/^order-1001-[0-9a-f]{8}$/);
    expect(example(two.body)).not.toBe(example(one.body));
    expect(one.headers.get('cache-control')).toBe('no-store');
    const created = [];
    for (const doc of [one.body, two.body]) {
      const body = doc.paths['/v1/invoices/'].post.requestBody.content['application/json'].example;
      created.push(
        (await t.request('POST', '/v1/invoices/', { token: t.merchant.merchant_api_token, body }))
          .status,
      );
    }
    expect(created).toEqual([201, 201]);
    const { paths: _p, ...restPlain } = plain.body as Record<string, unknown>;
    const { paths: _q, ...restOne } = one.body as Record<string, unknown>;
    expect(restOne).toEqual(restPlain);
  });

  it('replaces only the servers block of the YAML source', () => {
    const src =
      'openapi: 3.1.0\nservers:\n  - url: http://127.0.0.1:7070\n    description: Local sandbox\ntags: []\n';
    expect(yamlWithServers(src, 'http://[::1]:9')).toBe(
      'openapi: 3.1.0\nservers:\n  - url: "http://[::1]:9"\n    description: This sandbox\ntags: []\n',
    );
    expect(yamlWithServers('openapi: 3.1.0\n', 'http://x:1')).toBe(
      'openapi: 3.1.0\nservers:\n  - url: "http://x:1"\n    description: This sandbox\n',
    );
  });
});

describe('the hosted page the document describes (x-hosted-page)', () => {
  it('is served at that path: an HTML page for an invoice, a 404 page for an unknown id, no credential', async () => {
    t = createTestApp();
    const page = parseYamlDocument(readFileSync(specPath(), 'utf8'))['x-hosted-page'] as {
      path: string;
      method: string;
      security: unknown[];
    };
    expect(page).toMatchObject({
      path: '/payment/invoice/{invoice_id}',
      method: 'get',
      security: [],
    });
    const merchant = t.services.identities.merchantById(t.merchant.id)!;
    const inv = t.services.invoices.create(merchant, {
      amount: '20',
      currency: 'PHP',
      external_transaction_id: 'hosted-doc-1',
    });
    expect(inv.payment_url).toBe(
      `${t.services.config.publicUrl}${page.path.replace('{invoice_id}', inv.id)}`,
    );
    const ok = await t.sandbox.app.request(page.path.replace('{invoice_id}', inv.id));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/html/);
    const missing = await t.sandbox.app.request(page.path.replace('{invoice_id}', 'f'.repeat(32)));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^text\/html/);
  });
});
