import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { developerError, merchantError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

interface Workspace {
  id: string;
  expires_at: string;
  merchant: {
    id: string;
    merchant_api_token: string;
    bearer_token: string;
    wallet_account_id: string;
  };
  app: {
    api_key: string;
    api_secret: string;
    mfa_whitelisted: boolean;
    owner: { accounts: Array<{ id: string; balance: string }> };
  };
  customer: {
    id: string;
    email: string;
    password: string;
    accounts: Array<{ id: string; balance: string }>;
  };
}

async function workspace(body?: Record<string, unknown>): Promise<Workspace> {
  const res = await t.request('POST', '/_sandbox/workspaces', { body });
  expect(res.status).toBe(201);
  return res.body.workspace;
}
const INVALID_TOKEN = merchantError('invalid_token', { non_field_errors: ['Invalid token.'] });
const createInvoice = (token: string) =>
  t.request('POST', '/v1/invoices/', {
    token,
    body: { amount: 10, currency: 'PHP', external_transaction_id: 'same-ref' },
  });
const accounts = (ws: Workspace) =>
  t.signed('GET', '/v3/crypto-accounts/', { key: ws.app.api_key, secret: ws.app.api_secret });

describe('workspaces', () => {
  it('creates a merchant, a whitelisted HMAC app with a funded owner and a funded customer', async () => {
    const ws = await workspace();
    expect(ws.id).toMatch(/^[0-9a-f]{32}$/);
    const ttl = Date.parse(ws.expires_at) - Date.now();
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
    expect(ws.app.mfa_whitelisted).toBe(true);
    expect(ws.app.owner.accounts[0]!.balance).toBe('100000.00000000');
    expect(ws.customer.email).toBe(`ws-${ws.id}@customer.example.ph`);
    expect(ws.customer.accounts[0]!.balance).toBe('100000.00000000');
    expect((await createInvoice(ws.merchant.merchant_api_token)).status).toBe(201);
    expect((await accounts(ws)).status).toBe(200);
    const rows = t.db
      .prepare('SELECT COUNT(*) AS n FROM merchants WHERE workspace_id = ?')
      .get(ws.id) as { n: number };
    expect(rows.n).toBe(1);
    t.assertLedger();
  });

  it('keeps two workspaces apart: one never sees the other’s invoices', async () => {
    const a = await workspace();
    const b = await workspace();
    expect(a.merchant.merchant_api_token).not.toBe(b.merchant.merchant_api_token);
    const invA = await createInvoice(a.merchant.merchant_api_token);
    // The same external reference is free in the other workspace.
    const invB = await createInvoice(b.merchant.merchant_api_token);
    expect(invB.status).toBe(201);
    expect(
      (
        await t.request('GET', `/v1/invoices/${invA.body.invoice.id}`, {
          token: b.merchant.merchant_api_token,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.request('GET', `/v1/invoices/${invA.body.invoice.id}`, {
          token: a.merchant.merchant_api_token,
        })
      ).status,
    ).toBe(200);
    const listB = await t.request('GET', '/v3/invoices/', {
      headers: { authorization: `Bearer ${b.merchant.bearer_token}` },
    });
    expect(listB.body.invoices.map((i: { id: string }) => i.id)).toEqual([invB.body.invoice.id]);
  });

  it('a workspace invoice is paid by the workspace customer by default, crediting the workspace merchant', async () => {
    const ws = await workspace();
    const inv = await createInvoice(ws.merchant.merchant_api_token);
    const res = await t.request('POST', `/_sandbox/invoices/${inv.body.invoice.id}/payments`, {
      body: { collector: 'coins_peso_wallet' },
    });
    expect(res.status).toBe(201);
    expect(
      (await t.request('GET', `/_sandbox/accounts/${ws.customer.accounts[0]!.id}`)).body.account
        .balance,
    ).toBe('99990.00000000');
    expect(
      (await t.request('GET', `/_sandbox/accounts/${ws.merchant.wallet_account_id}`)).body.account
        .balance,
    ).toBe('10.00000000');
    expect(
      (await t.request('GET', `/_sandbox/accounts/${t.fixtures.customers[0]!.accounts[0]!.id}`))
        .body.account.balance,
    ).toBe('50000.00000000');
    t.assertLedger();
  });

  it('DELETE disables its credentials: merchant token and API key answer 401', async () => {
    const ws = await workspace();
    const other = await workspace();
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    const token = await createInvoice(ws.merchant.merchant_api_token);
    expect(token.status).toBe(401);
    expect(token.body).toEqual(INVALID_TOKEN);
    const bearer = await t.request('GET', '/v3/invoices/', {
      headers: { authorization: `Bearer ${ws.merchant.bearer_token}` },
    });
    expect(bearer.status).toBe(401);
    expect(bearer.body).toEqual(INVALID_TOKEN);
    const hmac = await accounts(ws);
    expect(hmac.status).toBe(401);
    expect(hmac.body).toEqual(
      developerError('invalid_access_key', { non_field_errors: ['Incorrect access key'] }),
    );
    // The other workspace is untouched; deleting again is harmless.
    expect((await createInvoice(other.merchant.merchant_api_token)).status).toBe(201);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    const merchants = await t.request('GET', '/_sandbox/merchants?per_page=100');
    expect(merchants.body.merchants.map((m: { id: string }) => m.id)).not.toContain(ws.merchant.id);
  });

  it('answers 404 for an unknown workspace', async () => {
    const res = await t.request('DELETE', `/_sandbox/workspaces/${'0'.repeat(32)}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error_codes: ['not_found'],
      errors: { non_field_errors: ['Not found.'] },
    });
  });

  it('expires by TTL when the clock moves past it', async () => {
    const short = await workspace({ ttl_seconds: 60 });
    const long = await workspace({ ttl_seconds: 7200 });
    expect(Date.parse(short.expires_at) - Date.now()).toBeLessThanOrEqual(60_000);
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 59 } });
    expect((await accounts(short)).status).toBe(200);
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 2 } });
    expect((await createInvoice(short.merchant.merchant_api_token)).status).toBe(401);
    expect((await accounts(short)).status).toBe(401);
    expect((await createInvoice(long.merchant.merchant_api_token)).status).toBe(201);
    const row = t.db
      .prepare('SELECT deleted_at, expires_at FROM workspaces WHERE id = ?')
      .get(short.id) as { deleted_at: number; expires_at: number };
    expect(row.deleted_at).toBe(row.expires_at);
  });

  it.each([
    [{ ttl_seconds: 59 }, ['Ensure this value is greater than or equal to 60.']],
    [{ ttl_seconds: 604801 }, ['Ensure this value is less than or equal to 604800.']],
    [
      { ttl_seconds: 1.5 },
      ['A valid integer is required.', 'Ensure this value is greater than or equal to 60.'],
    ],
    [{ ttl_seconds: '60' }, ['A valid integer is required.']],
  ])('refuses %j with 400', async (body, messages) => {
    const res = await t.request('POST', '/_sandbox/workspaces', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error_codes: ['validation_error'],
      errors: { ttl_seconds: messages },
    });
    expect((t.db.prepare('SELECT COUNT(*) AS n FROM workspaces').get() as { n: number }).n).toBe(0);
  });
});
