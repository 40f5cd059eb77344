import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/test-app.js';

const t = createTestApp();
afterAll(() => t.close());

describe("one workspace's lists (a contract run sharing the sandbox walks its own)", () => {
  it("lists only that workspace's merchants, apps and customers with workspace_id, and one merchant's deliveries with merchant_id", async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    await t.request('POST', '/_sandbox/workspaces', { body: {} }); // another tenant, never listed below
    const merchants = await t.request('GET', `/_sandbox/merchants?workspace_id=${ws.id}`);
    expect(merchants.body.merchants.map((m: { id: string }) => m.id)).toEqual([ws.merchant.id]);
    expect(merchants.body.meta).toEqual({ total_count: 1, next_page: null, previous_page: null });
    const apps = await t.request('GET', `/_sandbox/apps?workspace_id=${ws.id}`);
    expect(apps.body.apps.map((a: { api_key: string }) => a.api_key)).toEqual([ws.app.api_key]);
    const customers = await t.request('GET', `/_sandbox/customers?workspace_id=${ws.id}`);
    expect(customers.body.customers.map((c: { id: string }) => c.id)).toEqual([ws.customer.id]);
    expect(
      (await t.request('GET', `/_sandbox/merchants?workspace_id=${'f'.repeat(32)}`)).body.meta
        .total_count,
    ).toBe(0);
    // Without the filter: every tenant, the fixtures first.
    expect((await t.request('GET', '/_sandbox/merchants')).body.meta.total_count).toBe(
      t.fixtures.merchants.length + 2,
    );

    await t.request('POST', '/v1/invoices/', {
      token: ws.merchant.merchant_api_token,
      body: { amount: 5, currency: 'PHP', external_transaction_id: 'ws-list' },
    });
    await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: { amount: 5, currency: 'PHP', external_transaction_id: 'base-list' },
    });
    const own = await t.request('GET', `/_sandbox/deliveries?merchant_id=${ws.merchant.id}`);
    expect(own.body.deliveries.map((d: { merchant_id: string }) => d.merchant_id)).toEqual([
      ws.merchant.id,
    ]);
    expect(own.body.meta.total_count).toBe(1);
  });
});
