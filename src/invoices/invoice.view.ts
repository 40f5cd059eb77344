import { formatTimestamp } from '../shared/clock.js';
import { formatDecimal, formatMoney, UNITS_PER_PESO } from '../shared/money.js';
import { coinUnitsFor, PESOS_PER_COIN } from '../shared/rates.js';
import type { EventBody, EventName } from '../events/outbox.repo.js';
import { amountDue, collectorsOf } from './invoice.model.js';
import type { InvoiceRow, PaymentRow } from './invoices.repo.js';

const BTC_RATE = PESOS_PER_COIN.BTC!;
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/**
 * A pay-to-script-hash-looking address for the invoice (`3` + 33 base58 characters), derived from its
 * id: the real service shows the bitcoin address an invoice can also be paid to; nothing pays it here.
 */
export function incomingAddress(invoiceId: string): string {
  let out = '3';
  for (let i = 0; i < 33; i++)
    out += BASE58[parseInt(invoiceId[i % invoiceId.length]!, 16) * 3 + (i % 3)]!;
  return out;
}

/**
 * The invoice resource (docs/design.md#public-api), as the real service shapes it. The fields of its
 * bitcoin era keep their recorded form: `locked_rate` and `initial_rate` (pesos per BTC, the sandbox's
 * fixed rate), `incoming_address`, `btc_amount_due` (amount_due at that rate), empty sender fields and
 * `payment_collector_fee_placement: "top"`.
 */
export function invoiceResource(
  row: InvoiceRow,
  payments: PaymentRow[],
  ctx: { receiver: string; publicUrl: string; nowMicros: number },
) {
  const expiresAt = Number(row.expires_at);
  let expiresIn: string | null = null;
  if (row.status === 'pending')
    expiresIn = String(Math.max(0, Math.floor((expiresAt - ctx.nowMicros) / 1_000_000)));
  return {
    id: row.id,
    note: '',
    note_scope: 'private',
    status: row.status,
    category: 'merchant' as const,
    amount: formatMoney(row.amount),
    amount_due: formatMoney(amountDue(row)),
    locked_rate: formatMoney(BTC_RATE * UNITS_PER_PESO),
    initial_rate: formatMoney(BTC_RATE * UNITS_PER_PESO),
    incoming_address: incomingAddress(row.id),
    amount_received: formatMoney(row.amount_received),
    currency: row.currency,
    external_transaction_id: row.external_transaction_id,
    description: row.description,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    payment_url: `${ctx.publicUrl}/payment/invoice/${row.id}`,
    supported_payment_collectors: [...row.supported_payment_collectors],
    current_payment_reference_number: row.current_payment_reference_number,
    payments: payments.map(paymentResource),
    receiver: ctx.receiver,
    created_at: formatTimestamp(Number(row.created_at)),
    updated_at: formatTimestamp(Number(row.updated_at)),
    expires_at: formatTimestamp(expiresAt),
    sender_name: '',
    sender_email: '',
    sender_mobile_number: '',
    payment_collector_fee_placement: 'top',
    btc_amount_due: formatMoney(coinUnitsFor(amountDue(row), BTC_RATE)),
    expires_in_seconds: expiresIn,
  };
}

export type InvoiceResource = ReturnType<typeof invoiceResource>;

export function paymentResource(p: PaymentRow) {
  return {
    id: p.id,
    amount: formatMoney(p.amount),
    payment_collector: p.payment_collector,
    reference_number: p.reference_number,
    created_at: formatTimestamp(Number(p.created_at)),
  };
}

/**
 * The callback body of an invoice event (docs/design.md#invoice-lifecycle-and-events). Its amounts are
 * unpadded (`"10"`, `"0"`), as in the real callback a shop recorded and the documented example
 * (parity/recorded/callbacks.har), although the invoice API writes the same amounts with 8 decimals.
 */
export function eventBody(
  name: EventName,
  row: Pick<
    InvoiceRow,
    'id' | 'currency' | 'amount' | 'amount_received' | 'external_transaction_id'
  >,
): EventBody {
  return {
    event: {
      name,
      data: {
        id: row.id,
        currency: row.currency,
        amount: formatDecimal(row.amount),
        amount_received: formatDecimal(row.amount_received),
        external_transaction_id: row.external_transaction_id,
      },
    },
  };
}
