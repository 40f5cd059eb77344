import { describe, expect, it } from 'vitest';
import { signRequest } from '../auth/hmac.js';
import { SYSTEM_ACCOUNTS } from '../ledger/system-accounts.js';
import { parseAmount } from '../shared/money.js';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import {
  as,
  balanceOf,
  newDeveloper,
  otpDeveloper,
  whitelistedDeveloper,
} from '../testing/developer.test-support.js';
import { developerError, errorCode } from '../testing/error-code.js';
import { phpWallet, sellOrderHelpers } from './sell-orders.test-support.js';

/**
 * Sell orders that go through (what they debit, what they answer, the bytes they are signed over) and
 * reading them back. What a sell order refuses, and its one-time codes, are in
 * sell-order-refusals.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));
const { entriesOf, outletCharging } = sellOrderHelpers(() => t);

describe('create sell order', () => {
  it('debits amount + fee in one ledger transaction and answers 201 in the real shape', async () => {
    const dev = whitelistedDeveloper(t);
    const wallet = phpWallet(dev);
    const before = balanceOf(t, wallet);
    const outlet = outletCharging('0.015');
    const res = await t.signed('POST', '/v1/sellorder', {
      body: {
        outlet_id: outlet,
        amount: '1234.56789012',
        currency: 'PHP',
        external_transaction_id: 'payout-1',
        target_address: '001234567890',
      },
    });
    expect(res.status).toBe(201);
    const order = res.body.order;
    expect(res.body.success).toBe(true);
    // 1234.56789012 × 1.5 % = 18.5185183518 → 18.51851835, plus the bracket's 10
    expect(order).toEqual({
      amount: '1234.56789012',
      created_time: order.created_time,
      currency: 'PHP',
      delivery_status: 'pending_payment',
      external_transaction_id: 'payout-1',
      fields: { target_address: '001234567890' },
      id: order.id,
      payment_outlet: {
        id: outlet,
        name: t.fixtures.payout_outlets.find((o) => o.id === outlet)!.name,
        payment_outlet_provider_id: null,
      },
      required_fields: [],
    });
    // The fee and the debited total are not in the real body: the sandbox names them in headers.
    expect([res.headers.get('x-sandbox-fee'), res.headers.get('x-sandbox-total')]).toEqual([
      '28.51851835',
      '1263.08640847',
    ]);
    expect(order.id).toMatch(/^[0-9a-f]{32}$/);
    const nowSeconds = Math.floor(t.services.clock.now() / 1_000_000);
    expect(Math.abs(Number(order.created_time) - nowSeconds)).toBeLessThanOrEqual(1);
    expect(balanceOf(t, wallet)).toBe(before - parseAmount('1263.08640847'));
    const entries = entriesOf(order.id);
    expect(entries.map((e) => [e.kind, e.account_id, e.amount])).toEqual([
      ['sell_order', wallet, -parseAmount('1263.08640847')],
      ['sell_order', SYSTEM_ACCOUNTS.payoutClearing, parseAmount('1234.56789012')],
      ['sell_order', SYSTEM_ACCOUNTS.payoutFees, parseAmount('28.51851835')],
    ]);
    t.assertLedger();
  });

  it('accepts payment_outlet as the outlet, with outlet fields and pay_with_wallet PBTC', async () => {
    const res = await t.signed('POST', '/v1/sellorder', {
      spelling: 'dash',
      body: {
        payment_outlet: 'gcash',
        amount: 500,
        pay_with_wallet: 'PBTC',
        fields: { mobile_number: '+639171234567' },
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({
      payment_outlet: { id: 'gcash' },
      currency: 'PHP',
      fields: { mobile_number: '+639171234567' },
      external_transaction_id: null,
    });
    t.assertLedger();
  });

  it('rounds the percentage half up to the unit', async () => {
    const outlet = t.fixtures.payout_outlets.find((o) => o.fees[2]!.fee_percent === '0.0075')!.id;
    // 0.000002 × 0.0075 = 0.000000015 → 1.5 units → 2 units
    const res = await t.signed('POST', '/v1/sellorder', {
      body: { outlet_id: outlet, amount: '50000.000002' },
    });
    expect(res.headers.get('x-sandbox-fee')).toBe('375.00000002');
    t.assertLedger();
  });

  it('debits exactly the whole balance when amount + fee equals it', async () => {
    const dev = newDeveloper(t, { php: '1025' });
    const res = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: { outlet_id: outletCharging('0.015'), amount: 1000 },
    });
    expect(res.status).toBe(201);
    expect(balanceOf(t, dev.php)).toBe(0n);
    t.assertLedger();
  });

  it('accepts the exact bytes it was signed over (spacing, key order, unicode) and refuses a re-serialized body', async () => {
    const raw =
      '{ "amount" : "250.5",\n  "outlet_id":"bpi", "fields": {"account_name": "José Ñiño 🇵🇭"} }';
    const res = await t.signed('POST', '/v1/sellorder', { raw });
    expect(res.status).toBe(201);
    expect(res.body.order.fields).toEqual({ account_name: 'José Ñiño 🇵🇭' });
    const dev = whitelistedDeveloper(t);
    const nonce = String(BigInt(Date.now()) * 1000n + 999_999_999n);
    const signature = signRequest(dev.app.api_secret, nonce, 'http://localhost/v1/sellorder', raw);
    const resent = await t.request('POST', '/v1/sellorder', {
      raw: JSON.stringify(JSON.parse(raw)),
      headers: {
        'content-type': 'application/json',
        ACCESS_KEY: dev.app.api_key,
        ACCESS_SIGNATURE: signature,
        ACCESS_NONCE: nonce,
      },
    });
    expect(resent.status).toBe(401);
    expect(errorCode(resent.body)).toBe('invalid_signature');
  });
});

describe('retrieve and list sell orders', () => {
  it('retrieves its own order on either header spelling and answers 404 for anyone else’s', async () => {
    const created = (
      await t.signed('POST', '/v1/sellorder', { body: { outlet_id: 'bdo', amount: 300 } })
    ).body.order;
    for (const spelling of ['underscore', 'dash'] as const) {
      for (const path of [
        `/v1/sellorder/${created.id}`,
        `/v1/sellorder/${created.id}/`,
        `/d/api/sellorder/${created.id}`,
      ]) {
        const res = await t.signed('GET', path, { spelling });
        expect(res.status, path).toBe(200);
        expect(res.body).toEqual({ order: created, success: true });
      }
    }
    const other = await t.signed('GET', `/v1/sellorder/${created.id}`, as(otpDeveloper(t)));
    expect(other.status).toBe(404);
    expect(other.body).toEqual(developerError('not_found', { non_field_errors: ['Not found.'] }));
    expect(other.text).not.toContain(created.id);
    expect((await t.signed('GET', `/v1/sellorder/${'0'.repeat(32)}`)).status).toBe(404);
  });

  it('lists the owner’s orders newest first with offset metas', async () => {
    const mine = (t.fixtures.sell_orders as Array<{ owner_id: string }>).filter(
      (o) => o.owner_id === whitelistedDeveloper(t).id,
    ).length;
    const created = (
      await t.signed('POST', '/v1/sellorder', { body: { outlet_id: 'bdo', amount: 300 } })
    ).body.order;
    const first = await t.signed('GET', '/v2/sellorder');
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ pagination: { total: mine + 1, limit: 10, offset: 0 } });
    expect(first.body.orders).toHaveLength(10);
    expect(first.body.orders[0]).toEqual(expect.objectContaining(created));
    const times = first.body.orders.map((o: { created_time: string }) => Number(o.created_time));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const legacy = await t.signed('GET', '/api/v2/sellorder?limit=3&offset=1', {
      spelling: 'dash',
    });
    expect(legacy.body.orders.map((o: { id: string }) => o.id)).toEqual(
      first.body.orders.slice(1, 4).map((o: { id: string }) => o.id),
    );
    const other = await t.signed('GET', '/v2/sellorder?limit=100', as(otpDeveloper(t)));
    expect(other.body.orders.map((o: { id: string }) => o.id)).not.toContain(created.id);
  });
});
