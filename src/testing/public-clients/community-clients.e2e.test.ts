import { describe, expect, it } from 'vitest';
import { phpCommunityClient, rubyClient } from './community.client.js';
import {
  expectAccepted,
  expectRefused,
  units,
  walletOf,
  useWorkspaceServer,
} from './workspace.support.js';

/**
 * The calls of the community PHP and Ruby clients, shaped as they send them (percent-encoded currency
 * lists, `Access-*` header spelling, Content-Type on GET, paths without a trailing slash), against a
 * real server and a fresh workspace per test.
 */
const env = useWorkspaceServer();

const credentials = env.credentials;
const currencies = (res: { body: { 'crypto-accounts': Array<{ currency: string }> } }) =>
  res.body['crypto-accounts'].map((a) => a.currency).sort();

describe('the PHP client', () => {
  it('reads the peso wallet by ?currency=PBTC%2CBTC%2CETH and ?currency=PBTC, and the enabled pay-in outlets', async () => {
    const php = phpCommunityClient(credentials());
    const list = await php.cryptoAccounts('PBTC,BTC,ETH');
    expectAccepted(list, 200);
    // The workspace owner holds a peso and a BTC wallet; a currency it holds no account in lists nothing.
    expect(currencies(list)).toEqual(['BTC', 'PBTC']);
    const peso = await php.cryptoAccounts('PBTC');
    expectAccepted(peso, 200);
    expect(peso.body['crypto-accounts']).toEqual([
      expect.objectContaining({
        id: walletOf(env.ws, 'PHP'),
        currency: 'PBTC',
        balance: '100000.00000000',
      }),
    ]);
    const outlets = await php.payinOutlets();
    expectAccepted(outlets, 200);
    expect(outlets.body['payin-outlets'].length).toBeGreaterThan(0);
    expect(outlets.body['payin-outlets'].map((o: { id: string }) => o.id)).toContain(
      'seven_connect_deposit',
    );
  });

  it('asks for a payment with POST /api/v3/payment-requests/: paid credits the wallet, declined moves nothing', async () => {
    const php = phpCommunityClient(credentials());
    const wallet = walletOf(env.ws, 'PHP');
    const payer = env.ws.customer.accounts[0]!.id;
    const paid = await php.paymentRequest({
      payer_contact_info: env.ws.customer.mobile_number,
      receiving_account: wallet,
      amount: '300',
      message: 'Order 1',
    });
    expectAccepted(paid, 201);
    expect(paid.body['payment-request']).toMatchObject({
      amount: '300.00000000',
      status: 'pending',
    });
    await env.server.control(
      'POST',
      `/payment-requests/${paid.body['payment-request'].id}/status`,
      { status: 'paid' },
    );
    expect(await env.server.balance(wallet)).toBe(units('100000') + units('300'));
    expect(await env.server.balance(payer)).toBe(units('100000') - units('300'));
    const declined = await php.paymentRequest({
      payer_contact_info: env.ws.customer.email,
      receiving_account: wallet,
      amount: '50',
      message: 'Order 2',
    });
    expectAccepted(declined, 201);
    await env.server.control(
      'POST',
      `/payment-requests/${declined.body['payment-request'].id}/status`,
      { status: 'declined' },
    );
    expect(await env.server.balance(wallet)).toBe(units('100000') + units('300'));
    const unknownPayer = await php.paymentRequest({
      payer_contact_info: 'nobody@nowhere.example',
      receiving_account: wallet,
      amount: '50',
      message: 'x',
    });
    expect(unknownPayer.status).toBe(400);
    expect(typeof unknownPayer.body.errors).toBe('object');
  });

  it('asks with an ISO 8601 expires_at, cancels the pending request with DELETE /api/v3/payment-requests/{id}/, not twice', async () => {
    const php = phpCommunityClient(credentials());
    const wallet = walletOf(env.ws, 'PHP');
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const created = await php.paymentRequest({
      payer_contact_info: env.ws.customer.email,
      receiving_account: wallet,
      amount: '80',
      message: 'Order 3',
      expires_at: expiresAt,
    });
    expectAccepted(created, 201);
    // The ISO 8601 expires_at it sends is honoured (the server clock runs as the test's, in whole milliseconds here).
    expect(created.body['payment-request'].expires_at).toBe(expiresAt.replace('Z', '000Z'));
    const id = created.body['payment-request'].id;
    const canceled = await php.cancelPaymentRequest(id);
    expectAccepted(canceled, 200);
    expect(canceled.body['payment-request']).toMatchObject({
      id,
      status: 'canceled',
      amount: '80.00000000',
    });
    const again = await php.cancelPaymentRequest(id);
    expect(again.status).toBe(409);
    expect(typeof again.body.errors).toBe('object');
    expect(await env.server.balance(wallet)).toBe(units('100000'));
  });
});

describe('the Ruby client', () => {
  it('reads accounts and transfers with Access-* headers and Content-Type on GET, and transfers with POST /api/v3/transfers', async () => {
    const ruby = rubyClient(credentials());
    const accounts = await ruby.cryptoAccounts();
    expectAccepted(accounts, 200);
    expect(currencies(accounts)).toEqual(['BTC', 'PBTC']);
    const wallet = walletOf(env.ws, 'PHP');
    const sent = await ruby.transfer({
      amount: '99.99',
      account: wallet,
      target_address: env.ws.customer.email,
      message: 'rent',
    });
    expectAccepted(sent, 201);
    expect(sent.body.transfer).toMatchObject({ amount: '99.99', status: 'pending' });
    expect(await env.server.balance(wallet)).toBe(units('100000') - units('99.99'));
    const list = await ruby.transfers();
    expectAccepted(list, 200);
    expect(list.body.transfers.map((t: { id: string }) => t.id)).toEqual([sent.body.transfer.id]);
    const tooMuch = await ruby.transfer({
      amount: '200000',
      account: wallet,
      target_address: env.ws.customer.email,
    });
    expectRefused(tooMuch, 400, 'Insufficient balance.');
    expect(await env.server.balance(wallet)).toBe(units('100000') - units('99.99'));
  });
});
