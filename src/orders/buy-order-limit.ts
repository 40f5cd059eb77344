import type { App } from '../identities/identities.api.js';
import { ApiError } from '../shared/api-error.js';
import type { OrderRepository } from './orders.references.js';

/** A daily limit refreshes a day after each order (a rolling window, as the real service's limits do). */
const DAY_MICROS = 86_400 * 1_000_000;

export const DAILY_LIMIT_MESSAGE = 'This order exceeds your remaining daily limit.';

/**
 * The owner's daily cash-in limit (docs/fidelity.md, buy orders): the peso buy orders placed in the last
 * 24 hours of the owner's clock, except the canceled and expired ones, plus this one, may not pass the
 * app's `daily_buy_limit` (none when null). Checked inside the unit of work that inserts the order.
 */
export function checkDailyBuyLimit(
  orders: Pick<OrderRepository, 'buyPlacedSince'>,
  app: App,
  o: { amount: bigint; currency: string; now: number },
): void {
  if (app.daily_buy_limit === null || o.currency !== 'PHP') return;
  const limit = BigInt(app.daily_buy_limit);
  const placed = orders.buyPlacedSince(app.owner_id, o.currency, o.now - DAY_MICROS);
  if (placed + o.amount > limit)
    throw new ApiError(
      'daily_limit_exceeded',
      { non_field_errors: [DAILY_LIMIT_MESSAGE] },
      { daily_buy_limit: limit.toString(), placed_last_24h: placed.toString() },
    );
}
