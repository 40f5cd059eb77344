import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.js';
import { createSandbox, type Sandbox } from '../sandbox.js';
import { listen, type RunningServer } from '../server.js';
import { PaySandboxApiError } from './client.errors.js';
import type { ApiResponse } from './client.transport.js';
import { createMerchantClient } from './merchant.client.js';
import { merchantError } from '../testing/error-code.js';

let sandbox: Sandbox;
let server: RunningServer;
beforeAll(async () => {
  sandbox = createSandbox({
    db: openDatabase(':memory:'),
    config: { db: ':memory:', host: '127.0.0.1', port: 0, quiet: true },
  });
  server = await listen(sandbox);
  sandbox.config.publicUrl = server.url;
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
});

const ref = (label: string) => `client-${label}-${Math.random().toString(36).slice(2)}`;
const merchantOf = (i: number) => sandbox.fixtures.merchants[i]!;

describe('createMerchantClient', () => {
  it('creates and retrieves an invoice with Token on v1 and Bearer on v3, over real HTTP', async () => {
    const seen: ApiResponse[] = [];
    const v1 = createMerchantClient({
      baseUrl: server.url,
      token: merchantOf(0).merchant_api_token,
      onResponse: (r) => void seen.push(r),
    });
    const v3 = createMerchantClient({
      baseUrl: server.url,
      token: merchantOf(0).bearer_token!,
      scheme: 'Bearer',
      version: 'v3',
    });
    const created = await v1.createInvoice({
      amount: 20,
      currency: 'PHP',
      external_transaction_id: ref('a'),
      metadata: { order: 7 },
    });
    expect(created).toMatchObject({
      status: 'pending',
      amount: '20.00000000',
      amount_due: '20.00000000',
      metadata: { order: 7 },
    });
    expect(created.payment_url).toBe(`${server.url}/payment/invoice/${created.id}`);
    const again = await v3.getInvoice(created.id);
    expect(again.id).toBe(created.id);
    expect(seen.map((r) => [r.operationId, r.status, new URL(r.url).pathname])).toEqual([
      ['createInvoiceV1', 201, '/v1/invoices/'],
    ]);
    expect(seen[0]!.request.headers.authorization).toBe(
      `Token ${merchantOf(0).merchant_api_token}`,
    );
  });

  it('throws PaySandboxApiError with the status and the envelope', async () => {
    const client = createMerchantClient({
      baseUrl: server.url,
      token: merchantOf(0).merchant_api_token,
    });
    const missing = await client.getInvoice('0'.repeat(32)).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PaySandboxApiError);
    const err = missing as PaySandboxApiError;
    expect(err.status).toBe(404);
    expect(err.codes).toEqual(['not_found']);
    expect(err.message).toMatch(/^GET \/v1\/invoices\/0{32} → 404 \[not_found\]/);

    const id = ref('dup');
    await client.createInvoice({ amount: 5, currency: 'PHP', external_transaction_id: id });
    const dup = (await client
      .createInvoice({ amount: 5, currency: 'PHP', external_transaction_id: id })
      .catch((e: unknown) => e)) as PaySandboxApiError;
    expect(dup.status).toBe(400);
    expect(dup.hasCode('duplicate_external_transaction_id')).toBe(true);
    expect(Object.keys(dup.fieldErrors)).toEqual(['external_transaction_id']);

    const bad = createMerchantClient({ baseUrl: server.url, token: 'nope' });
    const unauth = (await bad.listInvoices().catch((e: unknown) => e)) as PaySandboxApiError;
    expect([unauth.status, unauth.envelope]).toEqual([
      401,
      merchantError('invalid_token', { non_field_errors: ['Invalid token.'] }),
    ]);
    expect(unauth.codes).toEqual(['invalid_token']);
  });

  it('iterates every invoice across pages, newest first, without gaps or duplicates', async () => {
    const client = createMerchantClient({
      baseUrl: server.url,
      token: merchantOf(1).merchant_api_token,
    });
    const made: string[] = [];
    for (let i = 0; i < 17; i++)
      made.push(
        (
          await client.createInvoice({
            amount: 1 + i,
            currency: 'PHP',
            external_transaction_id: ref(`p${i}`),
          })
        ).id,
      );
    const pages: number[] = [];
    const onResponse = (r: ApiResponse) =>
      void pages.push(Number(new URL(r.url).searchParams.get('page')));
    const paging = createMerchantClient({
      baseUrl: server.url,
      token: merchantOf(1).merchant_api_token,
      onResponse,
    });
    const ids: string[] = [];
    for await (const inv of paging.iterateInvoices({ per_page: 5 })) ids.push(inv.id);
    expect(pages).toEqual([1, 2, 3, 4]);
    expect(ids).toEqual([...made].reverse());
  });

  it('passes list filters as query parameters', async () => {
    const client = createMerchantClient({
      baseUrl: server.url,
      token: merchantOf(0).merchant_api_token,
    });
    const ext = ref('filter');
    const inv = await client.createInvoice({
      amount: 3,
      currency: 'PHP',
      external_transaction_id: ext,
    });
    const page = await client.listInvoices({ external_transaction_id: ext, status: 'pending' });
    expect(page.invoices.map((i) => i.id)).toEqual([inv.id]);
    expect(page.meta).toEqual({ total_count: 1, next_page: null, previous_page: null });
  });
});
