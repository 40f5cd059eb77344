import { describe, expect, it } from 'vitest';
import {
  as,
  balanceOf,
  newDeveloper,
  otpDeveloper,
  otpNow,
  whitelistedDeveloper,
} from '../testing/developer.test-support.js';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { OTP_INVALID, developerError, errorCode } from '../testing/error-code.js';
import { transferHelpers, walletOf } from './transfers.test-support.js';

/**
 * What a transfer refuses (bad accounts, targets and amounts: a 400 that moves nothing) and its
 * one-time codes (MFA). Transfers that go through are in transfers.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));
const { send, transferCount } = transferHelpers(() => t);

describe('create transfer', () => {
  it.each([
    [
      'another owner’s account',
      (x: TestApp) => ({ account: walletOf(otpDeveloper(x)) }),
      'validation_error',
      'account',
    ],
    ['an unknown account', () => ({ account: 'f'.repeat(32) }), 'validation_error', 'account'],
    [
      'an unknown target',
      () => ({ target_address: 'nobody@nowhere.example' }),
      'unknown_target',
      'target_address',
    ],
    [
      'an unknown account id as target',
      () => ({ target_address: 'e'.repeat(32) }),
      'unknown_target',
      'target_address',
    ],
    [
      'a system account as target',
      () => ({ target_address: 'system-funding' }),
      'unknown_target',
      'target_address',
    ],
    [
      'a target in another currency',
      (x: TestApp) => ({ target_address: walletOf(otpDeveloper(x), 'BTC') }),
      'validation_error',
      'target_address',
    ],
    [
      'the source account as target',
      (x: TestApp) => ({ target_address: walletOf(whitelistedDeveloper(x)) }),
      'validation_error',
      'target_address',
    ],
    [
      'more than the balance',
      () => ({ amount: '250000.00000001' }),
      'insufficient_balance',
      'non_field_errors',
    ],
    ['a bad amount', () => ({ amount: '-1' }), 'validation_error', 'amount'],
  ])('refuses %s with a 400 error and moves nothing', async (_name, over, code, field) => {
    const from = walletOf(whitelistedDeveloper(t));
    const before = balanceOf(t, from);
    const count = transferCount();
    const res = await send({
      account: from,
      target_address: t.fixtures.customers[0]!.email,
      amount: 10,
      ...over(t),
    });
    expect(res.status).toBe(400);
    expect(errorCode(res.body)).toBe(code);
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect(balanceOf(t, from)).toBe(before);
    expect(transferCount()).toBe(count);
    t.assertLedger();
  });

  it('says exactly why in the error bodies', async () => {
    const from = walletOf(whitelistedDeveloper(t));
    const unknown = await send({
      account: from,
      target_address: 'nobody@nowhere.example',
      amount: 1,
    });
    expect(unknown.body).toEqual(
      developerError('unknown_target', {
        target_address: [
          'No wallet account, customer email or mobile number matches "nobody@nowhere.example".',
        ],
      }),
    );
    // The real body: the whole request is refused, not the amount field (as for sell orders).
    const broke = await send({
      account: from,
      target_address: t.fixtures.customers[0]!.email,
      amount: '250000.00000001',
    });
    expect(broke.status).toBe(400);
    expect(broke.body.errors).toEqual({ non_field_errors: ['Insufficient balance.'] });
    expect(errorCode(broke.body)).toBe('insufficient_balance');
    const missing = await send({});
    expect(Object.keys(missing.body.errors).sort()).toEqual([
      'account',
      'amount',
      'target_address',
    ]);
  });

  it('moves the whole balance and then refuses one unit more', async () => {
    const dev = newDeveloper(t, { php: '10' });
    const target = t.fixtures.customers[1]!.email;
    expect(
      (await send({ account: dev.php, target_address: target, amount: 10 }, as(dev))).status,
    ).toBe(201);
    expect(balanceOf(t, dev.php)).toBe(0n);
    expect(
      (await send({ account: dev.php, target_address: target, amount: '0.00000001' }, as(dev)))
        .status,
    ).toBe(400);
    t.assertLedger();
  });
});

describe('OTP (MFA) on transfers', () => {
  const body = (x: TestApp) => ({
    account: walletOf(otpDeveloper(x)),
    target_address: x.fixtures.customers[0]!.email,
    amount: 5,
  });

  it('refuses a missing or wrong code with the real 422 body', async () => {
    const dev = otpDeveloper(t);
    for (const o of [
      { body: body(t) },
      { body: { ...body(t), otp: '999999' } },
      { body: body(t), headers: { 'Access-OTP': 'nope' } },
    ]) {
      const res = await t.signed('POST', '/v3/transfers/', { ...as(dev), ...o });
      expect(res.status).toBe(422);
      expect(res.body).toEqual(OTP_INVALID);
    }
    expect(transferCount()).toBe((t.fixtures.transfers as unknown[]).length);
  });

  it('accepts the code in the body or in Access-OTP', async () => {
    const dev = otpDeveloper(t);
    const a = await t.signed('POST', '/v3/transfers/', {
      ...as(dev),
      body: { ...body(t), otp: otpNow(t, dev.app.otp_secret) },
    });
    expect(a.status).toBe(201);
    const b = await t.signed('POST', '/v3/transfers', {
      ...as(dev),
      spelling: 'dash',
      body: body(t),
      headers: { 'Access-OTP': otpNow(t, dev.app.otp_secret) },
    });
    expect(b.status).toBe(201);
    // `code` is the field's legacy name, still sent by older clients.
    const legacy = await t.signed('POST', '/v3/transfers/', {
      ...as(dev),
      body: { ...body(t), code: otpNow(t, dev.app.otp_secret) },
    });
    expect(legacy.status).toBe(201);
    const wrongLegacy = await t.signed('POST', '/v3/transfers/', {
      ...as(dev),
      body: { ...body(t), code: '000000' },
    });
    expect(wrongLegacy.status).toBe(422);
    expect(wrongLegacy.body).toEqual(OTP_INVALID);
    t.assertLedger();
  });
});
