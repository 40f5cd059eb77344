import { describe, expect, it } from 'vitest';
import { parseAmount } from '../shared/money.js';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import {
  as,
  balanceOf,
  newDeveloper,
  otpDeveloper,
  otpNow,
} from '../testing/developer.test-support.js';
import { OTP_INVALID, developerError } from '../testing/error-code.js';
import { phpWallet, sellOrderHelpers } from './sell-orders.test-support.js';

/**
 * What a sell order refuses (a missing or unknown outlet, bad amounts, more than the balance: nothing
 * moves) and its one-time codes (MFA). Sell orders that go through are in sell-orders.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));
const { sellCount, outletCharging } = sellOrderHelpers(() => t);

describe('create sell order', () => {
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
