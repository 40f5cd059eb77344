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

describe('merchants, apps and customers made inside a workspace (workspace_id on the control creates)', () => {
  it('are listed with it, never in the base data, run on its clock and go with it', async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: 86_400 },
    });
    const base = async () =>
      Promise.all(
        ['merchants', 'apps', 'customers'].map(
          async (kind) =>
            (await t.request('GET', `/_sandbox/${kind}?per_page=1`)).body.meta.total_count -
            (await t.request('GET', `/_sandbox/${kind}?per_page=1&workspace_id=${ws.id}`)).body.meta
              .total_count,
        ),
      );
    const before = await base();
    const body = { workspace_id: ws.id };
    const merchant = await t.request('POST', '/_sandbox/merchants', { body });
    const app = await t.request('POST', '/_sandbox/apps', { body });
    const customer = await t.request('POST', '/_sandbox/customers', { body });
    expect([merchant.status, app.status, customer.status]).toEqual([201, 201, 201]);
    expect(await base()).toEqual(before);
    const listed = await t.request('GET', `/_sandbox/apps?workspace_id=${ws.id}`);
    expect(listed.body.apps.map((a: { api_key: string }) => a.api_key)).toContain(
      app.body.app.api_key,
    );
    // Its invoices are made on the workspace's clock, a day ahead.
    const inv = await t.request('POST', '/v1/invoices/', {
      token: merchant.body.merchant.merchant_api_token,
      body: { amount: 5, currency: 'PHP', external_transaction_id: 'ws-made' },
    });
    expect(Date.parse(inv.body.invoice.created_at) - Date.now()).toBeGreaterThan(86_000_000);
    // Deleted with its workspace; a create in a deleted or unknown workspace is 400 on the field.
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    const gone = await t.request('GET', '/v3/invoices/', {
      token: merchant.body.merchant.merchant_api_token,
    });
    expect(gone.status).toBe(401);
    for (const id of [ws.id, 'f'.repeat(32)]) {
      for (const kind of ['merchants', 'apps', 'customers']) {
        const res = await t.request('POST', `/_sandbox/${kind}`, { body: { workspace_id: id } });
        expect(res.status, `${kind} ${id}`).toBe(400);
        expect(Object.keys(res.body.errors), kind).toEqual(['workspace_id']);
      }
    }
  });
});
