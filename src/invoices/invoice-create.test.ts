import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { invoiceBody as body } from '../testing/invoice.test-support.js';
import { itemAt } from '../shared/defined.js';

let t: TestApp;
appPerTest((app) => (t = app));

describe('create invoice', () => {
  it('creates with a Token on v1 and returns the real shape', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({ external_transaction_id: 'test-126' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const inv = res.body.invoice;
    expect(inv).toMatchObject({
      status: 'pending',
      category: 'merchant',
      amount: '20.00000000',
      amount_due: '20.00000000',
      amount_received: '0.00000000',
      currency: 'PHP',
      external_transaction_id: 'test-126',
      payments: [],
      receiver: t.merchant.wallet_account_id,
      current_payment_reference_number: null,
    });
    expect(inv.id).toMatch(/^[0-9a-f]{32}$/);
    expect(inv.payment_url).toBe(`http://localhost/payment/invoice/${inv.id}`);
    expect(inv.supported_payment_collectors).toEqual(t.merchant.enabled_payment_collectors);
    // default lifetime is the merchant's (15 minutes for the first fixture merchant)
    const life = Date.parse(inv.expires_at) - Date.parse(inv.created_at);
    expect(life).toBeGreaterThanOrEqual(900_000 - 1);
    expect(life).toBeLessThanOrEqual(900_000 + 1);
    expect(Number(inv.expires_in_seconds)).toBeGreaterThanOrEqual(899);
    const ev = t.db
      .prepare('SELECT name, payload FROM outbox_events WHERE invoice_id = ?')
      .all(inv.id) as Array<{ name: string; payload: string }>;
    expect(ev.map((e) => e.name)).toEqual(['invoice.created']);
    expect(JSON.parse(itemAt(ev, 0).payload)).toEqual({
      event: {
        name: 'invoice.created',
        data: {
          id: inv.id,
          currency: 'PHP',
          amount: '20',
          amount_received: '0',
          external_transaction_id: 'test-126',
        },
      },
    });
  });

  it('accepts Bearer on v1 and Token on v3, with either token of the merchant', async () => {
    for (const [path, auth] of [
      ['/v1/invoices/', `Bearer ${t.merchant.bearer_token}`],
      ['/v3/invoices/', `Token ${t.merchant.merchant_api_token}`],
      ['/v3/invoices/', `Bearer ${t.merchant.merchant_api_token}`],
      ['/v3/invoices', `bearer ${t.merchant.bearer_token}`],
    ] as const) {
      const res = await t.request('POST', path, { headers: { authorization: auth }, body: body() });
      expect(res.status, `${path} ${auth}`).toBe(201);
    }
  });

  it('ignores unknown fields and never takes state from the body', async () => {
    const res = await t.request('POST', '/v1/invoices/', {
      token: t.merchant.merchant_api_token,
      body: body({
        status: 'fully_paid',
        amount_received: '20',
        id: 'f'.repeat(32),
        receiver: 'x',
        evil: 1,
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body.invoice).toMatchObject({
      status: 'pending',
      amount_received: '0.00000000',
      receiver: t.merchant.wallet_account_id,
    });
    expect(res.body.invoice.id).not.toBe('f'.repeat(32));
  });

  it('keeps description and metadata', async () => {
    const res = await t.request('POST', '/v3/invoices/', {
      headers: { authorization: `Bearer ${t.merchant.bearer_token}` },
      body: body({ description: 'Order #42', metadata: { cart: [1, 2], customer: { id: 7 } } }),
    });
    const got = await t.request('GET', `/v3/invoices/${res.body.invoice.id}/`, {
      token: t.merchant.merchant_api_token,
    });
    expect(got.body.invoice.description).toBe('Order #42');
    expect(got.body.invoice.metadata).toEqual({ cart: [1, 2], customer: { id: 7 } });
  });
});
