import type { Invoice, Payment } from './invoices.api.js';

type InvoiceRow = Invoice;

/**
 * The rules of one invoice, as pure functions of its row (docs/design.md#invoice-lifecycle-and-events):
 * the one place that says what is due, which collectors it takes, how it is paid over the counter, and
 * how each state change (a payment, a reference number, expiry or cancellation) changes it.
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
export const CASH_PAYMENT_COLLECTORS = [
  'seven_connect_deposit',
  'mlhuillier_deposit',
  'cebuana_lhuillier_deposit',
  'bayad_deposit',
];

type Amounts = Pick<InvoiceRow, 'amount' | 'amount_received'>;

/** What is still to pay; never below zero (an over-payment is kept, nothing more is due). */
export function amountDue(inv: Amounts): bigint {
  return inv.amount > inv.amount_received ? inv.amount - inv.amount_received : 0n;
}

/**
 * The invoice's status at `now` (its merchant's clock): a pending invoice past its `expires_at` is
 * expired, whether or not the clock's due work has written that yet.
 */
export function statusAt(
  inv: Pick<InvoiceRow, 'status' | 'expires_at'>,
  now: number,
): InvoiceRow['status'] {
  return inv.status === 'pending' && Number(inv.expires_at) <= now ? 'expired' : inv.status;
}

// Rows are read often and their collector list never changes: parse each stored list once.
const parsed = new Map<string, readonly string[]>();

/** A stored `supported_payment_collectors` (a JSON list) as the frozen list an Invoice carries. */
export function parseCollectors(raw: string): readonly string[] {
  let list = parsed.get(raw);
  if (!list) {
    list = Object.freeze(JSON.parse(raw) as string[]);
    if (parsed.size >= 256) parsed.clear();
    parsed.set(raw, list);
  }
  return list;
}

/** The invoice's `supported_payment_collectors`. */
export function collectorsOf(
  inv: Pick<InvoiceRow, 'supported_payment_collectors'>,
): readonly string[] {
  return inv.supported_payment_collectors;
}

/** Whether a payment by `collector` is one of the invoice's options (`cash_payment` covers its four outlets). */
export function accepts(
  inv: Pick<InvoiceRow, 'supported_payment_collectors'>,
  collector: string,
): boolean {
  const supported = collectorsOf(inv);
  return (
    supported.includes(collector) ||
    (CASH_PAYMENT_COLLECTORS.includes(collector) && supported.includes('cash_payment'))
  );
}

/** The collector to pay over the counter with: `cash_payment` when offered, else the first outlet one, or null. */
export function counterCollector(
  inv: Pick<InvoiceRow, 'supported_payment_collectors'>,
): string | null {
  const supported = collectorsOf(inv);
  if (supported.includes('cash_payment')) return 'cash_payment';
  return supported.find((c) => COUNTER_COLLECTORS.includes(c)) ?? null;
}

/** The event an invoice change raises (src/events/outbox.repo.ts lists them all). */
export type InvoiceEvent =
  'invoice.updated' | 'invoice.fully_paid' | 'invoice.payment_reference_number_generated';

/**
 * One state change of an invoice, computed without touching storage: the invoice as it becomes, the
 * payment it records (if any) and the event it raises (if any). The invoices module applies it
 * (`InvoiceService.apply`), in the caller's unit of work.
 */
export interface InvoiceChange {
  invoice: Invoice;
  payment?: Payment;
  event: InvoiceEvent | null;
}

/**
 * A settled payment: `amount_received` rises, the invoice is `fully_paid` once it reaches the amount
 * (over-payment kept) and raises `invoice.fully_paid`, else it stays `pending` with `invoice.updated`.
 */
export function receivePayment(
  inv: Invoice,
  payment: Omit<Payment, 'invoice_id' | 'created_at'>,
  now: number,
): InvoiceChange & { payment: Payment } {
  const received = inv.amount_received + payment.amount;
  const status = received >= inv.amount ? 'fully_paid' : 'pending';
  return {
    invoice: { ...inv, amount_received: received, status, updated_at: BigInt(now) },
    payment: { ...payment, invoice_id: inv.id, created_at: BigInt(now) },
    event: status === 'fully_paid' ? 'invoice.fully_paid' : 'invoice.updated',
  };
}

/** An over-the-counter reference number issued for `collector`. */
export function issueReference(
  inv: Invoice,
  reference: string,
  collector: string,
  now: number,
): InvoiceChange {
  return {
    invoice: {
      ...inv,
      current_payment_reference_number: reference,
      current_payment_collector: collector,
      updated_at: BigInt(now),
    },
    event: 'invoice.payment_reference_number_generated',
  };
}

/** A pending invoice expired or canceled now; it raises `invoice.updated` only when `announce` (--expiry-events). */
export function close(
  inv: Invoice,
  status: 'expired' | 'canceled',
  now: number,
  announce: boolean,
): InvoiceChange {
  return {
    invoice: { ...inv, status, updated_at: BigInt(now) },
    event: announce ? 'invoice.updated' : null,
  };
}
