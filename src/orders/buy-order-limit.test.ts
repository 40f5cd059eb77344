import { afterEach, describe, expect, it } from 'vitest';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { DAILY_LIMIT_MESSAGE } from './buy-order-limit.js';

let t: TestApp;
afterEach(() => t.close());

const place = (dev: ReturnType<typeof newDeveloper>, amount: string) =>
  t.signed('POST', '/api/v2/buyorder/', {
    ...as(dev),
    body: { currency_amount: amount, payment_method: 'bdo_deposit', currency: 'PHP' },
  });
const ordersOf = async (dev: ReturnType<typeof newDeveloper>) =>
  (await t.signed('GET', '/api/v2/buyorder/?limit=100', as(dev))).body.orders as unknown[];

describe("the owner's daily cash-in limit on buy orders (errors.har#9)", () => {
  it('has no limit by default: a buy order of PHP 10,000,000,000 is placed', async () => {
    t = createTestApp();
    const dev = newDeveloper(t);
    const big = await place(dev, '10000000000');
    expect(big.status, big.text).toBe(201);
    expect((await place(dev, '10000000000')).status).toBe(201);
  });

  it('places up to a limit of PHP 400,000 a day and refuses one centavo more, writing nothing', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { dailyBuyLimit: '400000' });
    expect((await place(dev, '300000')).status).toBe(201);
    expect((await place(dev, '100000')).status).toBe(201);
    const over = await place(dev, '0.01');
    expect(over.status).toBe(400);
    expect(over.body.errors).toEqual({ non_field_errors: [DAILY_LIMIT_MESSAGE] });
    expect(over.body.sandbox_debug).toMatchObject({
      code: 'daily_limit_exceeded',
      daily_buy_limit: '40000000000000',
      placed_last_24h: '40000000000000',
    });
    expect(await ordersOf(dev)).toHaveLength(2);
  });

  it('refreshes a day after each order on the sandbox clock (a released order counts until then)', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { dailyBuyLimit: '1000' });
    const first = await place(dev, '600');
    expect(first.status).toBe(201);
    for (const status of ['payment_received', 'released']) {
      const moved = await t.request('POST', `/_sandbox/buyorders/${first.body.order.id}/status`, {
        body: { status },
      });
      expect(moved.status).toBe(200);
    }
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 3600 } });
    expect((await place(dev, '400')).status).toBe(201);
    expect((await place(dev, '1')).status).toBe(400);
    // A minute under a day after the first order, its 600 still counts; a day after, it is free again.
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 86_400 - 3600 - 60 } });
    expect((await place(dev, '1')).status).toBe(400);
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 60 } });
    expect((await place(dev, '601')).status).toBe(400);
    expect((await place(dev, '600')).status).toBe(201);
  });

  it('leaves canceled orders out of the count', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { dailyBuyLimit: '1000' });
    const first = await place(dev, '1000');
    expect((await place(dev, '1')).status).toBe(400);
    const canceled = await t.request('POST', `/_sandbox/buyorders/${first.body.order.id}/status`, {
      body: { status: 'canceled' },
    });
    expect(canceled.status).toBe(200);
    expect((await place(dev, '1000')).status).toBe(201);
  });

  it('has no limit when the app says none, and takes the limit from the control API', async () => {
    t = createTestApp();
    const free = newDeveloper(t, { dailyBuyLimit: null });
    expect((await place(free, '500000')).status).toBe(201);
    const made = await t.request('POST', '/_sandbox/apps', { body: { daily_buy_limit: '50' } });
    expect(made.body.app.daily_buy_limit).toBe('50.00000000');
    const app = { app: { api_key: made.body.app.api_key, api_secret: made.body.app.api_secret } };
    const over = await t.signed('POST', '/api/v2/buyorder/', {
      ...as(app),
      body: { currency_amount: '50.01', payment_method: 'cash_payment' },
    });
    expect([over.status, over.body.errors]).toEqual([
      400,
      { non_field_errors: [DAILY_LIMIT_MESSAGE] },
    ]);
    const none = await t.request('POST', '/_sandbox/apps', { body: { daily_buy_limit: null } });
    expect(none.body.app.daily_buy_limit).toBeNull();
    const bad = await t.request('POST', '/_sandbox/apps', { body: { daily_buy_limit: '-1' } });
    expect(bad.status).toBe(400);
  });

  it('sends only the real body with --no-debug-errors', async () => {
    t = createTestApp({ config: { debugErrors: false } });
    const dev = newDeveloper(t, { dailyBuyLimit: '10' });
    const over = await place(dev, '11');
    expect([over.status, over.body]).toEqual([
      400,
      { errors: { non_field_errors: [DAILY_LIMIT_MESSAGE] } },
    ]);
  });
});
