import { afterEach, describe, expect, it } from 'vitest';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { MAX_AMOUNT_UNITS } from '../shared/money.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { checkLedgerInvariants } from './invariants.js';
import { LIMIT_MESSAGE, MAX_AMOUNT, moneyBoundsSteps } from './money-bounds.test-support.js';

/**
 * The bounds on money (docs/design.md#money-bounds) as buy orders reach them, through the developer API
 * and the control API: a release past what the sandbox keeps exact is refused before anything moves,
 * and the clock cancels an order it cannot release. The wallets' own bounds are in
 * money-bounds.wallets.test.ts. Each test failed before the bounds: SQLite turned a balance past int64
 * into a float.
 */
let t: TestApp;
afterEach(() => t?.close());
const { buyAndRelease, storedTypes } = moneyBoundsSteps(() => t);

/** Buy orders of the largest amount, released at once, until one is refused; returns the refusal. */
async function fillFromOutside(dev: ReturnType<typeof newDeveloper>) {
  for (let i = 0; i < 12; i++) {
    const { id, paid } = await buyAndRelease(dev);
    if (paid.status !== 200) return { id, paid, released: i };
  }
  throw new Error('never refused');
}

describe('money from outside', () => {
  it('stays exact; a buy order past what the sandbox keeps exact is refused with a 400 before anything moves', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '0' });
    const refused = await fillFromOutside(dev);
    // The peso funding account is the counterparty of every release: it reaches its bound first.
    expect(refused.released).toBe(8);
    expect(refused.paid.status).toBe(400);
    expect(refused.paid.body.errors).toEqual({
      amount: [LIMIT_MESSAGE("the sandbox's PHP system account")],
    });
    expect(balanceOf(t, dev.php)).toBe(8n * MAX_AMOUNT_UNITS);
    const view = await t.signed('GET', '/v3/crypto-accounts/?currency=PBTC', as(dev));
    expect(view.body['crypto-accounts'][0]).toMatchObject({
      balance: '80000000000.00000000',
      total_received: '80000000000.00000000',
    });
    const order = await t.signed('GET', `/v1/buyorder/${refused.id}`, as(dev));
    expect(order.body.order.status).toBe('pending_payment');
    // The control API's release of a paid order is refused the same way (400, nothing moves).
    expect(
      (
        await t.request('POST', `/_sandbox/buyorders/${refused.id}/status`, {
          body: { status: 'payment_received' },
        })
      ).status,
    ).toBe(200);
    const release = await t.request('POST', `/_sandbox/buyorders/${refused.id}/status`, {
      body: { status: 'released' },
    });
    expect(release.status).toBe(400);
    expect(balanceOf(t, dev.php)).toBe(8n * MAX_AMOUNT_UNITS);
    expect(storedTypes()).toEqual(['integer']);
    expect(checkLedgerInvariants(t.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('orders marked paid and not yet released hold their room: the next mark-paid is refused, none is canceled later', async () => {
    t = createTestApp({ config: { buyOrderReleaseSeconds: 60 } });
    const dev = newDeveloper(t, { php: '0' });
    // 7 releases of the largest amount: the funding account has room for one more.
    for (let i = 0; i < 7; i++) expect((await buyAndRelease(dev)).paid.status).toBe(200);
    const place = async () => {
      const placed = await t.signed('POST', '/api/v2/buyorder/', {
        ...as(dev),
        body: { currency_amount: MAX_AMOUNT, payment_method: 'cash_payment', currency: 'PHP' },
      });
      expect(placed.status).toBe(201);
      return placed.body.order.id as string;
    };
    const ids = [await place(), await place(), await place()];
    const marks = [];
    for (const id of ids) marks.push(await t.signed('PUT', `/d/api/buyorder/${id}/`, as(dev)));
    expect(marks.map((m) => m.status)).toEqual([200, 400, 400]);
    expect(marks[1]?.body.errors).toEqual({
      amount: [LIMIT_MESSAGE("the sandbox's PHP system account")],
    });
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 61 } });
    const statuses = [];
    for (const id of ids)
      statuses.push((await t.signed('GET', `/v1/buyorder/${id}`, as(dev))).body.order.status);
    // The acknowledged one is released; the refused ones were never paid (they expire on their own).
    expect(statuses).toEqual(['released', 'pending_payment', 'pending_payment']);
    expect(balanceOf(t, dev.php)).toBe(8n * MAX_AMOUNT_UNITS);
    expect(checkLedgerInvariants(t.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('a release the clock cannot make cancels the order instead of stalling the clock', async () => {
    t = createTestApp({ config: { buyOrderReleaseSeconds: 60 } });
    const dev = newDeveloper(t, { php: '0' });
    await fillFromOutside(dev);
    const created = await t.request('POST', '/_sandbox/buyorders', {
      body: {
        api_key: dev.app.api_key,
        amount: MAX_AMOUNT,
        currency: 'PHP',
        status: 'payment_received',
      },
    });
    expect(created.status).toBe(201);
    expect(
      (await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 61 } })).status,
    ).toBe(200);
    const order = await t.signed('GET', `/v1/buyorder/${created.body.order.id}`, as(dev));
    expect(order.body.order.status).toBe('canceled');
    expect(balanceOf(t, dev.php)).toBe(8n * MAX_AMOUNT_UNITS);
    expect(checkLedgerInvariants(t.db).ok).toBe(true);
  });
});

describe('a buy order created released through the control API', () => {
  const createReleased = (dev: ReturnType<typeof newDeveloper>, amount = MAX_AMOUNT) =>
    t.request('POST', '/_sandbox/buyorders', {
      body: { api_key: dev.app.api_key, amount, currency: 'PHP', status: 'released' },
    });
  const buyOrderCount = () => t.db.prepare('SELECT count(*) FROM buy_orders').pluck().get();

  it('credits the wallet in a buy_order_release transaction, as a release through the lifecycle does', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '0' });
    const res = await createReleased(dev, '5');
    expect(res.status).toBe(201);
    expect(res.body.order).toMatchObject({ status: 'released', btc_released: '5' });
    expect(balanceOf(t, dev.php)).toBe(500_000_000n);
    const tx = t.db
      .prepare('SELECT kind, reference FROM ledger_transactions WHERE reference = ?')
      .all(res.body.order.id);
    expect(tx).toEqual([{ kind: 'buy_order_release', reference: res.body.order.id }]);
    expect(checkLedgerInvariants(t.db)).toMatchObject({ ok: true, problems: [] });
  });

  it('past the bound is refused with the release’s 400, and nothing is written', async () => {
    t = createTestApp();
    const dev = newDeveloper(t, { php: '0' });
    await fillFromOutside(dev);
    const balance = balanceOf(t, dev.php);
    const orders = buyOrderCount();
    const res = await createReleased(dev);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error_codes: ['validation_error'],
      errors: { amount: [LIMIT_MESSAGE("the sandbox's PHP system account")] },
    });
    expect(balanceOf(t, dev.php)).toBe(balance);
    expect(buyOrderCount()).toBe(orders);
    expect(checkLedgerInvariants(t.db)).toMatchObject({ ok: true, problems: [] });
  });
});
