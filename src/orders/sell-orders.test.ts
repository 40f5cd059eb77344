import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { signRequest } from '../auth/hmac.js';
import { SYSTEM_ACCOUNTS } from '../ledger/system-accounts.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import {
  as,
  balanceOf,
  newDeveloper,
  otpDeveloper,
  otpNow,
  whitelistedDeveloper,
} from '../testing/developer.test-support.js';
import { OTP_INVALID, developerError, errorCode } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const phpWallet = (d: { accounts: Array<{ id: string; currency: string }> }) =>
  d.accounts.find((a) => a.currency === 'PHP')!.id;
const sellCount = () =>
  (t.db.prepare('SELECT COUNT(*) AS n FROM sell_orders').get() as { n: number }).n;
const entriesOf = (reference: string) =>
  t.db
    .prepare(
      'SELECT t.kind, e.account_id, e.amount FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id WHERE t.reference = ? ORDER BY e.id',
    )
    .safeIntegers(true)
    .all(reference) as Array<{ kind: string; account_id: string; amount: bigint }>;

/** An outlet whose middle bracket (1000 to 49999.99999999) charges `fraction` × amount + 10. */
function outletCharging(fraction: string): string {
  return t.fixtures.payout_outlets.find(
    (o) => o.fees[1]!.fee_percent === fraction && o.fees[1]!.fee_amount === '10',
  )!.id;
}

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

  it.each([
    [{ amount: 100 }, { outlet_id: ['This field is required.'] }],
    [{ outlet_id: 'nope', amount: 100 }, { outlet_id: ['Payout outlet "nope" does not exist.'] }],
    [
      { payment_outlet: 'nope', amount: 100 },
      { payment_outlet: ['Payout outlet "nope" does not exist.'] },
    ],
    [
      { outlet_id: 'bpi', payment_outlet: 'bdo', amount: 100 },
      { payment_outlet: ['Must be the same outlet as outlet_id when both are given.'] },
    ],
    [
      { outlet_id: 'bpi', amount: 100, currency: 'USD' },
      { currency: ['"USD" is not a valid choice.'] },
    ],
    [
      { outlet_id: 'bpi', amount: 100, pay_with_wallet: 'BTC' },
      { pay_with_wallet: ['"BTC" is not a valid choice.'] },
    ],
    [{ outlet_id: 'bpi', amount: '1e3' }, { amount: ['A valid number is required.'] }],
    [{ outlet_id: 'bpi', amount: 0 }, { amount: ['Ensure this value is greater than 0.'] }],
    [
      { outlet_id: 'bpi', amount: '1.000000001' },
      { amount: ['Ensure that there are no more than 8 decimal places.'] },
    ],
    [{ outlet_id: 'bpi' }, { amount: ['This field is required.'] }],
  ])('refuses %j with a field error and changes nothing', async (body, errors) => {
    const before = sellCount();
    const res = await t.signed('POST', '/v1/sellorder', { body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(developerError('validation_error', errors));
    expect(sellCount()).toBe(before);
  });

  it('refuses an amount outside every fee bracket', async () => {
    const res = await t.signed('POST', '/v1/sellorder', {
      body: { outlet_id: 'bpi', amount: '500000.00000001' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      developerError('amount_outside_fee_brackets', {
        amount: ['Amount is outside the fee brackets of BPI (0 to 500000 PHP).'],
      }),
    );
  });

  it('refuses more than the balance (amount + fee) with the real body and moves nothing', async () => {
    const dev = newDeveloper(t, { php: '1010' });
    const before = sellCount();
    // 1000 at 1.5 % + 10 = 1025 > 1010
    const res = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: { outlet_id: outletCharging('0.015'), amount: 1000 },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      developerError('insufficient_balance', { non_field_errors: ['Insufficient balance.'] }),
    );
    expect(balanceOf(t, dev.php)).toBe(parseAmount('1010'));
    expect(sellCount()).toBe(before);
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

describe('OTP (MFA) on sell orders', () => {
  const body = { outlet_id: 'bpi', amount: 100 };

  it('needs an OTP when the application is not whitelisted: missing or wrong → 422 with the real body', async () => {
    const dev = otpDeveloper(t);
    const before = sellCount();
    const wallet = balanceOf(t, phpWallet(dev));
    for (const extra of [{}, { otp: '000000' }, { otp: 'abcdef' }, { otp: '' }]) {
      const res = await t.signed('POST', '/v1/sellorder', {
        ...as(dev),
        body: { ...body, ...extra },
      });
      expect(res.status, JSON.stringify(extra)).toBe(422);
      expect(res.body).toEqual(OTP_INVALID);
    }
    const wrongHeader = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body,
      headers: { 'Access-OTP': '123' },
    });
    expect(wrongHeader.status).toBe(422);
    expect(sellCount()).toBe(before);
    expect(balanceOf(t, phpWallet(dev))).toBe(wallet);
  });

  it('takes the OTP from the body field (`otp`, or its legacy name `code`) or from the Access-OTP header, on either header spelling', async () => {
    const dev = otpDeveloper(t);
    const inBody = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: { ...body, otp: otpNow(t, dev.app.otp_secret) },
    });
    expect(inBody.status).toBe(201);
    const inHeader = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      spelling: 'dash',
      body,
      headers: { 'Access-OTP': otpNow(t, dev.app.otp_secret) },
    });
    expect(inHeader.status).toBe(201);
    const legacy = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: { ...body, code: otpNow(t, dev.app.otp_secret) },
    });
    expect(legacy.status).toBe(201);
    const wrongLegacy = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: { ...body, code: '000000' },
    });
    expect(wrongLegacy.status).toBe(422);
    expect(wrongLegacy.body).toEqual(OTP_INVALID);
    t.assertLedger();
  });

  it('checks the code against the sandbox clock, not the wall clock', async () => {
    const dev = otpDeveloper(t);
    const wallClockCode = otpNow(t, dev.app.otp_secret);
    t.advance(3600);
    const stale = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: { ...body, otp: wallClockCode },
    });
    expect(stale.status).toBe(422);
    const fresh = await t.signed('POST', '/v1/sellorder', {
      ...as(dev),
      body: { ...body, otp: otpNow(t, dev.app.otp_secret) },
    });
    expect(fresh.status).toBe(201);
  });

  it('asks a whitelisted application for nothing, and ignores a wrong code it sends', async () => {
    const res = await t.signed('POST', '/v1/sellorder', { body: { ...body, otp: '000000' } });
    expect(res.status).toBe(201);
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
