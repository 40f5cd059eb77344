import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

describe('the quote service’s markets (no credentials)', () => {
  it('answers GET /v1/markets/BTC-PHP in the recorded shape: bid and ask around the table rate, 8-decimal strings', async () => {
    const res = await t.request('GET', '/v1/markets/BTC-PHP');
    expect(res.status).toBe(200);
    // 621822 ± 0.5 %
    expect(res.body).toEqual({
      market: {
        symbol: 'BTC-PHP',
        currency: 'PHP',
        product: 'BTC',
        bid: '618712.89000000',
        ask: '624931.11000000',
      },
    });
    expect((await t.request('GET', '/v1/markets/eth-php')).body.market).toMatchObject({
      symbol: 'ETH-PHP',
      bid: '94525.00000000',
      ask: '95475.00000000',
    });
    const unknown = await t.request('GET', '/v1/markets/DOGE-PHP');
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors).toEqual({ non_field_errors: ['Not found.'] });
  });

  it('lists v1 with the page meta and v2 with 2-decimal prices and expires_in_seconds 30', async () => {
    const v1 = await t.request('GET', '/v1/markets');
    expect(v1.status).toBe(200);
    expect(v1.body.meta).toEqual({ total_count: 2, next_page: null, previous_page: null });
    expect(v1.body.markets.map((m: { symbol: string }) => m.symbol)).toEqual([
      'BTC-PHP',
      'ETH-PHP',
    ]);
    const v2 = await t.request('GET', '/v2/markets');
    expect(v2.status).toBe(200);
    expect(v2.body).toEqual({
      markets: [
        {
          symbol: 'BTC-PHP',
          currency: 'PHP',
          product: 'BTC',
          bid: '618712.89',
          ask: '624931.11',
          expires_in_seconds: 30,
        },
        {
          symbol: 'ETH-PHP',
          currency: 'PHP',
          product: 'ETH',
          bid: '94525.00',
          ask: '95475.00',
          expires_in_seconds: 30,
        },
      ],
    });
  });
});
