/**
 * Hand-written types of the public API's wire shapes (openapi/openapi.yaml, components.schemas).
 * Money is a string with exactly 8 fractional digits; ids are 32 lowercase hex characters;
 * timestamps are ISO 8601 UTC with microseconds and `Z`.
 */

/** `"20.00000000"`. */
export type Money = string;
/** An input amount: a JSON number or a numeric string, at most 8 fractional digits. */
export type AmountInput = number | string;
/** `"2026-11-22T08:35:58.052291Z"`. */
export type Timestamp = string;

/**
 * An error body (docs/design.md#wire-conventions): `{"errors": {"<field>" | "non_field_errors": [...]}}`,
 * with `error_codes` on the merchant API (`[]` unless the real service sends a code) and the control API.
 */
export interface ErrorEnvelope {
  error_codes?: string[];
  errors: Record<string, string[]>;
  /** Sandbox only: its own code of the error and, on a signature mismatch, what the server signed. */
  sandbox_debug?: { code?: string } & Record<string, unknown>;
}

/** The 2FA failure has its own shape: 422 `{"errors": {"code": "Two-factor code invalid!"}, "success": false}`. */
export interface OtpErrorBody {
  errors: { code: string };
  success: false;
}

/** Page-based lists (`page`, `per_page`). */
export interface PageMeta {
  total_count: number;
  next_page: number | null;
  previous_page: number | null;
}

/** Offset-based lists (`limit`, `offset`): buy and sell orders. */
export interface OffsetMeta {
  pagination: { total: number; limit: number; offset: number };
}

export interface PageQuery {
  page?: number;
  per_page?: number;
}

export interface OffsetQuery {
  limit?: number;
  offset?: number;
}

export type InvoiceStatus = 'pending' | 'fully_paid' | 'expired' | 'canceled';

export type PaymentCollector =
  | 'coins_peso_wallet'
  | 'cash_payment'
  | 'seven_connect_deposit'
  | 'mlhuillier_deposit'
  | 'cebuana_lhuillier_deposit'
  | 'bayad_deposit'
  | 'palawan_deposit';

export interface InvoiceCreateInput {
  amount: AmountInput;
  currency: 'PHP';
  external_transaction_id: string;
  supported_payment_collectors?: PaymentCollector[];
  /** ISO 8601, or a delta such as `1w 3d 2h 32m 5s`. */
  expires_at?: string;
  description?: string;
  metadata?: Record<string, unknown>;
}

export interface Payment {
  id: string;
  amount: Money;
  payment_collector: string;
  reference_number: string | null;
  created_at: Timestamp;
}

export interface Invoice {
  id: string;
  status: InvoiceStatus;
  category: 'merchant';
  amount: Money;
  amount_due: Money;
  amount_received: Money;
  currency: string;
  external_transaction_id: string;
  description: string;
  note?: string;
  note_scope?: string;
  metadata: Record<string, unknown>;
  payment_url: string;
  supported_payment_collectors: string[];
  current_payment_reference_number: string | null;
  payments: Payment[];
  /** The merchant wallet account that receives settlements. */
  receiver: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  expires_at: Timestamp;
  /** Whole seconds left, as a string; null once the invoice is no longer pending. */
  expires_in_seconds: string | null;
  /** Pesos per BTC locked for the invoice (the real service's bitcoin-era fields, kept in their recorded form). */
  locked_rate: Money;
  initial_rate: Money;
  incoming_address: string;
  sender_name: string;
  sender_email: string;
  sender_mobile_number: string;
  payment_collector_fee_placement: string;
  /** amount_due in BTC at locked_rate. */
  btc_amount_due: Money;
}

export interface InvoiceListQuery extends PageQuery {
  status?: InvoiceStatus;
  external_transaction_id?: string;
}

export interface InvoicePage {
  invoices: Invoice[];
  meta: PageMeta;
}

export interface CryptoAccount {
  id: string;
  name: string;
  currency: string;
  balance: Money;
  pending_balance: Money;
  /** Everything ever credited to the account. */
  total_received: Money;
  default_address: string;
  /** The owner's first account of its currency. */
  is_default: boolean;
}

export interface CryptoAccountPage {
  'crypto-accounts': CryptoAccount[];
  meta: PageMeta;
}

export type SellOrderStatus =
  'pending_payment' | 'processing' | 'completed' | 'failed' | 'canceled';

export interface SellOrderCreateInput {
  amount: AmountInput;
  /** The payout outlet (`payment_outlet` is accepted too). */
  outlet_id?: string;
  payment_outlet?: string;
  currency?: string;
  pay_with_wallet?: string;
  target_address?: string;
  external_transaction_id?: string;
  fields?: Record<string, unknown>;
  otp?: string;
}

/** An amount as the developer API writes it, without padding ("5", "0.00205"). */
export type Decimal = string;

export interface SellOrder {
  /** Unpadded, as the real service writes it ("5"). */
  amount: Decimal;
  /** Epoch seconds, as a string. */
  created_time: string;
  currency: string;
  delivery_status: SellOrderStatus;
  external_transaction_id: string | null;
  /** The outlet fields as sent, the payout destination `target_address` among them. */
  fields: Record<string, unknown>;
  id: string;
  payment_outlet: { id: string; name: string; payment_outlet_provider_id: null };
  /** Each field of the outlet's category that the order carries, with its legend. */
  required_fields: Array<{ legend: string; name: string; value: string }>;
}

/**
 * A sell order as the history lists it: the order with its accounting (the recorded v1 history item).
 * Sandbox orders are paid from the wallet at creation, at rate 1: `btc_amount` and `btc_received` are
 * what the wallet paid (amount + fee), nothing is due or pending.
 */
export interface SellOrderHistoryItem extends SellOrder {
  btc_amount: Decimal;
  btc_pending: Decimal;
  btc_received: Decimal;
  /** The id's first 8 characters. */
  confirmation_code: string;
  confirmations: unknown[];
  currency_amount: Decimal;
  currency_amount_locked: Decimal;
  currency_amount_received: Decimal;
  currency_fees: Decimal;
  currency_fees_locked: Decimal;
  currency_net: Decimal;
  /** The amount once the order completed, "0" before. */
  currency_settled: Decimal;
  due_btc_amount: Decimal;
  estimated_delivery_time: null;
  favorite_id: null;
  instructions: string;
  is_claiming_details_resend_enabled: boolean;
  is_claiming_details_resendable: boolean;
  is_express: boolean;
}

export interface SellOrderPage {
  orders: SellOrderHistoryItem[];
  meta: OffsetMeta;
}

export type BuyOrderStatus =
  'pending_payment' | 'payment_received' | 'released' | 'canceled' | 'escrow_expired';

export interface BuyOrder {
  /** What the wallet receives when released (currency_amount × rate; the sandbox rate is 1), unpadded. */
  btc_amount: Decimal;
  /** What the wallet has received: "0" until released. */
  btc_released: Decimal;
  /** Epoch seconds, as a string; null until it happens. */
  canceled_time: string | null;
  /** Epoch seconds, as a string. */
  created_at: string;
  currency_amount: Decimal;
  expiration_time: string;
  id: string;
  instructions: string;
  /** Epoch seconds, as a string; null until it happens. */
  marked_paid_time: string | null;
  payment_method: string;
  rate: Decimal;
  status: BuyOrderStatus;
  wallet_address: string | null;
}

export interface BuyOrderPage {
  orders: BuyOrder[];
  meta: OffsetMeta;
}

export interface TransferCreateInput {
  /** The source wallet account id. */
  account: string;
  /** Another account id, a customer email or a mobile number. */
  target_address: string;
  amount: AmountInput;
  otp?: string;
}

export interface Transfer {
  id: string;
  account: string;
  /** Unpadded, as the real service writes it ("25"). */
  amount: Decimal;
  target_address: string;
  /** The crypto payment behind the transfer: none in the sandbox (wallet to wallet). */
  payment: null;
  /** The market the transfer converted through: none in the sandbox (one currency). */
  exchange: null;
  status: 'pending' | 'success' | 'failed';
  created_at: Timestamp;
}

export interface TransferPage {
  transfers: Transfer[];
  meta: PageMeta;
}

export interface PayoutOutlet {
  id: string;
  name: string;
  /** The outlet's category (`bank`, `e-wallet`, `remittance`, `coins_transfer`, `mobile-load`). */
  outlet_category?: string;
  /** What it pays out, in its currency: `[{currency, minimum, maximum, increment}]`. */
  amount_limits?: Array<{ currency: string; minimum: number; maximum: number; increment: number }>;
  region?: string;
}

export interface PayoutOutletPage {
  'payout-outlets': PayoutOutlet[];
  meta: PageMeta;
}

export interface PayoutOutletFee {
  id?: string;
  payment_outlet: string;
  currency: string;
  /** The bracket's amounts, unpadded as the recorded fee lists write them ("0", "1000", "10"). */
  from_amount: Decimal;
  until_amount: Decimal;
  fee_amount: Decimal;
  /** A fraction without trailing zeros, e.g. `"0.015"` for 1.5 %: fee = amount × fee_percent + fee_amount. */
  fee_percent: string;
}

export interface PayoutOutletFeePage {
  'partner-payout-outlet-fees': PayoutOutletFee[];
  meta: PageMeta;
}

export interface FeeQuote extends PayoutOutletFee {
  amount: Money;
  fee: Money;
  total: Money;
}

export type EventName =
  | 'invoice.created'
  | 'invoice.updated'
  | 'invoice.fully_paid'
  | 'invoice.payment_reference_number_generated';

/** The body POSTed to a merchant's callback_url. */
export interface CallbackEvent {
  event: {
    name: EventName;
    data: {
      id: string;
      currency: string;
      amount: Money;
      amount_received: Money;
      external_transaction_id: string;
    };
  };
}
