import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  as,
  balanceOf,
  newDeveloper,
  otpDeveloper,
  otpNow,
  whitelistedDeveloper,
} from '../testing/developer.test-support.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import type { FixtureTransfer } from './transfers.fixtures.js';
import { normalizeMobile } from './transfers.service.js';
import { OTP_INVALID, developerError, errorCode } from '../testing/error-code.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const walletOf = (d: { accounts: Array<{ id: string; currency: string }> }, currency = 'PHP') =>
  d.accounts.find((a) => a.currency === currency)!.id;
const transferCount = () =>
  (t.db.prepare('SELECT COUNT(*) AS n FROM transfers').get() as { n: number }).n;
const send = (body: Record<string, unknown>, o: Record<string, unknown> = {}) =>
  t.signed('POST', '/v3/transfers/', { body, ...o });
/** Let the sandbox clock run past the settle delay (10 s by default) and do the due work. */
const settle = () => {
  t.advance(10);
  t.sandbox.tick();
};

describe('create transfer', () => {
  it("reaches a developer (an application's owner) by email, as a customer, into their wallet of the currency", async () => {
    const from = walletOf(whitelistedDeveloper(t));
    const owner = newDeveloper(t, { php: '0' });
    const email = t.services.identities.userById(owner.id)!.email!;
    const res = await send({ account: from, target_address: email.toUpperCase(), amount: '25' });
    expect(res.status).toBe(201);
    expect(res.body.transfer).toMatchObject({
      target_address: email.toUpperCase(),
      status: 'pending',
    });
    settle();
    expect(balanceOf(t, owner.php)).toBe(parseAmount('25'));
    t.assertLedger();
  });

  it('is created pending with the amount held, and settles into the target after the delay on the sandbox clock', async () => {
    const from = walletOf(whitelistedDeveloper(t));
    const to = walletOf(otpDeveloper(t));
    const [a, b] = [balanceOf(t, from), balanceOf(t, to)];
    const res = await send({ account: from, target_address: to, amount: '123.45678901' });
    expect(res.status).toBe(201);
    expect(res.body.transfer).toMatchObject({
      account: from,
      amount: '123.45678901',
      target_address: to,
      status: 'pending',
    });
    expect(res.body.transfer.id).toMatch(/^[0-9a-f]{32}$/);
    expect(res.body.transfer.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    expect(balanceOf(t, from)).toBe(a - parseAmount('123.45678901'));
    expect(balanceOf(t, to)).toBe(b);
    t.assertLedger();
    // Not yet: 9 s later it is still pending.
    t.advance(9);
    t.sandbox.tick();
    expect(
      (await t.signed('GET', `/v3/transfers/${res.body.transfer.id}`)).body.transfer.status,
    ).toBe('pending');
    t.advance(1);
    t.sandbox.tick();
    expect(
      (await t.signed('GET', `/v3/transfers/${res.body.transfer.id}`)).body.transfer,
    ).toMatchObject({ status: 'success', created_at: res.body.transfer.created_at });
    expect(balanceOf(t, from)).toBe(a - parseAmount('123.45678901'));
    expect(balanceOf(t, to)).toBe(b + parseAmount('123.45678901'));
    t.assertLedger();
  });

  it('writes the amount as stored and names no crypto payment or market, as the recorded answer', async () => {
    const from = walletOf(whitelistedDeveloper(t));
    const to = walletOf(otpDeveloper(t));
    const res = await send({ account: from, target_address: to, amount: 25 });
    expect(res.status).toBe(201);
    expect(res.body.transfer).toMatchObject({ amount: '25', payment: null, exchange: null });
    const got = await t.signed('GET', `/v3/transfers/${res.body.transfer.id}`);
    expect(got.body.transfer).toMatchObject({ amount: '25', payment: null, exchange: null });
  });

  it('finds a customer’s wallet by email (any case) or mobile number (+639…, 09…, 639…)', async () => {
    const c = t.fixtures.customers[0]!;
    const wallet = walletOf(c);
    const before = balanceOf(t, wallet);
    const local = `0${c.mobile_number.slice(3)}`;
    for (const target of [
      c.email,
      c.email.toUpperCase(),
      c.mobile_number,
      local,
      c.mobile_number.slice(1),
    ]) {
      const res = await send(
        { account: walletOf(whitelistedDeveloper(t)), target_address: target, amount: 1 },
        { spelling: 'dash' },
      );
      expect(res.status, target).toBe(201);
      expect(res.body.transfer.target_address).toBe(target);
    }
    settle();
    expect(balanceOf(t, wallet)).toBe(before + parseAmount('5'));
    t.assertLedger();
  });

  it('moves BTC between BTC wallets and pays a merchant wallet by its account id', async () => {
    const btc = await send({
      account: walletOf(whitelistedDeveloper(t), 'BTC'),
      target_address: walletOf(otpDeveloper(t), 'BTC'),
      amount: '0.00012345',
    });
    expect(btc.status).toBe(201);
    const merchant = await send({
      account: walletOf(whitelistedDeveloper(t)),
      target_address: t.merchant.wallet_account_id,
      amount: 50,
    });
    expect(merchant.status).toBe(201);
    settle();
    expect(balanceOf(t, t.merchant.wallet_account_id)).toBe(parseAmount('50'));
    t.assertLedger();
  });

  it('normalizes Philippine mobile numbers only', () => {
    expect(
      ['09171234567', '639171234567', '+639171234567', '0917123456', 'someone@x.ph'].map(
        normalizeMobile,
      ),
    ).toEqual(['+639171234567', '+639171234567', '+639171234567', '0917123456', 'someone@x.ph']);
  });

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

describe('retrieve and list transfers', () => {
  it('retrieves its own transfer and answers 404 for another owner’s', async () => {
    const created = (
      await send({
        account: walletOf(whitelistedDeveloper(t)),
        target_address: t.fixtures.customers[0]!.email,
        amount: 3,
      })
    ).body.transfer;
    for (const path of [
      `/v3/transfers/${created.id}`,
      `/v3/transfers/${created.id}/`,
      `/api/v3/transfers/${created.id}`,
    ]) {
      const res = await t.signed('GET', path, { spelling: 'dash' });
      expect(res.status, path).toBe(200);
      expect(res.body).toEqual({ transfer: created });
    }
    const theirs = await t.signed('GET', `/v3/transfers/${created.id}`, as(otpDeveloper(t)));
    expect(theirs.status).toBe(404);
    expect(theirs.body).toEqual(developerError('not_found', { non_field_errors: ['Not found.'] }));
  });

  it('lists fixture history and new transfers newest first with page metas', async () => {
    const dev = whitelistedDeveloper(t);
    const mine = (t.fixtures.transfers as FixtureTransfer[]).filter((x) => x.owner_id === dev.id);
    expect(new Set(mine.map((x) => x.status))).toEqual(new Set(['success', 'failed']));
    const created = (
      await send({
        account: walletOf(dev),
        target_address: t.fixtures.customers[0]!.mobile_number,
        amount: 3,
      })
    ).body.transfer;
    const res = await t.signed('GET', '/v3/transfers?page=3&per_page=20');
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ total_count: mine.length + 1, next_page: 4, previous_page: 2 });
    const first = await t.signed('GET', '/v3/transfers');
    expect(first.body.transfers[0]).toEqual(created);
    expect(first.body.transfers).toHaveLength(10);
    const stamps = first.body.transfers.map((x: { created_at: string }) => x.created_at);
    expect([...stamps].sort().reverse()).toEqual(stamps);
  });
});
