import { formatMoney } from '../shared/money.js';
import type { BuyOrderRow, SellOrderRow } from './orders.repo.js';

const epochSeconds = (micros: bigint) => String(micros / 1_000_000n);

/**
 * The sell order resource in the real shape (real-api-facts, Developer API resources): `created_time`
 * is epoch seconds as a string. `fee` and `total` (amount + fee, what the wallet was debited) are
 * sandbox additions the document lists as optional.
 */
export function sellOrderResource(r: SellOrderRow) {
  return {
    id: r.id,
    amount: formatMoney(r.amount),
    currency: r.currency,
    fee: formatMoney(r.fee),
    total: formatMoney(r.amount + r.fee),
    delivery_status: r.delivery_status,
    external_transaction_id: r.external_transaction_id,
    target_address: r.target_address,
    fields: JSON.parse(r.fields) as Record<string, unknown>,
    payment_outlet: { id: r.outlet_id, name: r.outlet_name },
    created_time: epochSeconds(r.created_at),
  };
}

/** The sandbox's exchange rate for buy orders: each buys into a wallet of its own currency. */
const BUY_RATE = 100_000_000n;

/**
 * The buy order resource in the real shape: `created_at`, `expiration_time`, `marked_paid_time` and
 * `canceled_time` are epoch seconds strings (null until they happen); `btc_amount` is what the wallet
 * receives at `rate` 1; `wallet_address` is the credited wallet's address.
 */
export function buyOrderResource(r: BuyOrderRow) {
  return {
    id: r.id,
    status: r.status,
    payment_method: r.payment_method,
    currency: r.currency,
    currency_amount: formatMoney(r.amount),
    btc_amount: formatMoney((r.amount * BUY_RATE) / 100_000_000n),
    rate: formatMoney(BUY_RATE),
    instructions: r.instructions ?? '',
    wallet_address: r.wallet_address,
    created_at: epochSeconds(r.created_at),
    expiration_time: epochSeconds(r.expires_at),
    marked_paid_time: r.marked_paid_at === null ? null : epochSeconds(r.marked_paid_at),
    canceled_time: r.canceled_at === null ? null : epochSeconds(r.canceled_at),
  };
}
