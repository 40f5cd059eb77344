import { describe, expect, it } from 'vitest';
import {
  as,
  balanceOf,
  newDeveloper,
  otpDeveloper,
  whitelistedDeveloper,
} from '../testing/developer.test-support.js';
import { parseAmount } from '../shared/money.js';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import type { FixtureTransfer } from './transfers.fixtures.js';
import { normalizeMobile } from './transfers.service.js';
import { developerError } from '../testing/error-code.js';
import { transferHelpers, walletOf } from './transfers.test-support.js';

/**
 * Transfers that go through (who they reach, how they settle, what they answer) and reading them back.
 * What a transfer refuses, and its one-time codes, are in transfer-refusals.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));
const { send, settle } = transferHelpers(() => t);

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
