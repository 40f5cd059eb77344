import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { postForm } from '../testing/checkout.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

interface Workspace {
  id: string;
  merchant: { merchant_api_token: string; wallet_account_id: string };
  app: {
    api_key: string;
    api_secret: string;
    owner: { email?: string; accounts: Array<{ id: string; currency: string }> };
  };
  customer: {
    id: string;
    email: string;
    mobile_number: string;
    password: string;
    accounts: Array<{ id: string }>;
  };
}

async function workspace(): Promise<Workspace> {
  const res = await t.request('POST', '/_sandbox/workspaces', { body: {} });
  expect(res.status).toBe(201);
  return res.body.workspace;
}

const balance = (id: string) => t.services.ledger.get(id)!.balance;
const unknownTarget = (text: string) =>
  developerError('unknown_target', {
    target_address: [`No wallet account, customer email or mobile number matches "${text}".`],
  });

/** A transfer of 1 PHP from the app's PHP account to `target`. */
function transfer(app: { api_key: string; api_secret: string }, account: string, target: string) {
  return t.signed('POST', '/v3/transfers/', {
    key: app.api_key,
    secret: app.api_secret,
    body: { account, target_address: target, amount: '1' },
  });
}

describe('tenants stay apart for money (transfers)', () => {
  it('a workspace app cannot reach base-data or other-workspace targets, and learns nothing about them', async () => {
    const ws = await workspace();
    const other = await workspace();
    const base = t.fixtures.customers[0]!;
    const from = ws.app.owner.accounts.find((a) => a.currency === 'PHP')!.id;
    const before = balance(from);
    const foreign = [
      base.email,
      base.email.toUpperCase(),
      base.mobile_number,
      base.mobile_number.replace('+63', '0'),
      base.accounts[0]!.id,
      t.fixtures.merchants[0]!.wallet_account_id,
      other.customer.email,
      other.customer.accounts[0]!.id,
      other.merchant.wallet_account_id,
      // Developers (app owners) are wallet users too, and as tenant-bound as customers.
      t.fixtures.developers[0]!.email,
      other.app.owner.email!,
    ];
    for (const target of foreign) {
      const res = await transfer(ws.app, from, target);
      expect(res.status, target).toBe(400);
      expect(res.body, target).toEqual(unknownTarget(target));
    }
    // A target that exists nowhere answers the same way.
    expect((await transfer(ws.app, from, 'nobody@nowhere.example')).body).toEqual(
      unknownTarget('nobody@nowhere.example'),
    );
    expect(balance(from)).toBe(before);
    // Its own tenant is reachable.
    expect((await transfer(ws.app, from, ws.customer.email)).status).toBe(201);
    expect((await transfer(ws.app, from, ws.merchant.wallet_account_id)).status).toBe(201);
    t.assertLedger();
  });

  it('a base-data app cannot reach workspace customers or accounts', async () => {
    const ws = await workspace();
    const dev = t.fixtures.developers[0]!;
    const from = dev.accounts.find((a) => a.currency === 'PHP')!.id;
    for (const target of [
      ws.customer.email,
      ws.customer.mobile_number,
      ws.customer.accounts[0]!.id,
      ws.merchant.wallet_account_id,
    ]) {
      const res = await transfer(dev.app, from, target);
      expect(res.status, target).toBe(400);
      expect(res.body, target).toEqual(unknownTarget(target));
    }
    expect((await transfer(dev.app, from, t.fixtures.customers[0]!.email)).status).toBe(201);
  });
});

describe('tenants stay apart for wallet logins on the hosted page', () => {
  const invoiceOf = async (token: string) =>
    (
      await t.request('POST', '/v1/invoices/', {
        token,
        body: { amount: 10, currency: 'PHP', external_transaction_id: `ten-${t.services.ids()}` },
      })
    ).body.invoice.id as string;
  const login = (invoice: string, who: { email: string; password: string }) =>
    postForm(t, `/payment/invoice/${invoice}/wallet/login`, {
      login: who.email,
      password: who.password,
    });

  it('a base-data customer cannot log in on a workspace invoice, nor a workspace customer on another tenant’s', async () => {
    const ws = await workspace();
    const other = await workspace();
    const base = t.fixtures.customers[0]!;
    const wsInvoice = await invoiceOf(ws.merchant.merchant_api_token);
    const baseInvoice = await invoiceOf(t.merchant.merchant_api_token);
    const unknown = await login(wsInvoice, { email: 'nobody@nowhere.example', password: 'x' });
    for (const [invoice, who] of [
      [wsInvoice, base],
      [wsInvoice, other.customer],
      [baseInvoice, ws.customer],
    ] as const) {
      const res = await login(invoice, who);
      expect(res.status).toBe(unknown.status);
      expect(res.status).toBe(401);
      expect(res.cookie).toBeNull();
    }
    expect((await login(wsInvoice, ws.customer)).status).toBe(303);
    expect((await login(baseInvoice, base)).status).toBe(303);
  });
});

describe('tenants stay apart on the control API', () => {
  it('pays a workspace invoice only from a customer of that workspace', async () => {
    const ws = await workspace();
    const inv = (
      await t.request('POST', '/v1/invoices/', {
        token: ws.merchant.merchant_api_token,
        body: { amount: 10, currency: 'PHP', external_transaction_id: 'ctl' },
      })
    ).body.invoice.id;
    const base = t.fixtures.customers[0]!;
    const res = await t.request('POST', `/_sandbox/invoices/${inv}/payments`, {
      body: { collector: 'coins_peso_wallet', customer: base.email },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.customer).toEqual([`No customer "${base.email}".`]);
    expect(balance(base.accounts[0]!.id)).toBe(50_000n * 100_000_000n);
    const own = await t.request('POST', `/_sandbox/invoices/${inv}/payments`, {
      body: { collector: 'coins_peso_wallet', customer: ws.customer.email },
    });
    expect(own.status).toBe(201);
  });
});
