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

/** The buy order resource in the real shape: `created_at` and `expiration_time` are epoch seconds strings. */
export function buyOrderResource(r: BuyOrderRow) {
  return {
    id: r.id,
    status: r.status,
    payment_method: r.payment_method,
    currency: r.currency,
    currency_amount: formatMoney(r.amount),
    created_at: epochSeconds(r.created_at),
    expiration_time: epochSeconds(r.expires_at),
  };
}
