import type { InvoiceRow } from './invoices.repo.js';

/**
 * The rules of one invoice, as pure functions of its row (docs/design.md#invoice-lifecycle-and-events):
 * the one place that says what is due, which collectors it takes and how it is paid over the counter.
 */

export const WALLET_COLLECTOR = 'coins_peso_wallet';
/** Collectors that pay over the counter: `cash_payment` (any outlet) and the outlet-specific ones. */
export const COUNTER_COLLECTORS = [
  'cash_payment',
  'seven_connect_deposit',
  'mlhuillier_deposit',
  'cebuana_lhuillier_deposit',
  'bayad_deposit',
  'palawan_deposit',
];

/**
 * The outlets that `cash_payment` stands for: the over-the-counter collectors the real service documents
 * today. Palawan appears only in its older lists, so it takes its own `palawan_deposit`.
 */
export const CASH_PAYMENT_COLLECTORS = ['seven_connect_deposit', 'mlhuillier_deposit', 'cebuana_lhuillier_deposit', 'bayad_deposit'];

type Amounts = Pick<InvoiceRow, 'amount' | 'amount_received'>;

/** What is still to pay; never below zero (an over-payment is kept, nothing more is due). */
export function amountDue(inv: Amounts): bigint {
  return inv.amount > inv.amount_received ? inv.amount - inv.amount_received : 0n;
}

/**
 * The invoice's status at `now` (its merchant's clock): a pending invoice past its `expires_at` is
 * expired, whether or not the clock's due work has written that yet.
 */
export function statusAt(inv: Pick<InvoiceRow, 'status' | 'expires_at'>, now: number): InvoiceRow['status'] {
  return inv.status === 'pending' && Number(inv.expires_at) <= now ? 'expired' : inv.status;
}

// Rows are read often and their collector list never changes: parse each stored list once.
const parsed = new Map<string, readonly string[]>();

/** The invoice's `supported_payment_collectors`, as a list. */
export function collectorsOf(inv: Pick<InvoiceRow, 'supported_payment_collectors'>): readonly string[] {
  const raw = inv.supported_payment_collectors;
  let list = parsed.get(raw);
  if (!list) {
    list = Object.freeze(JSON.parse(raw) as string[]);
    if (parsed.size >= 256) parsed.clear();
    parsed.set(raw, list);
  }
  return list;
}

/** Whether a payment by `collector` is one of the invoice's options (`cash_payment` covers its four outlets). */
export function accepts(inv: Pick<InvoiceRow, 'supported_payment_collectors'>, collector: string): boolean {
  const supported = collectorsOf(inv);
  return supported.includes(collector) || (CASH_PAYMENT_COLLECTORS.includes(collector) && supported.includes('cash_payment'));
}

/** The collector to pay over the counter with: `cash_payment` when offered, else the first outlet one, or null. */
export function counterCollector(inv: Pick<InvoiceRow, 'supported_payment_collectors'>): string | null {
  const supported = collectorsOf(inv);
  if (supported.includes('cash_payment')) return 'cash_payment';
  return supported.find((c) => COUNTER_COLLECTORS.includes(c)) ?? null;
}
