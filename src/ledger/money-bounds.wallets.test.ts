import { afterEach, describe, expect, it } from 'vitest';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { MAX_ACCOUNT_UNITS, MAX_AMOUNT_UNITS } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { checkLedgerInvariants } from './invariants.js';
import { LIMIT_MESSAGE, MAX_AMOUNT, moneyBoundsSteps } from './money-bounds.test-support.js';

/**
 * The bounds on money (docs/design.md#money-bounds) on the accounts themselves, through the API alone:
 * a wallet's total received, what is on its way to it, and the system funding account of each
 * currency. The buy orders' side is in money-bounds.buy-orders.test.ts. Each test failed before the
 * bounds: SQLite turned a balance past int64 into a float.
 */
let t: TestApp;
afterEach(() => t?.close());
const { buyAndRelease, storedTypes } = moneyBoundsSteps(() => t);

describe("a wallet's total received", () => {
  it('is bounded: a transfer that would pass it is refused with a 400 before anything moves', async () => {
    t = createTestApp({ config: { transferSettleSeconds: 1 } });
    const a = newDeveloper(t, { php: '0' });
    const b = newDeveloper(t, { php: '0' });
    await buyAndRelease(a);
    const send = (from: typeof a, to: typeof a, amount = MAX_AMOUNT) =>
      t.signed('POST', '/v3/transfers/', {
        ...as(from),
        body: { account: from.php, target_address: to.php, amount },
      });
    let refused: { status: number; body: any } | undefined;
    let settled = 0;
    for (let i = 0; i < 20 && !refused; i++) {
      const [from, to] = i % 2 === 0 ? [a, b] : [b, a];
      const sent = await send(from, to);
      if (sent.status !== 201) {
        refused = sent;
        break;
      }
      await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 2 } });
      expect(
        (await t.signed('GET', `/v3/transfers/${sent.body.transfer.id}/`, as(from))).body.transfer
          .status,
      ).toBe('success');
      settled++;
    }
    // a was credited once from outside, then at the 2nd, 4th, … transfer: the 18th would take its total
    // received past 90000000000, and is refused before anything moves.
    expect(settled).toBe(17);
    expect(refused?.status).toBe(400);
    expect(refused?.body.errors).toEqual({
      amount: [LIMIT_MESSAGE("the account's total received")],
    });
    expect(balanceOf(t, b.php)).toBe(MAX_AMOUNT_UNITS);
    expect(t.services.ledger.get(a.php)!.total_received).toBe(
      8n * MAX_AMOUNT_UNITS + MAX_AMOUNT_UNITS,
    );

    expect(storedTypes()).toEqual(['integer']);
    expect(checkLedgerInvariants(t.db).ok).toBe(true);
  });
});

describe('what is on its way to a wallet', () => {
  it('counts against its room: a further send, or a mark-paid, that could never be credited is refused', async () => {
    t = createTestApp({ config: { transferSettleSeconds: 0, buyOrderReleaseSeconds: 0 } });
    const a = newDeveloper(t, { php: '0' });
    const b = newDeveloper(t, { php: '0' });
    const send = (from: typeof a, to: typeof a, amount: string) =>
      t.signed('POST', '/v3/transfers/', {
        ...as(from),
        body: { account: from.php, target_address: to.php, amount },
      });
    const settle = async (sent: { body: { transfer: { id: string } } }) =>
      expect(
        (
          await t.request('POST', `/_sandbox/transfers/${sent.body.transfer.id}/status`, {
            body: { status: 'success' },
          })
        ).status,
      ).toBe(200);
    // a receives 10000000000 from outside, then 7 round trips: 80000000000 received, 10000000000 of room.
    await buyAndRelease(a);
    for (let i = 0; i < 7; i++) {
      await settle(await send(a, b, MAX_AMOUNT));
      await settle(await send(b, a, MAX_AMOUNT));
    }
    // b has enough for both sends below: what refuses the second is a's room, not b's balance.
    await buyAndRelease(b);
    await buyAndRelease(b);
    // 6000000000 on its way to a: a pending transfer and a pending crypto payment.
    const first = await send(b, a, '3000000000');
    expect(first.status).toBe(201);
    const payment = await t.signed('POST', '/v3/crypto-payments/', {
      ...as(b),
      body: { account: b.php, target_address: a.php, amount: '3000000000' },
    });
    expect(payment.status).toBe(201);

    const transfers = () => t.db.prepare('SELECT count(*) FROM transfers').pluck().get();
    const before = { b: balanceOf(t, b.php), a: balanceOf(t, a.php), transfers: transfers() };
    const second = await send(b, a, '5000000000');
    expect(second.status).toBe(400);
    expect(second.body.errors).toEqual({ amount: [LIMIT_MESSAGE("the account's total received")] });
    // A buy order of a marked paid is refused too: its release could never be credited either.
    const placed = await t.signed('POST', '/api/v2/buyorder/', {
      ...as(a),
      body: { currency_amount: '5000000000', payment_method: 'cash_payment', currency: 'PHP' },
    });
    const paid = await t.signed('PUT', `/d/api/buyorder/${placed.body.order.id}/`, as(a));
    expect(paid.status).toBe(400);
    expect(paid.body.errors).toEqual({ amount: [LIMIT_MESSAGE("the account's total received")] });
    expect({ b: balanceOf(t, b.php), a: balanceOf(t, a.php), transfers: transfers() }).toEqual(
      before,
    );
    // What fits still goes: both settle, and a send of the room left is taken.
    await settle(first);
    expect(
      (
        await t.request(
          'POST',
          `/_sandbox/crypto-payments/${payment.body['crypto-payment'].id}/status`,
          { body: { status: 'success' } },
        )
      ).status,
    ).toBe(200);
    const rest = await send(b, a, '4000000000');
    expect(rest.status).toBe(201);
    await settle(rest);
    expect(t.services.ledger.get(a.php)?.total_received).toBe(9n * MAX_AMOUNT_UNITS);
    expect(checkLedgerInvariants(t.db)).toMatchObject({ ok: true, problems: [] });
  });
});

describe('the system funding account', () => {
  it('is bounded too: fundings past 90000000000 in one currency are refused, and the invariant check still sums', async () => {
    t = createTestApp();
    const wallets = Array.from({ length: 12 }, () => newDeveloper(t, { php: '0' }).php);
    let refused: { status: number; body: any } | undefined;
    fund: for (const id of wallets) {
      for (let i = 0; i < 10; i++) {
        const res = await t.request('POST', `/_sandbox/accounts/${id}/fund`, {
          body: { amount: '1000000000' },
        });
        if (res.status !== 200) {
          refused = res;
          break fund;
        }
      }
    }
    expect(refused?.status).toBe(400);
    expect(refused?.body).toEqual({
      error_codes: ['validation_error'],
      errors: { amount: [LIMIT_MESSAGE("the sandbox's PHP system account")] },
    });
    // A new app or customer whose opening balance would pass it: refused on the field that was sent.
    for (const path of ['/_sandbox/apps', '/_sandbox/customers']) {
      const res = await t.request('POST', path, { body: { balance: '1000000000' } });
      expect(res.status, path).toBe(400);
      expect(res.body.errors, path).toEqual({
        balance: [LIMIT_MESSAGE("the sandbox's PHP system account")],
      });
    }
    const funding = t.services.ledger.get('system-funding')!;
    expect(-funding.balance).toBeLessThanOrEqual(MAX_ACCOUNT_UNITS);
    expect(-funding.balance + 1_000_000_000n * 100_000_000n).toBeGreaterThan(MAX_ACCOUNT_UNITS);
    expect(storedTypes()).toEqual(['integer']);
    const report = await t.request('GET', '/_sandbox/ledger/invariants');
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ ok: true, problems: [] });
  });
});

describe('currencies', () => {
  it('a fresh sandbox balances per currency, and funding a BTC wallet debits the BTC funding account', async () => {
    t = createTestApp();
    const fresh = await t.request('GET', '/_sandbox/ledger/invariants');
    expect(fresh.body.ok).toBe(true);
    for (const c of fresh.body.currencies) expect(c.trial_balance, c.currency).toBe('0.00000000');
    expect(fresh.body.currencies.map((c: { currency: string }) => c.currency)).toContain('BTC');

    const dev = newDeveloper(t, { php: '0' });
    const before = t.services.ledger.get('system-funding-btc')?.balance ?? 0n;
    expect(
      (await t.request('POST', `/_sandbox/accounts/${dev.btc}/fund`, { body: { amount: '0.5' } }))
        .status,
    ).toBe(200);
    expect(t.services.ledger.get('system-funding-btc')!.balance).toBe(before - 50_000_000n);
    expect((await t.request('GET', '/_sandbox/ledger/invariants')).body).toMatchObject({
      ok: true,
      problems: [],
    });
  });
});
