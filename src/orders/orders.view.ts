import { categoryOf } from '../outlets/outlets.catalog.js';
import { formatDecimal } from '../shared/money.js';
import type { BuyOrderRow, SellOrderRow } from './orders.repo.js';

const epochSeconds = (micros: bigint) => String(micros / 1_000_000n);

/**
 * The sell order resource as the real service writes it (the cash-out tutorial's body, recorded in
 * `parity/recorded`): unpadded amount, `created_time` in epoch seconds as a string, the outlet fields
 * (the payout destination `target_address` included) under `fields`, and `required_fields` naming each
 * field of the outlet's category with its legend and value. The fee and the debited total are not in
 * the real body: the sandbox sends them as `X-Sandbox-Fee` / `X-Sandbox-Total` (sellOrderHeaders).
 */
export function sellOrderResource(r: SellOrderRow) {
  const fields: Record<string, unknown> = { ...(JSON.parse(r.fields) as Record<string, unknown>) };
  if (r.target_address !== null) fields.target_address = r.target_address;
  const category = categoryOf(r.outlet_category ?? '');
  const known = category?.fields.filter((f) => fields[f.id] !== undefined) ?? [];
  return {
    amount: formatDecimal(r.amount),
    created_time: epochSeconds(r.created_at),
    currency: r.currency,
    delivery_status: r.delivery_status,
    external_transaction_id: r.external_transaction_id,
    fields,
    id: r.id,
    payment_outlet: { id: r.outlet_id, name: r.outlet_name, payment_outlet_provider_id: null },
    required_fields: known.map((f) => ({
      legend: f.name,
      name: f.id,
      value: String(fields[f.id]),
    })),
  };
}

/**
 * A sell order as the history lists it (the recorded v1 history item, `GET /v1/sellorder`): the resource
 * plus the order's accounting as the real service writes it. The sandbox's orders are paid from the
 * wallet when they are created, at rate 1: `btc_amount` and `btc_received` are what the wallet paid
 * (amount + fee), nothing is due or pending; the peso side is the amount, its fee, and what has been
 * settled (the amount once completed). `confirmation_code` is the id's first 8 characters, as recorded.
 */
export function sellOrderHistoryItem(r: SellOrderRow) {
  const paid = formatDecimal(r.amount + r.fee);
  return {
    ...sellOrderResource(r),
    btc_amount: paid,
    btc_pending: '0',
    btc_received: paid,
    confirmation_code: r.id.slice(0, 8),
    confirmations: [],
    currency_amount: formatDecimal(r.amount),
    currency_amount_locked: formatDecimal(r.amount),
    currency_amount_received: formatDecimal(r.amount),
    currency_fees: formatDecimal(r.fee),
    currency_fees_locked: formatDecimal(r.fee),
    currency_net: formatDecimal(r.amount),
    currency_settled: formatDecimal(r.delivery_status === 'completed' ? r.amount : 0n),
    due_btc_amount: '0',
    estimated_delivery_time: null,
    favorite_id: null,
    instructions: '',
    is_claiming_details_resend_enabled: false,
    is_claiming_details_resendable: false,
    is_express: false,
  };
}

/** The sandbox's own figures of a sell order, beside the real body: the fee and amount + fee (what the wallet paid). */
export function sellOrderHeaders(r: { fee: bigint; amount: bigint }): Record<string, string> {
  return {
    'X-Sandbox-Fee': formatDecimal(r.fee),
    'X-Sandbox-Total': formatDecimal(r.amount + r.fee),
  };
}

/** The sandbox's exchange rate for buy orders: each buys into a wallet of its own currency. */
const BUY_RATE = 100_000_000n;

/**
 * The buy order resource in the real shape (the recorded buy orders, key for key): amounts unpadded
 * ("624", "0.025"); `created_at`, `expiration_time`, `marked_paid_time` and `canceled_time` are epoch
 * seconds strings (null until they happen); `btc_amount` is what the wallet receives at `rate` 1 and
 * `btc_released` what it has received ("0" until released); `wallet_address` is the credited wallet's
 * address. The real body names no currency: the wallet the order credits decides it.
 */
export function buyOrderResource(r: BuyOrderRow) {
  const btc = (r.amount * BUY_RATE) / 100_000_000n;
  return {
    btc_amount: formatDecimal(btc),
    btc_released: formatDecimal(r.status === 'released' ? btc : 0n),
    canceled_time: r.canceled_at === null ? null : epochSeconds(r.canceled_at),
    created_at: epochSeconds(r.created_at),
    currency_amount: formatDecimal(r.amount),
    expiration_time: epochSeconds(r.expires_at),
    id: r.id,
    instructions: r.instructions ?? '',
    marked_paid_time: r.marked_paid_at === null ? null : epochSeconds(r.marked_paid_at),
    payment_method: r.payment_method,
    rate: formatDecimal(BUY_RATE),
    status: r.status,
    wallet_address: r.wallet_address,
  };
}

/**
 * The create's answer as both recorded creates write it (parity/recorded buyorders.har#0, #4): the buy order
 * without `expiration_time` and `instructions`, which the retrieve adds.
 */
export function buyOrderCreated(order: ReturnType<typeof buyOrderResource>) {
  return {
    btc_amount: order.btc_amount,
    btc_released: order.btc_released,
    canceled_time: null,
    created_at: order.created_at,
    currency_amount: order.currency_amount,
    id: order.id,
    marked_paid_time: null,
    payment_method: order.payment_method,
    rate: order.rate,
    status: 'pending_payment' as const,
    wallet_address: order.wallet_address,
  };
}
