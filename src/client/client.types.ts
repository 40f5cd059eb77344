/**
 * Hand-written types of the public API's wire shapes (openapi/openapi.yaml, components.schemas).
 * Money is a string with exactly 8 fractional digits; ids are 32 lowercase hex characters;
 * timestamps are ISO 8601 UTC with microseconds and `Z`. The merchant API's invoices and callbacks are
 * here; the developer API's wallets, orders, transfers and outlets are in developer.types.ts.
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
