import { afterEach, describe, expect, it } from 'vitest';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { cryptoHelpers, expectEachRefused } from '../testing/crypto.test-support.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
afterEach(() => t.close());

const { exchange, transactionsOf, settle, listed } = cryptoHelpers(() => t);

describe('POST /v3/crypto-exchanges/ (createCryptoExchange)', () => {
  it('is created pending as the real service answers, with the source held, and settles on the sandbox clock', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '1000' });
    const res = await exchange(dev, {
      source_account: dev.php,
      target_account: dev.btc,
      amount: '200',
    });
    expect(res.status).toBe(201);
    // The real recorded conversion: 200 PBTC at 621822, `pending` (the real one rounded to 0.00032164; ours rounds down, in the house's favour).
    const created = res.body['crypto-exchange'];
    expect(created).toMatchObject({
      source_account: dev.php,
      target_account: dev.btc,
      rate: '621822',
      source_amount: '200',
      target_amount: '0.00032163',
      source_currency: 'PBTC',
      target_currency: 'BTC',
      reference: {},
      status: 'pending',
    });
    // The source is debited at once; the target has nothing yet. Both payments are ledger transactions.
    expect(balanceOf(t, dev.php)).toBe(parseAmount('800'));
    expect(balanceOf(t, dev.btc)).toBe(0n);
    expect(transactionsOf(created.id).map((x) => x.id)).toEqual([
      created.owner_payment,
      created.trader_payment,
    ]);
    t.assertLedger();
    // 9 s later it is still pending; at 10 s it settles.
    t.advance(9);
    t.sandbox.tick();
    expect((await listed(dev))[0].status).toBe('pending');
    t.advance(1);
    t.sandbox.tick();
    expect((await listed(dev))[0]).toEqual({ ...created, status: 'success' });
    expect(balanceOf(t, dev.php)).toBe(parseAmount('800'));
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.00032163'));
    expect(transactionsOf(created.id).map((x) => x.kind)).toEqual([
      'crypto_exchange',
      'crypto_exchange',
      'crypto_exchange_settlement',
      'crypto_exchange_settlement',
    ]);
    t.assertLedger();
  });

  it("converts BTC back to pesos, and lists the owner's conversions newest first", async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '1000' });
    await exchange(dev, { source_account: dev.php, target_account: dev.btc, amount: '621.822' });
    settle();
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.001'));
    const back = await exchange(dev, {
      source_account: dev.btc,
      target_account: dev.php,
      amount: '0.0005',
    });
    expect(back.body['crypto-exchange']).toMatchObject({
      target_amount: '310.911',
      source_currency: 'BTC',
      target_currency: 'PBTC',
      status: 'pending',
    });
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.0005'));
    settle();
    expect(balanceOf(t, dev.php)).toBe(
      parseAmount('1000') - parseAmount('621.822') + parseAmount('310.911'),
    );
    const list = await t.signed('GET', '/v3/crypto-exchanges/?per_page=1', as(dev));
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ total_count: 2, next_page: 2, previous_page: null });
    expect(list.body['crypto-exchanges']).toEqual([
      { ...back.body['crypto-exchange'], status: 'success' },
    ]);
    expect(
      (await t.signed('GET', '/v3/crypto-exchanges/', as(newDeveloper(t)))).body[
        'crypto-exchanges'
      ],
    ).toEqual([]);
    t.assertLedger();
  });

  it("refuses another owner's account, one currency, too little balance or too small an amount (400, nothing moves)", async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '100' });
    const other = newDeveloper(t);
    const cases: Array<[unknown, string, string]> = [
      [
        { source_account: other.php, target_account: dev.btc, amount: '1' },
        'source_account',
        'validation_error',
      ],
      [
        { source_account: dev.php, target_account: other.btc, amount: '1' },
        'target_account',
        'validation_error',
      ],
      [
        { source_account: dev.php, target_account: dev.php, amount: '1' },
        'target_account',
        'validation_error',
      ],
      [
        { source_account: dev.php, target_account: dev.btc, amount: '100.5' },
        'non_field_errors',
        'insufficient_balance',
      ],
      [
        { source_account: dev.php, target_account: dev.btc, amount: '0.0003' },
        'amount',
        'validation_error',
      ],
      [
        { source_account: dev.php, target_account: dev.btc, amount: '-1' },
        'amount',
        'validation_error',
      ],
      [{ source_account: dev.php, amount: '1' }, 'target_account', 'validation_error'],
    ];
    await expectEachRefused((body) => exchange(dev, body), cases);
    // Insufficient balance has the real body: the request as a whole, not the amount field.
    const broke = await exchange(dev, {
      source_account: dev.php,
      target_account: dev.btc,
      amount: '100.5',
    });
    expect(broke.body.errors).toEqual({ non_field_errors: ['Insufficient balance.'] });
    expect(balanceOf(t, dev.php)).toBe(parseAmount('100'));
    expect(balanceOf(t, dev.btc)).toBe(0n);
    expect((await t.signed('GET', '/v3/crypto-exchanges/', as(dev))).body.meta.total_count).toBe(0);
    t.assertLedger();
  });
});

describe('the amount of a conversion: source_amount (documented), amount (the clients), target_amount', () => {
  it('takes the documented source_amount, as the doc example and a recorded client send it', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '1000' });
    // crypto-exchanges.har#1: a Java client's Gson body, source_amount first and a double (200.0).
    const res = await t.signed('POST', '/api/v3/crypto-exchanges/', {
      ...as(dev),
      raw:
        '{"source_amount":200.0,"source_account":"' +
        dev.php +
        '","target_account":"' +
        dev.btc +
        '"}',
    });
    expect(res.status).toBe(201);
    expect(res.body['crypto-exchange']).toMatchObject({
      source_amount: '200',
      target_amount: '0.00032163',
      rate: '621822',
      status: 'pending',
    });
    expect(balanceOf(t, dev.php)).toBe(parseAmount('800'));
    // amount and source_amount together are one field: equal is fine.
    const both = await exchange(dev, {
      source_account: dev.php,
      target_account: dev.btc,
      source_amount: '1',
      amount: 1,
    });
    expect(both.status).toBe(201);
    expect(both.body['crypto-exchange'].source_amount).toBe('1');
    t.assertLedger();
  });

  it('takes target_amount instead: the source is worked back at the rate (a coin rounded up to a unit)', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '1000' });
    const buy = await exchange(dev, {
      source_account: dev.php,
      target_account: dev.btc,
      target_amount: '0.001',
    });
    expect(buy.status).toBe(201);
    expect(buy.body['crypto-exchange']).toMatchObject({
      source_amount: '621.822',
      target_amount: '0.001',
    });
    settle();
    // 100 pesos from BTC: 100 / 621822 = 0.000160817… BTC, rounded up to 0.00016082 (which gives 100.00141404).
    const sell = await exchange(dev, {
      source_account: dev.btc,
      target_account: dev.php,
      target_amount: '100',
    });
    expect(sell.status).toBe(201);
    expect(sell.body['crypto-exchange']).toMatchObject({
      source_amount: '0.00016082',
      target_amount: '100.00141404',
    });
    expect(balanceOf(t, dev.btc)).toBe(parseAmount('0.00083918'));
    t.assertLedger();
  });

  it('refuses no amount, a source and a target amount together, or an amount that differs from source_amount (400, nothing moves)', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '1000' });
    const accounts = { source_account: dev.php, target_account: dev.btc };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{}, 'source_amount', 'This field is required.'],
      [
        { source_amount: '1', target_amount: '0.0001' },
        'target_amount',
        'Give either source_amount or target_amount, not both.',
      ],
      [
        { amount: '1', target_amount: '0.0001' },
        'target_amount',
        'Give either source_amount or target_amount, not both.',
      ],
      [{ source_amount: '1', amount: '2' }, 'amount', 'Must equal source_amount.'],
      [
        { source_amount: '0.0003' },
        'source_amount',
        'Amount is too small to convert from PBTC to BTC.',
      ],
    ];
    for (const [amounts, field, message] of cases) {
      const res = await exchange(dev, { ...accounts, ...amounts });
      expect(res.status, JSON.stringify(amounts)).toBe(400);
      expect(res.body.errors).toEqual({ [field]: [message] });
    }
    expect(balanceOf(t, dev.php)).toBe(parseAmount('1000'));
    expect(await listed(dev)).toEqual([]);
  });
});
