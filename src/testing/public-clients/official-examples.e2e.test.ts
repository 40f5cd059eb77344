import { describe, expect, it } from 'vitest';
import {
  phpExampleScript,
  pythonExampleScript,
  pythonOAuthExample,
} from './example-scripts.client.js';
import {
  expectAccepted,
  expectRefused,
  units,
  walletOf,
  useWorkspaceServer,
} from './workspace.support.js';

/**
 * The requests of the real service's official example scripts (Python batch payouts and crypto payment,
 * PHP quote and account read), shaped as they send them, against a real server and a fresh workspace.
 */
const env = useWorkspaceServer();

const credentials = env.credentials;
const BANK = { bank_account_name: 'Juan dela Cruz', bank_account_number: '1234567890' };

describe('the Python example scripts', () => {
  it('pays out a batch to bank accounts with POST /api/v2/sellorder, by amount or btc_amount, debiting amount + fee each', async () => {
    const py = pythonExampleScript(credentials());
    const byAmount = await py.sellOrder({
      payment_outlet: 'bpi',
      amount: '1500',
      currency: 'PHP',
      pay_with_wallet: 'PBTC',
      ...BANK,
    });
    expectAccepted(byAmount, 201);
    expect(byAmount.body.order).toMatchObject({
      amount: '1500',
      fields: { account_name: 'Juan dela Cruz', account_number: '1234567890' },
    });
    expect(byAmount.headers['x-sandbox-fee']).toBe('17.5');
    const byBtc = await py.sellOrder({
      payment_outlet: 'bpi',
      btc_amount: '800',
      currency: 'PHP',
      pay_with_wallet: 'PBTC',
      ...BANK,
    });
    expectAccepted(byBtc, 201);
    // 800 is in the first bracket (fee 10 PHP flat); 1500 in the second (10 PHP + 0.5 %).
    expect(byBtc.body.order).toMatchObject({ amount: '800' });
    expect(byBtc.headers['x-sandbox-fee']).toBe('10');
    const wallet = walletOf(env.ws, 'PHP');
    expect(await env.server.balance(wallet)).toBe(units('100000') - units('1517.5') - units('810'));
    const log = await env.server.control('GET', '/requests?per_page=100');
    const mine = log.requests.filter(
      (r: { auth: string }) => r.auth === `hmac:${env.ws.app.api_key}`,
    );
    expect(mine.map((r: { method: string; path: string }) => `${r.method} ${r.path}`)).toEqual([
      'POST /api/v2/sellorder',
      'POST /api/v2/sellorder',
    ]);
  });

  it('refuses a payout row above the balance (400, body.errors) and the next row still goes through', async () => {
    const py = pythonExampleScript(credentials());
    const tooMuch = await py.sellOrder({
      payment_outlet: 'bpi',
      amount: '99900',
      currency: 'PHP',
      ...BANK,
    });
    expectRefused(tooMuch, 400, 'Insufficient balance.');
    const next = await py.sellOrder({
      payment_outlet: 'bpi',
      amount: '100',
      currency: 'PHP',
      ...BANK,
    });
    expectAccepted(next, 201);
    expect(await env.server.balance(walletOf(env.ws, 'PHP'))).toBe(units('100000') - units('110'));
  });

  it('sends a crypto payment with POST /d/api/crypto-payments/: pending, then the customer is credited by the clock', async () => {
    const py = pythonExampleScript(credentials());
    const target = env.ws.customer.accounts[0]!.id;
    const before = await env.server.balance(target);
    const res = await py.cryptoPayment({
      account: walletOf(env.ws, 'PHP'),
      target_address: env.ws.customer.email,
      amount: '42.5',
    });
    expectAccepted(res, 201);
    expect(res.body['crypto-payment']).toMatchObject({ amount: '42.50000000', status: 'pending' });
    expect(await env.server.balance(walletOf(env.ws, 'PHP'))).toBe(units('100000') - units('42.5'));
    await env.server.advance(11);
    expect(await env.server.balance(target)).toBe(before + units('42.5'));
  });
});

describe('the OAuth example of the docs', () => {
  it('creates a sell order with Bearer, a lone ACCESS_NONCE and a form-encoded body (data=)', async () => {
    const oauth = pythonOAuthExample(
      env.server.base,
      await env.server.bearerToken(env.ws.app.api_key),
    );
    const res = await oauth.sellOrder({
      payment_outlet: 'coins_transfer',
      amount: '5',
      currency: 'PHP',
      pay_with_wallet: 'PBTC',
      target_address: env.ws.customer.email,
      external_transaction_id: '001',
    });
    expectAccepted(res, 201);
    expect(res.body.order).toMatchObject({
      amount: '5',
      external_transaction_id: '001',
      fields: { target_address: env.ws.customer.email },
      payment_outlet: {
        id: 'coins_transfer',
        name: 'Coins Transfer',
        payment_outlet_provider_id: null,
      },
      required_fields: [
        { legend: 'Target Address', name: 'target_address', value: env.ws.customer.email },
      ],
    });
    expect(await env.server.balance(walletOf(env.ws, 'PHP'))).toBe(units('100000') - units('5'));
  });
});

describe('the PHP example script', () => {
  it('quotes a payout with GET /api/v2/sellquote (no money moves) and reads ?currency=BTC', async () => {
    const php = phpExampleScript(credentials());
    const quote = await php.sellQuote('payment_outlet=bpi&amount=1500&currency=PHP');
    expectAccepted(quote, 200);
    expect(quote.body.quote).toMatchObject({
      payment_outlet: 'bpi',
      amount: '1500.00000000',
      fee: '17.50000000',
      total: '1517.50000000',
    });
    const btc = await php.cryptoAccounts('BTC');
    expectAccepted(btc, 200);
    expect(btc.body['crypto-accounts']).toEqual([
      expect.objectContaining({ id: walletOf(env.ws, 'BTC'), currency: 'BTC' }),
    ]);
    expect(await env.server.balance(walletOf(env.ws, 'PHP'))).toBe(units('100000'));
    const outside = await php.sellQuote('payment_outlet=bpi&amount=600000&currency=PHP');
    expect(outside.status).toBe(400);
    expect(typeof outside.body.errors).toBe('object');
  });
});
