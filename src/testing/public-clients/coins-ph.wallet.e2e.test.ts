import { beforeEach, describe, expect, it } from 'vitest';
import { errorCode } from '../error-code.js';
import { coinsPhClient, type CoinsPhClient, type CoinsPhFlavor } from './coins-ph.client.js';
import {
  expectAccepted,
  expectRefused,
  units,
  walletOf,
  useWorkspaceServer,
} from './workspace.support.js';

/**
 * The wallet calls of the npm clients `coins-ph` 1.1.17 and `coins-ph-promise`, shaped as they send them
 * (src/testing/public-clients/coins-ph.client.ts), against a real server and a fresh workspace per test:
 * accounts, transfers, conversions, routes, crypto payments and payment requests, each read back by id
 * as the clients do (`<id>/?id=<id>`), with the money they move read back through the same client.
 */
const env = useWorkspaceServer();

const NONCE_FORM: Record<CoinsPhFlavor, RegExp> = {
  'coins-ph': /^1\.\d+e\+262$/,
  'coins-ph-promise': /^1\.\d+e\+25$/,
};

describe.each<CoinsPhFlavor>(['coins-ph', 'coins-ph-promise'])('%s: wallet calls', (flavor) => {
  let client: CoinsPhClient;
  beforeEach(() => {
    client = coinsPhClient(flavor, {
      host: `${env.server.base}/`,
      key: env.ws.app.api_key,
      secret: env.ws.app.api_secret,
    });
  });

  /** The peso wallet's balance as the client reads it (`?currency=PBTC`). */
  async function pesoBalance(): Promise<bigint> {
    const res = await client.cryptoAccounts({ currency: 'PBTC' });
    expectAccepted(res, 200);
    return units(res.body['crypto-accounts'][0].balance);
  }

  it('reads the accounts, all and by ?currency=, signed with its exponent nonces over underscore headers', async () => {
    const all = await client.cryptoAccounts();
    expectAccepted(all, 200);
    expect(all.body['crypto-accounts'].map((a: { currency: string }) => a.currency).sort()).toEqual(
      ['BTC', 'PBTC'],
    );
    const peso = await client.cryptoAccounts({ currency: 'PBTC' });
    expectAccepted(peso, 200);
    expect(peso.body['crypto-accounts']).toEqual([
      expect.objectContaining({
        id: walletOf(env.ws, 'PHP'),
        currency: 'PBTC',
        balance: '100000.00000000',
      }),
    ]);
    const [first, second] = client.sent;
    expect(first!.url).toBe(`${env.server.base}/api/v3/crypto-accounts/`);
    expect(second!.url).toBe(`${env.server.base}/api/v3/crypto-accounts/?currency=PBTC`);
    expect(Object.keys(first!.headers)).toEqual([
      'ACCESS_SIGNATURE',
      'ACCESS_KEY',
      'ACCESS_NONCE',
      'accept',
    ]);
    for (const s of client.sent) expect(s.headers.ACCESS_NONCE).toMatch(NONCE_FORM[flavor]);
    // The sandbox saw them as signed requests of this app (its request log).
    const log = await env.server.control('GET', '/requests?per_page=100');
    const mine = log.requests.filter(
      (r: { auth: string }) => r.auth === `hmac:${env.ws.app.api_key}`,
    );
    expect(
      mine.map(
        (r: { method: string; path: string; status: number }) =>
          `${r.method} ${r.path} ${r.status}`,
      ),
    ).toEqual(['GET /api/v3/crypto-accounts/ 200', 'GET /api/v3/crypto-accounts/ 200']);
  });

  it('transfers to a customer: pending with the amount off the wallet at once, then settled by the clock into the target', async () => {
    const from = walletOf(env.ws, 'PHP');
    const target = env.ws.customer.accounts[0]!.id;
    const targetBefore = await env.server.balance(target);
    const created = await client.createTransferRequest({
      account: from,
      target_address: env.ws.customer.email,
      amount: '250.5',
    });
    expectAccepted(created, 201);
    const transfer = created.body.transfer;
    expect(transfer).toMatchObject({
      account: from,
      amount: '250.5',
      target_address: env.ws.customer.email,
      status: 'pending',
    });
    // No fee on a transfer: the wallet loses exactly the amount.
    expect(await pesoBalance()).toBe(units('100000') - units('250.5'));
    // The client's retrieve puts the id in the path and in the query too.
    const got = await client.transfers({ id: transfer.id });
    expect(client.sent.at(-1)!.url).toBe(
      `${env.server.base}/api/v3/transfers/${transfer.id}/?id=${transfer.id}`,
    );
    expectAccepted(got, 200);
    expect(got.body.transfer.id).toBe(transfer.id);
    await env.server.advance(11);
    const settled = await client.transfers({ id: transfer.id });
    expect(settled.body.transfer.status).toBe('success');
    expect(await env.server.balance(target)).toBe(targetBefore + units('250.5'));
    const list = await client.transfers();
    expectAccepted(list, 200);
    expect(list.body.transfers.map((t: { id: string }) => t.id)).toEqual([transfer.id]);
  });

  it('refuses a transfer above the balance with a 400 whose body.errors says so, and moves nothing', async () => {
    const res = await client.createTransferRequest({
      account: walletOf(env.ws, 'PHP'),
      target_address: env.ws.customer.email,
      amount: '100000.01',
    });
    expectRefused(res, 400, 'Insufficient balance.');
    expect(errorCode(res.body)).toBe('insufficient_balance');
    expect(await pesoBalance()).toBe(units('100000'));
    expect((await client.transfers()).body.transfers).toEqual([]);
  });

  it('converts pesos into its BTC account (crypto-exchanges), lists the conversion and reads the routes', async () => {
    const routes = await client.cryptoRoutes();
    expectAccepted(routes, 200);
    expect(routes.body['crypto-routes']).toContainEqual(
      expect.objectContaining({ source_currency: 'PBTC', target_currency: 'BTC' }),
    );
    const btcBalance = async () =>
      units((await client.cryptoAccounts({ currency: 'BTC' })).body['crypto-accounts'][0].balance);
    const [pesoBefore, btcBefore] = [await pesoBalance(), await btcBalance()];
    const convert = await client.convertFunds({
      source_account: walletOf(env.ws, 'PHP'),
      target_account: walletOf(env.ws, 'BTC'),
      amount: '621.822',
    });
    expectAccepted(convert, 201);
    const exchange = convert.body['crypto-exchange'];
    expect(exchange.id).toMatch(/^[0-9a-f]{32}$/);
    // Pending: the pesos leave at once, the BTC arrives when it settles.
    expect(exchange.status).toBe('pending');
    expect(await pesoBalance()).toBe(pesoBefore - units(exchange.source_amount));
    expect(await btcBalance()).toBe(btcBefore);
    const list = await client.cryptoExchanges();
    expectAccepted(list, 200);
    expect(list.body['crypto-exchanges'].map((e: { id: string }) => e.id)).toEqual([exchange.id]);
    // `cryptoExchanges({id})` reads the one conversion, the id in the path and in the query.
    const one = await client.cryptoExchanges({ id: exchange.id });
    expect(client.sent.at(-1)!.url).toBe(
      `${env.server.base}/api/v3/crypto-exchanges/${exchange.id}/?id=${exchange.id}`,
    );
    expectAccepted(one, 200);
    expect(one.body).toEqual({ 'crypto-exchange': exchange });
    await env.server.advance(11);
    expect((await client.cryptoExchanges({ id: exchange.id })).body['crypto-exchange'].status).toBe(
      'success',
    );
    expect(await btcBalance()).toBe(btcBefore + units(exchange.target_amount));
    expect(await pesoBalance()).toBe(pesoBefore - units(exchange.source_amount));
  });

  it('sends a crypto payment: the amount leaves at once, the payment is listed and settles by the clock', async () => {
    const created = await client.createCryptoPayment({
      account: walletOf(env.ws, 'PHP'),
      target_address: env.ws.customer.mobile_number,
      amount: '75',
      message: 'for lunch',
    });
    expectAccepted(created, 201);
    const payment = created.body['crypto-payment'];
    expect(payment).toMatchObject({ amount: '75.00000000', status: 'pending' });
    expect(payment, 'the recorded resource echoes neither currency nor message').not.toHaveProperty(
      'message',
    );
    expect(await pesoBalance()).toBe(units('100000') - units('75'));
    const one = await client.cryptoPayments({ id: payment.id });
    expect(client.sent.at(-1)!.url).toBe(
      `${env.server.base}/api/v3/crypto-payments/${payment.id}/?id=${payment.id}`,
    );
    expectAccepted(one, 200);
    expect(one.body).toEqual({ 'crypto-payment': payment });
    await env.server.advance(11);
    const list = await client.cryptoPayments();
    expectAccepted(list, 200);
    expect(list.body['crypto-payments']).toEqual([
      expect.objectContaining({ id: payment.id, status: 'success' }),
    ]);
    expect((await client.cryptoPayments({ id: payment.id })).body['crypto-payment']).toEqual({
      ...payment,
      status: 'success',
    });
  });

  it('sees a crypto payment that the control API failed as failed, with the amount back in the wallet', async () => {
    const created = await client.createCryptoPayment({
      account: walletOf(env.ws, 'PHP'),
      target_address: env.ws.customer.email,
      amount: '40',
      message: 'refund me',
    });
    expectAccepted(created, 201);
    const payment = created.body['crypto-payment'];
    expect(await pesoBalance()).toBe(units('100000') - units('40'));
    await env.server.control('POST', `/crypto-payments/${payment.id}/status`, { status: 'failed' });
    const read = await client.cryptoPayments({ id: payment.id });
    expectAccepted(read, 200);
    expect(read.body['crypto-payment'].status).toBe('failed');
    expect(await pesoBalance()).toBe(units('100000'));
  });

  it("reads another workspace's item ids as unknown: 404 with the body.errors the clients read", async () => {
    const mine = await client.createCryptoPayment({
      account: walletOf(env.ws, 'PHP'),
      target_address: env.ws.customer.email,
      amount: '1',
      message: '',
    });
    expectAccepted(mine, 201);
    const other = await env.server.workspace();
    const stranger = coinsPhClient(flavor, {
      host: `${env.server.base}/`,
      key: other.app.api_key,
      secret: other.app.api_secret,
    });
    const res = await stranger.cryptoPayments({ id: mine.body['crypto-payment'].id });
    expectRefused(res, 404, 'Not found.');
  });

  it('asks a customer for money (payment request), lists it, and the wallet is credited when the payer pays', async () => {
    const created = await client.createPaymentRequest({
      payer_contact_info: env.ws.customer.email,
      receiving_account: walletOf(env.ws, 'PHP'),
      amount: '120',
      message: 'Invoice 7',
    });
    expectAccepted(created, 201);
    const request = created.body['payment-request'];
    expect(request).toMatchObject({
      amount: '120.00000000',
      message: 'Invoice 7',
      status: 'pending',
    });
    const list = await client.paymentRequests();
    expect(client.sent.at(-1)!.url).toBe(`${env.server.base}/api/v3/getpayment-requests/`);
    expectAccepted(list, 200);
    expect(list.body['payment-requests'].map((r: { id: string }) => r.id)).toEqual([request.id]);
    // `paymentRequests({id})` reads the one request under the path the clients use.
    const one = await client.paymentRequests({ id: request.id });
    expect(client.sent.at(-1)!.url).toBe(
      `${env.server.base}/api/v3/getpayment-requests/${request.id}/?id=${request.id}`,
    );
    expectAccepted(one, 200);
    expect(one.body).toEqual({ 'payment-request': request });
    await env.server.control('POST', `/payment-requests/${request.id}/status`, { status: 'paid' });
    expect(await pesoBalance()).toBe(units('100000') + units('120'));
    expect((await client.paymentRequests()).body['payment-requests'][0].status).toBe('paid');
    expect((await client.paymentRequests({ id: request.id })).body['payment-request'].status).toBe(
      'paid',
    );
  });
});
