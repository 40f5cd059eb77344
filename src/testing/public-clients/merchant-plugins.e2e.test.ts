import { describe, expect, it } from 'vitest';
import { pythonExampleScript } from './example-scripts.client.js';
import { eloadClient, wooCommercePlugin } from './merchant-plugins.client.js';
import { expectAccepted, expectRefused, units, useWorkspaceServer } from './workspace.support.js';

/**
 * The eload client (OAuth2 Bearer on the developer API) and the WooCommerce plugin (merchant token to
 * create, no credentials to poll), shaped as they send their calls, against a real server and a fresh
 * workspace per test.
 */
const env = useWorkspaceServer();

describe('the eload client (Authorization: Bearer)', () => {
  it('reads its sell orders, one buy order and the payout outlets (v1 and v4) with a token the control API issued', async () => {
    const token = await env.server.bearerToken(env.ws.app.api_key);
    const eload = eloadClient(env.server.base, token);
    // The app's own history: a payout made by HMAC, a buy order made through the control API.
    const sell = await pythonExampleScript({
      base: env.server.base,
      key: env.ws.app.api_key,
      secret: env.ws.app.api_secret,
    }).sellOrder({
      payment_outlet: 'bpi',
      amount: '200',
      currency: 'PHP',
      bank_account_name: 'Ana Reyes',
      bank_account_number: '9876543210',
    });
    expectAccepted(sell, 201);
    const { order: buy } = await env.server.control('POST', '/buyorders', {
      api_key: env.ws.app.api_key,
      amount: '300',
    });

    const sells = await eload.sellOrders();
    expectAccepted(sells, 200);
    expect(sells.body).toEqual({
      orders: [expect.objectContaining(sell.body.order)],
      meta: { pagination: { total: 1, limit: 10, offset: 0 } },
    });
    const one = await eload.buyOrder(buy.id);
    expectAccepted(one, 200);
    expect(one.body.order).toMatchObject({ id: buy.id, currency_amount: '300' });

    const outlet = await eload.payoutOutlet('bpi');
    expectAccepted(outlet, 200);
    expect(outlet.body['payout-outlet']).toMatchObject({
      id: 'bpi',
      name: 'BPI',
      outlet_category: 'bank',
    });
    const v4 = await eload.payoutOutletsV4();
    expectAccepted(v4, 200);
    expect(v4.body['payout-outlets'].map((o: { id: string }) => o.id)).toContain('bpi');
    expect(v4.body.meta.total_count).toBe(v4.body['payout-outlets'].length);

    const log = await env.server.control('GET', '/requests?per_page=100');
    const bearer = log.requests.filter(
      (r: { auth: string }) => r.auth === `bearer:${env.ws.app.api_key}`,
    );
    expect(bearer).toHaveLength(4);
  });

  it('answers what the client meets: 404 for another tenant’s order or an unknown outlet, 401 for a revoked token', async () => {
    const token = await env.server.bearerToken(env.ws.app.api_key);
    const eload = eloadClient(env.server.base, token);
    const other = await env.server.workspace();
    const { order: theirs } = await env.server.control('POST', '/buyorders', {
      api_key: other.app.api_key,
      amount: '300',
    });
    expectRefused(await eload.buyOrder(theirs.id), 404, 'Not found.');
    expectRefused(await eload.payoutOutlet('no-such-bank'), 404, 'Not found.');
    await env.server.control('DELETE', `/apps/${env.ws.app.api_key}/tokens/${token}`);
    expectRefused(await eload.sellOrders(), 401, 'Invalid token.');
  });
});

describe('the WooCommerce plugin (Token to create, no credentials to poll)', () => {
  it('creates an invoice and polls it without an Authorization header until it is fully_paid', async () => {
    const woo = wooCommercePlugin(env.server.base, env.ws.merchant.merchant_api_token);
    const created = await woo.createInvoice({
      amount: '250',
      currency: 'PHP',
      external_transaction_id: 'wc-order-1',
    });
    expectAccepted(created, 201);
    const id = created.body.invoice.id;
    const pending = await woo.inquire(id);
    expectAccepted(pending, 200);
    expect(pending.body.invoice).toMatchObject({
      id,
      status: 'pending',
      amount: '250.00000000',
      external_transaction_id: 'wc-order-1',
    });
    const payer = env.ws.customer.accounts[0]!.id;
    await env.server.control('POST', `/invoices/${id}/payments`, {
      collector: 'coins_peso_wallet',
      customer: env.ws.customer.email,
    });
    const paid = await woo.inquire(id);
    expectAccepted(paid, 200);
    expect(paid.body.invoice.status).toBe('fully_paid');
    expect(await env.server.balance(payer)).toBe(units('100000') - units('250'));
  });

  it('sees an unpaid invoice expired once the sandbox clock passes its lifetime', async () => {
    const woo = wooCommercePlugin(env.server.base, env.ws.merchant.merchant_api_token);
    const created = await woo.createInvoice({
      amount: '99.5',
      currency: 'PHP',
      external_transaction_id: 'wc-order-2',
    });
    expectAccepted(created, 201);
    const id = created.body.invoice.id;
    await env.server.advance(901);
    const expired = await woo.inquire(id);
    expectAccepted(expired, 200);
    // The plugin reads `status` only (what `expires_in_seconds` becomes is listed in docs/fidelity.md).
    expect(expired.body.invoice).toMatchObject({
      id,
      status: 'expired',
      updated_at: expired.body.invoice.expires_at,
    });
  });

  it('gets the real refusals: a reused external id (400 on that field) and an unknown invoice (404 Not found.)', async () => {
    const woo = wooCommercePlugin(env.server.base, env.ws.merchant.merchant_api_token);
    expectAccepted(
      await woo.createInvoice({
        amount: '10',
        currency: 'PHP',
        external_transaction_id: 'wc-order-3',
      }),
      201,
    );
    const again = await woo.createInvoice({
      amount: '10',
      currency: 'PHP',
      external_transaction_id: 'wc-order-3',
    });
    expectRefused(again, 400, 'External transaction ID has already been used for an invoice.');
    expectRefused(await woo.inquire('0'.repeat(32)), 404, 'Not found.');
  });
});
