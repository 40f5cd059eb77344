import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { errorCode } from '../testing/error-code.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const monthOf = (micros: number) => ({
  year: new Date(micros / 1000).getUTCFullYear(),
  month: new Date(micros / 1000).getUTCMonth() + 1,
});

describe('GET /v3/balance-statements/ (CSV of a wallet’s month)', () => {
  it('lists the month’s ledger entries of the peso wallet with the running balance, as CSV', async () => {
    const dev = newDeveloper(t, { php: '500' });
    const { year, month } = monthOf(t.services.clock.now());
    const customer = t.fixtures.customers[0]!;
    const sent = await t.signed('POST', '/v3/transfers/', {
      ...as(dev),
      body: { account: dev.php, target_address: customer.email, amount: '120.5' },
    });
    expect(sent.status).toBe(201);
    const res = await t.signed(
      'GET',
      `/api/v3/balance-statements/?month=${month}&year=${year}&currency=PBTC`,
      { ...as(dev), operationId: false },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const lines = res.text.split('\r\n');
    expect(lines.at(-1)).toBe('');
    expect(lines[0]).toBe(
      'entry_type,transaction_id,created_at,transaction_type,reference,currency,amount,balance,status,order_fee',
    );
    const rows = lines.slice(1, -1).map((l) => l.split(','));
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual([
      'incoming',
      expect.any(String),
      expect.stringMatching(/Z$/),
      expect.any(String),
      expect.any(String),
      'PBTC',
      '500.00000000',
      '500.00000000',
      'success',
      '0.00000000',
    ]);
    expect(rows[1]).toEqual([
      'outgoing',
      expect.any(String),
      expect.any(String),
      'transfer',
      sent.body.transfer.id,
      'PBTC',
      '120.50000000',
      '379.50000000',
      'success',
      '0.00000000',
    ]);
    // Without currency the peso wallet; another month has only the header.
    const plain = await t.signed('GET', `/v3/balance-statements/?month=${month}&year=${year}`, {
      ...as(dev),
      operationId: false,
    });
    expect(plain.text).toBe(res.text);
    const empty = await t.signed('GET', `/v3/balance-statements/?month=${month}&year=${year - 1}`, {
      ...as(dev),
      operationId: false,
    });
    expect(empty.text).toBe(`${lines[0]}\r\n`);
  });

  it('refuses a missing or bad month or year and a currency without a wallet (400), and unsigned calls (401)', async () => {
    const dev = newDeveloper(t, { php: '5' });
    for (const q of ['year=2026', 'month=13&year=2026', 'month=1', 'month=x&year=2026']) {
      const res = await t.signed('GET', `/v3/balance-statements/?${q}`, as(dev));
      expect(res.status, q).toBe(400);
      expect(errorCode(res.body), q).toBe('validation_error');
    }
    const eth = await t.signed(
      'GET',
      '/v3/balance-statements/?month=1&year=2026&currency=ETH',
      as(dev),
    );
    expect(eth.status).toBe(400);
    expect(eth.body.errors).toEqual({ currency: ['You have no ETH wallet.'] });
    const blank = await t.signed(
      'GET',
      '/v3/balance-statements/?month=1&year=2026&currency=',
      as(dev),
    );
    expect(blank.status).toBe(400);
    expect(blank.body.errors).toEqual({ currency: ['This field may not be blank.'] });
    expect((await t.request('GET', '/v3/balance-statements/?month=1&year=2026')).status).toBe(401);
  });

  it('shows a sell order as its amount with its payout fee in order_fee, and a refund the same way', async () => {
    const dev = newDeveloper(t, { php: '2000' });
    const { year, month } = monthOf(t.services.clock.now());
    const sold = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: { outlet_id: 'bpi', amount: '1500', currency: 'PHP' },
    });
    expect(sold.status).toBe(201);
    const fee = Number(sold.headers.get('x-sandbox-fee'));
    expect(fee).toBeGreaterThan(0);
    const canceled = await t.request('POST', `/_sandbox/sellorders/${sold.body.order.id}/status`, {
      body: { status: 'canceled' },
    });
    expect(canceled.status).toBe(200);
    const res = await t.signed('GET', `/v3/balance-statements/?month=${month}&year=${year}`, {
      ...as(dev),
      operationId: false,
    });
    const rows = res.text
      .split('\r\n')
      .slice(1, -1)
      .map((l) => l.split(','));
    const money = (n: number) => n.toFixed(8);
    expect(rows.map((r) => [r[0], r[6], r[7], r[9]])).toEqual([
      ['incoming', money(2000), money(2000), money(0)],
      ['outgoing', money(1500), money(500 - fee), money(fee)],
      ['incoming', money(1500), money(2000), money(fee)],
    ]);
  });
});
