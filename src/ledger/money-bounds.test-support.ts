import { expect } from 'vitest';
import { as, type newDeveloper } from '../testing/developer.test-support.js';
import { formatMoney, MAX_AMOUNT_UNITS } from '../shared/money.js';
import type { TestApp } from '../testing/test-app.js';

/**
 * Test support for the money-bounds tests (money-bounds.buy-orders.test.ts,
 * money-bounds.wallets.test.ts): the largest amount, the refusal's message, and the steps both take
 * against the test's app.
 */

export const MAX_AMOUNT = formatMoney(MAX_AMOUNT_UNITS).replace(/\.0+$/, ''); // "10000000000"
export const LIMIT_MESSAGE = (whose: string, currency = 'PHP') =>
  `This would take ${whose} past 90000000000 ${currency}, the most the sandbox keeps exact.`;

/** The steps against the app `current()` returns (the one the running test made). */
export function moneyBoundsSteps(current: () => TestApp) {
  /** A buy order of the largest amount, marked paid and released at once (unless the mark is refused). */
  async function buyAndRelease(dev: ReturnType<typeof newDeveloper>) {
    const t = current();
    const placed = await t.signed('POST', '/api/v2/buyorder/', {
      ...as(dev),
      body: { currency_amount: MAX_AMOUNT, payment_method: 'cash_payment', currency: 'PHP' },
    });
    expect(placed.status).toBe(201);
    const id = placed.body.order.id as string;
    const paid = await t.signed('PUT', `/d/api/buyorder/${id}/`, as(dev));
    if (paid.status !== 200) return { id, paid };
    const released = await t.request('POST', `/_sandbox/buyorders/${id}/status`, {
      body: { status: 'released' },
    });
    expect(released.status).toBe(200);
    return { id, paid };
  }

  /** The SQLite types the accounts' balances and totals received are stored as. */
  const storedTypes = () =>
    current()
      .db.prepare(
        'SELECT DISTINCT typeof(balance) FROM accounts UNION SELECT DISTINCT typeof(total_received) FROM accounts',
      )
      .pluck()
      .all();

  return { buyAndRelease, storedTypes };
}
