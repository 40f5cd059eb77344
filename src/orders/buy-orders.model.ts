import { CASH_PAYMENT_COLLECTORS } from '../invoices/invoice.model.js';
import { formatMoneyShort } from '../shared/money.js';
import type { BuyOrderStatus } from './orders.repo.js';

/** How long a new buy order waits for payment before its escrow expires. */
export const BUY_ORDER_LIFETIME_SECONDS = 24 * 3600;

/**
 * Where each buy order status may go (docs/design.md#public-api). Only a paid order can be released, so
 * money never reaches a wallet for an order nobody marked paid; terminal statuses go nowhere.
 */
export const BUY_ORDER_TRANSITIONS: Record<BuyOrderStatus, BuyOrderStatus[]> = {
  pending_payment: ['payment_received', 'canceled', 'escrow_expired'],
  payment_received: ['released', 'canceled'],
  released: [],
  canceled: [],
  escrow_expired: [],
};

/**
 * The bank-deposit payment methods of the real service's recorded buy orders and buy quotes
 * (`bdo_deposit`, `bpi_deposit` …): accepted as `payment_method`, paid by a deposit at that bank.
 */
export const BANK_DEPOSIT_METHODS: Readonly<Record<string, string>> = {
  bdo_deposit: 'BDO',
  'bdo-online_deposit': 'BDO Online Banking',
  bdoatm_deposit: 'BDO 24-hour ATM Deposit',
  bpi_deposit: 'BPI',
  bpie_deposit: 'BPI Express Deposit',
  citibank_deposit: 'Citibank',
  metrobank_deposit: 'Metrobank',
  securitybank_deposit: 'Security Bank',
  unionbank_deposit: 'UnionBank',
};

/** The collector that stands for any of the over-the-counter outlets. */
export const CASH_PAYMENT = 'cash_payment';

/** `currency` values that mean the peso wallet (`PBTC` is the real service's name for it). */
export function walletCurrency(input: string | undefined): string {
  const c = (input ?? 'PHP').toUpperCase();
  return c === 'PBTC' ? 'PHP' : c;
}

/**
 * What the buyer is told to do: the pay-in outlet's own text, or for `cash_payment` the outlets it covers,
 * always with the order id as the reference to give at the counter (the real text is not public).
 */
export function instructionsFor(
  method: {
    collector: string;
    outlet?: { name: string; instructions: string };
    cashOutlets: string[];
  },
  order: { id: string; amount: bigint; currency: string },
): string {
  const pay = `Pay ${formatMoneyShort(order.amount)} ${order.currency}`;
  const ref = `Reference number: ${order.id}.`;
  const bank = BANK_DEPOSIT_METHODS[method.collector];
  if (bank)
    return `Deposit ${formatMoneyShort(order.amount)} ${order.currency} to our ${bank} bank account. ${ref}`;
  if (method.outlet) return `${pay} at ${method.outlet.name}. ${method.outlet.instructions} ${ref}`;
  const names = method.cashOutlets;
  const where =
    names.length > 1
      ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`
      : (names[0] ?? 'a pay-in outlet');
  return `${pay} in cash at ${where}. ${ref}`;
}

export { CASH_PAYMENT_COLLECTORS };
