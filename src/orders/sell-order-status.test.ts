import { afterEach, describe, expect, it } from 'vitest';
import { SYSTEM_ACCOUNTS } from '../ledger/system-accounts.js';
import { parseAmount } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { balanceOf, whitelistedDeveloper } from '../testing/developer.test-support.js';
import type { FixtureSellOrder } from './orders.fixtures.js';

let t: TestApp;
afterEach(() => t.close());

const phpWallet = () => whitelistedDeveloper(t).accounts.find((a) => a.currency === 'PHP')!.id;
const setStatus = (id: string, status: string) =>
  t.request('POST', `/_sandbox/sellorders/${id}/status`, { body: { status } });
const statusOf = async (id: string) =>
  (await t.signed('GET', `/v1/sellorder/${id}`)).body.order.delivery_status as string;
const kindsOf = (reference: string) =>
  (
    t.db
      .prepare('SELECT kind FROM ledger_transactions WHERE reference = ? ORDER BY created_at')
      .all(reference) as Array<{ kind: string }>
  ).map((r) => r.kind);

/** A new order of 2000 at BDO: 1.5 % + 10 = 40 fee, 2040 debited. */
async function createOrder(): Promise<{ id: string; fee: string; total: string }> {
  const res = await t.signed('POST', '/v1/sellorder', { body: { outlet_id: 'bdo', amount: 2000 } });
  expect(res.status).toBe(201);
  return {
    id: res.body.order.id,
    fee: res.headers.get('x-sandbox-fee')!,
    total: res.headers.get('x-sandbox-total')!,
  };
}

describe('delivery status through the control API', () => {
  it('completes an order and pays the clearing amount out; the fee stays earned', async () => {
    t = createTestApp({ config: { sellOrderAutoAdvanceSeconds: 0 } });
    const before = balanceOf(t, phpWallet());
    const fees = balanceOf(t, SYSTEM_ACCOUNTS.payoutFees);
    const clearing = balanceOf(t, SYSTEM_ACCOUNTS.payoutClearing);
    const order = await createOrder();
    const moved = await setStatus(order.id, 'processing');
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      success: true,
      order: { id: order.id, delivery_status: 'processing' },
    });
    expect((await setStatus(order.id, 'completed')).body.order.delivery_status).toBe('completed');
    expect(await statusOf(order.id)).toBe('completed');
    expect(kindsOf(order.id)).toEqual(['sell_order', 'sell_order_payout']);
    expect(balanceOf(t, phpWallet())).toBe(before - parseAmount(order.total));
    expect(balanceOf(t, SYSTEM_ACCOUNTS.payoutClearing)).toBe(clearing);
    expect(balanceOf(t, SYSTEM_ACCOUNTS.payoutFees)).toBe(fees + parseAmount(order.fee));
    t.assertLedger();
    // The history item says the amount is settled once the order completed.
    const listed = (await t.signed('GET', '/v1/sellorder?limit=100')).body.orders.find(
      (o: { id: string }) => o.id === order.id,
    );
    expect(listed).toMatchObject({ delivery_status: 'completed', currency_fees: order.fee });
    expect(parseAmount(listed.currency_settled)).toBe(parseAmount(listed.amount));
  });

  it.each(['failed', 'canceled'])('refunds amount + fee when an order is %s', async (to) => {
    t = createTestApp({ config: { sellOrderAutoAdvanceSeconds: 0 } });
    const before = balanceOf(t, phpWallet());
    const fees = balanceOf(t, SYSTEM_ACCOUNTS.payoutFees);
    const order = await createOrder();
    expect(order).toMatchObject({ fee: '40', total: '2040' });
    expect(balanceOf(t, phpWallet())).toBe(before - parseAmount('2040'));
    if (to === 'failed') expect((await setStatus(order.id, 'processing')).status).toBe(200);
    const res = await setStatus(order.id, to);
    expect(res.status).toBe(200);
    expect(res.body.order.delivery_status).toBe(to);
    expect(kindsOf(order.id)).toEqual(['sell_order', 'sell_order_refund']);
    expect(balanceOf(t, phpWallet())).toBe(before);
    expect(balanceOf(t, SYSTEM_ACCOUNTS.payoutFees)).toBe(fees);
    t.assertLedger();
  });

  it.each([
    [['processing', 'completed'], 'failed', 'completed'],
    [['processing'], 'canceled', 'processing'],
    [['processing'], 'pending_payment', 'processing'],
    [[], 'pending_payment', 'pending_payment'],
    [['canceled'], 'processing', 'canceled'],
    [['processing', 'failed'], 'completed', 'failed'],
  ])('after %j refuses %s with 409 and moves no money', async (path, to, current) => {
    t = createTestApp({ config: { sellOrderAutoAdvanceSeconds: 0 } });
    const order = await createOrder();
    for (const step of path) expect((await setStatus(order.id, step)).status).toBe(200);
    const kinds = kindsOf(order.id);
    const res = await setStatus(order.id, to);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      error_codes: ['invalid_state_transition'],
      errors: { non_field_errors: [`Sell order is ${current} and cannot move to ${to}.`] },
    });
    expect(kindsOf(order.id)).toEqual(kinds);
    t.assertLedger();
  });

  it('answers 404 for an unknown order and 400 for an unknown status', async () => {
    t = createTestApp();
    const missing = await setStatus('f'.repeat(32), 'completed');
    expect(missing.status).toBe(404);
    const order = await createOrder();
    const bad = await setStatus(order.id, 'shipped');
    expect(bad.status).toBe(400);
    expect(bad.body.errors.status).toEqual(['"shipped" is not a valid choice.']);
  });
});

describe('fixture history', () => {
  it('loads with the fixture wallet balances and a consistent ledger', () => {
    t = createTestApp();
    for (const d of t.fixtures.developers)
      for (const a of d.accounts)
        expect(balanceOf(t, a.id), a.id).toBe(parseAmount(a.balance, { allowZero: true }));
    t.assertLedger();
  });

  it('refunds an in-flight fixture order from the money it holds in clearing', async () => {
    t = createTestApp();
    const dev = whitelistedDeveloper(t);
    const inFlight = (t.fixtures.sell_orders as FixtureSellOrder[]).find(
      (o) => o.owner_id === dev.id && o.delivery_status === 'pending_payment',
    )!;
    const before = balanceOf(t, inFlight.account_id);
    expect((await setStatus(inFlight.id, 'failed')).status).toBe(200);
    expect(balanceOf(t, inFlight.account_id)).toBe(
      before + parseAmount(inFlight.amount) + parseAmount(inFlight.fee, { allowZero: true }),
    );
    t.assertLedger();
  });

  it('keeps settled fixture orders where they are', async () => {
    t = createTestApp();
    const settled = (t.fixtures.sell_orders as FixtureSellOrder[]).find(
      (o) => o.delivery_status === 'completed',
    )!;
    expect((await setStatus(settled.id, 'failed')).status).toBe(409);
    t.assertLedger();
  });
});

describe('automatic progress on the sandbox clock', () => {
  it('moves pending_payment → processing → completed, one step per delay', async () => {
    t = createTestApp({ config: { sellOrderAutoAdvanceSeconds: 60 } });
    const order = await createOrder();
    t.advance(59);
    t.sandbox.tick();
    expect(await statusOf(order.id)).toBe('pending_payment');
    t.advance(1);
    t.sandbox.tick();
    expect(await statusOf(order.id)).toBe('processing');
    t.advance(59);
    t.sandbox.tick();
    expect(await statusOf(order.id)).toBe('processing');
    t.advance(1);
    t.sandbox.tick();
    expect(await statusOf(order.id)).toBe('completed');
    expect(kindsOf(order.id)).toEqual(['sell_order', 'sell_order_payout']);
    t.assertLedger();
  });

  it('catches up when the clock jumps several delays at once', async () => {
    t = createTestApp({ config: { sellOrderAutoAdvanceSeconds: 5 } });
    const order = await createOrder();
    t.advance(10);
    t.sandbox.tick();
    expect(await statusOf(order.id)).toBe('completed');
    t.assertLedger();
  });

  it('counts the delay from the last move made through the control API', async () => {
    t = createTestApp({ config: { sellOrderAutoAdvanceSeconds: 60 } });
    const order = await createOrder();
    t.advance(30);
    await setStatus(order.id, 'processing');
    t.advance(45);
    t.sandbox.tick();
    expect(await statusOf(order.id)).toBe('processing');
    t.advance(15);
    t.sandbox.tick();
    expect(await statusOf(order.id)).toBe('completed');
  });

  it('does nothing when the delay is 0, and never moves fixture history', async () => {
    t = createTestApp({ config: { sellOrderAutoAdvanceSeconds: 0 } });
    const order = await createOrder();
    t.advance(7 * 86400);
    t.sandbox.tick();
    expect(await statusOf(order.id)).toBe('pending_payment');
    t.close();
    t = createTestApp({ config: { sellOrderAutoAdvanceSeconds: 1 } });
    const inFlight = (t.fixtures.sell_orders as FixtureSellOrder[])
      .filter((o) => o.delivery_status === 'processing')
      .map((o) => o.id);
    t.advance(3600);
    t.sandbox.tick();
    const still = t.db
      .prepare(
        `SELECT COUNT(*) AS n FROM sell_orders WHERE delivery_status = 'processing' AND id IN (${inFlight.map(() => '?').join(',')})`,
      )
      .get(...inFlight) as { n: number };
    expect(still.n).toBe(inFlight.length);
  });
});
