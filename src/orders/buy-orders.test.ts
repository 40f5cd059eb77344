import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDecimal, parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { as, otpDeveloper, whitelistedDeveloper } from '../testing/developer.test-support.js';
import type { FixtureBuyOrder } from './orders.fixtures.js';
import { developerError } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const STATUSES = ['pending_payment', 'payment_received', 'released', 'canceled', 'escrow_expired'];
const fixtureBuyOrders = () => t.fixtures.buy_orders as FixtureBuyOrder[];

describe('buy orders', () => {
  it('creates one through the control API for an application’s owner, in the real shape', async () => {
    const dev = whitelistedDeveloper(t);
    const res = await t.request('POST', '/_sandbox/buyorders', {
      body: { api_key: dev.app.api_key, amount: '1500.25' },
    });
    expect(res.status).toBe(201);
    const order = res.body.order;
    expect(res.body.success).toBe(true);
    expect(order).toMatchObject({
      status: 'pending_payment',
      payment_method: 'cash_payment',
      currency_amount: '1500.25',
      btc_released: '0',
    });
    expect(Number(order.expiration_time) - Number(order.created_at)).toBe(86400);
    const got = await t.signed('GET', `/v1/buyorder/${order.id}`, { spelling: 'dash' });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ order, success: true });
    const list = await t.signed('GET', '/v2/buyorder?limit=1');
    expect(list.body.orders).toEqual([order]);
  });

  it('takes status, payment method and currency from the control call', async () => {
    const dev = otpDeveloper(t);
    for (const status of STATUSES) {
      const res = await t.request('POST', '/_sandbox/buyorders', {
        body: {
          api_key: dev.app.api_key,
          amount: 10,
          status,
          payment_method: 'seven_connect_deposit',
          currency: 'btc',
        },
      });
      expect(res.status).toBe(201);
      const btc = dev.accounts.find((a) => a.currency === 'BTC')!.id;
      expect(res.body.order).toMatchObject({
        status,
        payment_method: 'seven_connect_deposit',
        wallet_address: t.services.ledger.get(btc)!.default_address,
      });
    }
  });

  it('refuses an unknown key (404), a currency the owner has no wallet in, a bad amount or status (400)', async () => {
    const key = whitelistedDeveloper(t).app.api_key;
    const unknown = await t.request('POST', '/_sandbox/buyorders', {
      body: { api_key: 'nope', amount: 10 },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error_codes: ['not_found'],
      errors: { non_field_errors: ['No application with api_key "nope".'] },
    });
    const currency = await t.request('POST', '/_sandbox/buyorders', {
      body: { api_key: key, amount: 10, currency: 'USD' },
    });
    expect(currency.body).toEqual({
      error_codes: ['validation_error'],
      errors: { currency: ['"USD" is not a valid choice.'] },
    });
    const amount = await t.request('POST', '/_sandbox/buyorders', {
      body: { api_key: key, amount: -1 },
    });
    expect(amount.status).toBe(400);
    expect(amount.body.errors.amount).toEqual(['Ensure this value is greater than 0.']);
    const status = await t.request('POST', '/_sandbox/buyorders', {
      body: { api_key: key, amount: 1, status: 'paid' },
    });
    expect(status.body.errors.status).toEqual(['"paid" is not a valid choice.']);
  });

  it('answers 404 for another owner’s buy order', async () => {
    const theirs = fixtureBuyOrders().find((o) => o.owner_id === otpDeveloper(t).id)!;
    const res = await t.signed('GET', `/v1/buyorder/${theirs.id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(developerError('not_found', { non_field_errors: ['Not found.'] }));
    const own = await t.signed('GET', `/v1/buyorder/${theirs.id}/`, as(otpDeveloper(t)));
    expect(own.status).toBe(200);
    expect(own.body.order).toMatchObject({
      id: theirs.id,
      status: theirs.status,
      currency_amount: formatDecimal(parseAmount(theirs.amount)),
    });
  });

  it('gives fixture history the real fields, and the control API releases a paid fixture order into the wallet', async () => {
    const dev = whitelistedDeveloper(t);
    const wallet = dev.accounts.find((a) => a.currency === 'PHP')!.id;
    const all = (await t.signed('GET', '/v1/buyorder?limit=100')).body.orders as Array<
      Record<string, string | null>
    >;
    for (const o of all) {
      expect(o.rate).toBe('1');
      expect(o.btc_released).toBe(o.status === 'released' ? o.btc_amount : '0');
      expect(o.btc_amount).toBe(o.currency_amount);
      expect(o.instructions).toContain(`Reference number: ${o.id}.`);
      expect(o.marked_paid_time === null).toBe(
        !['payment_received', 'released'].includes(o.status!),
      );
      expect(o.canceled_time === null).toBe(o.status !== 'canceled');
    }
    const paid = all.find((o) => o.status === 'payment_received')!;
    const before = t.services.ledger.get(wallet)!.balance;
    // Fixture history never moves on the clock by itself.
    t.advance(3600);
    t.sandbox.tick();
    expect((await t.signed('GET', `/v1/buyorder/${paid.id}`)).body.order.status).toBe(
      'payment_received',
    );
    const res = await t.request('POST', `/_sandbox/buyorders/${paid.id}/status`, {
      body: { status: 'released' },
    });
    expect(res.status).toBe(200);
    expect(t.services.ledger.get(wallet)!.balance).toBe(
      before + parseAmount(paid.currency_amount!),
    );
    t.assertLedger();
  });

  it('lists fixture history newest first, every status present, with offset metas', async () => {
    const dev = whitelistedDeveloper(t);
    const mine = fixtureBuyOrders().filter((o) => o.owner_id === dev.id);
    const res = await t.signed('GET', '/v2/buyorder?limit=100&offset=0');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ pagination: { total: mine.length, limit: 100, offset: 0 } });
    const all = [...res.body.orders];
    for (let offset = 100; offset < mine.length; offset += 100) {
      all.push(...(await t.signed('GET', `/v2/buyorder?limit=100&offset=${offset}`)).body.orders);
    }
    expect(new Set(all.map((o) => o.id))).toEqual(new Set(mine.map((o) => o.id)));
    expect(new Set(all.map((o) => o.status))).toEqual(new Set(STATUSES));
    const created = all.map((o) => Number(o.created_at));
    expect([...created].sort((a, b) => b - a)).toEqual(created);
    // A pending fixture order has not reached its expiration time yet.
    const now = Math.floor(t.services.clock.now() / 1_000_000);
    for (const o of all.filter((x) => x.status === 'pending_payment'))
      expect(Number(o.expiration_time)).toBeGreaterThan(now);
  });
});
