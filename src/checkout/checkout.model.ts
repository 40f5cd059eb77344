import type { InvoiceStatus } from '../invoices/invoices.api.js';
import { formatMoneyShort, MAX_ACCOUNT_UNITS } from '../shared/money.js';

/** The bound on money (docs/design.md#money-bounds) as the hosted pages say it. */
export const RECEIVER_FULL = (whose: string) =>
  `${whose} wallet cannot take this payment: it would pass ${formatMoneyShort(MAX_ACCOUNT_UNITS)}, the most the sandbox keeps exact. Nothing was paid.`;

/** An over-the-counter outlet as the page offers it (the outlets module's pay-in outlets). */
export interface PayinOutlet {
  id: string;
  name: string;
  /** The payment collector code an outlet pays through (`seven_connect_deposit`, …). */
  collector: string;
  instructions: string;
}

export type PayMethod = 'wallet' | 'counter';
export type SandboxOutcome = 'full' | 'part' | 'expire';

/** Messages the page can show after an action; kept as data so every wording lives in one place. */
export const NOTICES = {
  login_failed: 'The email, mobile number or password is not right. Check them and try again.',
  session_expired: 'Your wallet session has ended. Log in again to pay.',
  insufficient_balance:
    'Insufficient balance: your wallet does not hold enough to pay this invoice.',
  unsupported_outlet: 'That outlet does not take payments for this invoice. Choose another one.',
  sandbox_unavailable:
    'The sandbox outcome chooser could not pay this invoice (no supported collector or funded customer).',
  /** A wallet payment the merchant's wallet cannot take (the bound on money). */
  receiver_full: RECEIVER_FULL("The merchant's"),
  /** The same, from the sandbox outcome chooser (shown in its own section). */
  sandbox_receiver_full: RECEIVER_FULL("The merchant's"),
} as const;

export type NoticeKind = keyof typeof NOTICES;

export interface CheckoutInvoice {
  id: string;
  status: InvoiceStatus;
  amount: bigint;
  amountDue: bigint;
  amountReceived: bigint;
  currency: string;
  description: string;
  externalId: string;
  /** Seconds left on the sandbox clock; null once the invoice is no longer pending. */
  expiresInSeconds: number | null;
  referenceNumber: string | null;
}

export interface CheckoutCustomer {
  name: string;
  balance: bigint;
  currency: string;
}

/** Everything the hosted page shows; the view renders it and nothing else. */
export interface CheckoutPage {
  invoice: CheckoutInvoice;
  merchantName: string;
  /** `redirect_url?invoice_id=<id>` once the invoice is fully paid or expired, when the merchant has one. */
  redirectTo: string | null;
  /** The same address while the invoice is pending: where the page goes when its poll sees payment or expiry. */
  returnUrl: string | null;
  /** Payment methods the invoice's collectors allow, in display order. */
  methods: PayMethod[];
  method: PayMethod | null;
  /** Outlets whose collector the invoice accepts (`cash_payment` means the four it stands for). */
  outlets: PayinOutlet[];
  outlet: PayinOutlet | null;
  /** Inline SVG of the reference number, when one is issued and the counter option is shown. */
  barcode: string | null;
  customer: CheckoutCustomer | null;
  notice: NoticeKind | null;
  /** What the customer typed in the login field (kept after a failed login). */
  loginValue: string;
  sandboxChooser: boolean;
  /** CSP nonce of this response's inline style and script. */
  nonce: string;
}

export interface CheckoutStatus {
  id: string;
  status: InvoiceStatus;
  amount: string;
  amount_due: string;
  amount_received: string;
  expires_in_seconds: string | null;
}

export interface PageRequest {
  method?: string;
  outletId?: string;
  session?: string;
  notice?: NoticeKind | null;
  loginValue?: string;
  nonce: string;
}
