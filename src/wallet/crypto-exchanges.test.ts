import { afterEach, describe, expect, it } from 'vitest';
import { as, balanceOf, newDeveloper } from '../orders/developer.test-support.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode } from '../testing/error-code.js';

let t: TestApp;
afterEach(() => t.close());

const exchange = (dev: ReturnType<typeof newDeveloper>, body: unknown) => t.signed('POST', '/v3/crypto-exchanges/', { ...as(dev), body });

describe('POST /v3/crypto-exchanges/ (createCryptoExchange)', () => {
  it('converts pesos to BTC at the table rate, in one balanced transaction per currency', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '1000' });
    const res = await exchange(dev, { source_account: dev.php, target_account: dev.btc, amount: '200' });
    expect(res.status).toBe(201);
    // The real recorded conversion: 200 PBTC at 621822 → 0.00032164 BTC.
    expect(res.body['crypto-exchange']).toMatchObject({
      source_account: dev.php,
      target_account: dev.btc,
      rate: '621822',
      source_amount: '200.00000000',
      target_amount: '0.00032164',
      source_currency: 'PBTC',
      target_currency: 'BTC',
      reference: {},
      status: 'success',
    });
    expect(balanceOf(t, dev.php)).toBe(parseAmount('800'));
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.00032164'));
    const txs = t.db.prepare("SELECT id FROM ledger_transactions WHERE reference = ? ORDER BY id").all(res.body['crypto-exchange'].id) as Array<{ id: string }>;
    expect(txs.map((x) => x.id).sort()).toEqual([res.body['crypto-exchange'].owner_payment, res.body['crypto-exchange'].trader_payment].sort());
    t.assertLedger();
  });

  it('converts BTC back to pesos, and lists the owner\'s conversions newest first', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '1000' });
    await exchange(dev, { source_account: dev.php, target_account: dev.btc, amount: '621.822' });
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.001'));
    t.advance(1);
    const back = await exchange(dev, { source_account: dev.btc, target_account: dev.php, amount: '0.0005' });
    expect(back.body['crypto-exchange']).toMatchObject({ target_amount: '310.91100000', source_currency: 'BTC', target_currency: 'PBTC' });
    expect(balanceOf(t, dev.php)).toBe(parseAmount('1000') - parseAmount('621.822') + parseAmount('310.911'));
    const list = await t.signed('GET', '/v3/crypto-exchanges/?per_page=1', as(dev));
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ total_count: 2, next_page: 2, previous_page: null });
    expect(list.body['crypto-exchanges']).toEqual([back.body['crypto-exchange']]);
    expect((await t.signed('GET', '/v3/crypto-exchanges/', as(newDeveloper(t)))).body['crypto-exchanges']).toEqual([]);
    t.assertLedger();
  });

  it('refuses another owner\'s account, one currency, too little balance or too small an amount (400, nothing moves)', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '100' });
    const other = newDeveloper(t);
    const cases: Array<[unknown, string, string]> = [
      [{ source_account: other.php, target_account: dev.btc, amount: '1' }, 'source_account', 'validation_error'],
      [{ source_account: dev.php, target_account: other.btc, amount: '1' }, 'target_account', 'validation_error'],
      [{ source_account: dev.php, target_account: dev.php, amount: '1' }, 'target_account', 'validation_error'],
      [{ source_account: dev.php, target_account: dev.btc, amount: '100.5' }, 'amount', 'insufficient_balance'],
      [{ source_account: dev.php, target_account: dev.btc, amount: '0.0003' }, 'amount', 'validation_error'],
      [{ source_account: dev.php, target_account: dev.btc, amount: '-1' }, 'amount', 'validation_error'],
      [{ source_account: dev.php, amount: '1' }, 'target_account', 'validation_error'],
    ];
    for (const [body, field, code] of cases) {
      const res = await exchange(dev, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(errorCode(res.body)).toBe(code);
      expect(Object.keys(res.body.errors)).toEqual([field]);
    }
    expect(balanceOf(t, dev.php)).toBe(parseAmount('100'));
    expect(balanceOf(t, dev.btc)).toBe(0n);
    expect((await t.signed('GET', '/v3/crypto-exchanges/', as(dev))).body.meta.total_count).toBe(0);
    t.assertLedger();
  });
});

describe('GET /v3/crypto-routes/ (listCryptoRoutes)', () => {
  it('lists every route of the table both ways with its rate, under the legacy prefixes too', async () => {
    t = createTestApp();
    const res = await t.signed('GET', '/v3/crypto-routes/');
    expect(res.status).toBe(200);
    expect(res.body['crypto-routes']).toEqual([
      { id: 'PBTC-BTC', source_currency: 'PBTC', target_currency: 'BTC', rate: '621822' },
      { id: 'BTC-PBTC', source_currency: 'BTC', target_currency: 'PBTC', rate: '621822' },
      { id: 'PBTC-ETH', source_currency: 'PBTC', target_currency: 'ETH', rate: '95000' },
      { id: 'ETH-PBTC', source_currency: 'ETH', target_currency: 'PBTC', rate: '95000' },
    ]);
    expect((await t.signed('GET', '/api/v3/crypto-routes/')).body).toEqual(res.body);
    expect((await t.request('GET', '/v3/crypto-routes/')).status).toBe(401);
  });
});
