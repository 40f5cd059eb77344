import type {
  AmountInput,
  EventName,
  Invoice,
  Money,
  PageMeta,
  PaymentCollector,
  Payment,
  Timestamp,
} from './client.types.js';

/** Shapes of the sandbox control API (`/_sandbox`, tag `sandbox` of the document). */

export interface SandboxMerchant {
  id: string;
  name: string;
  merchant_api_token: string;
  bearer_token: string | null;
  callback_url: string | null;
  redirect_url: string | null;
  enabled_payment_collectors: PaymentCollector[];
  callback_auth: 'https-only' | 'always' | 'never';
  wallet_account_id: string;
  max_invoice_amount?: Money;
  invoice_lifetime_seconds?: number;
}

export interface SandboxMerchantInput {
  name?: string;
  callback_url?: string | null;
  redirect_url?: string | null;
  enabled_payment_collectors?: PaymentCollector[];
  callback_auth?: 'https-only' | 'always' | 'never';
  max_invoice_amount?: AmountInput;
  invoice_lifetime_seconds?: number;
}

export interface SandboxAccountSummary {
  id: string;
  name: string;
  currency: string;
  balance: Money;
}

/** An OAuth2 access token of an app: `Authorization: Bearer <access_token>` on the developer API. */
export interface AppAccessToken {
  access_token: string;
  token_type: 'Bearer';
  /** Seconds left on the sandbox clock. */
  expires_in: number;
  scope: string;
  expires_at: string;
}

export interface SandboxApp {
  api_key: string;
  api_secret: string;
  name?: string;
  mfa_whitelisted: boolean;
  /** The owner is a business account (HMAC sell orders need one). */
  business_account?: boolean;
  /** The owner's daily cash-in limit for buy orders (PHP); null: none. */
  daily_buy_limit?: string | null;
  otp_secret: string;
  last_nonce?: string | null;
  owner: { id: string; name: string; email?: string; accounts: SandboxAccountSummary[] };
}

export interface SandboxCustomer {
  id: string;
  name?: string;
  email: string;
  mobile_number: string;
  password: string;
  accounts: SandboxAccountSummary[];
}

export interface SandboxAccount {
  id: string;
  name: string;
  currency: string;
  balance: Money;
  pending_balance: Money;
  owner: { type: 'merchant' | 'user' | 'system'; id: string };
}

export interface Workspace {
  id: string;
  expires_at: Timestamp;
  merchant: SandboxMerchant;
  app: SandboxApp;
  customer: SandboxCustomer;
}

export interface Clock {
  now: Timestamp;
  offset_seconds: number;
}

export interface PayInvoiceInput {
  /** `coins_peso_wallet`, `cash_payment` or an outlet code. */
  collector: string;
  amount?: AmountInput;
  /** Customer id or email (wallet payments); default the first fixture customer. */
  customer?: string;
}

export interface PaymentOutcome {
  payment: Payment;
  invoice: Invoice;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'delivered' | 'failed';

export interface DeliveryAttempt {
  attempt: number;
  started_at: Timestamp;
  url: string;
  request_headers: Record<string, string>;
  request_body: string;
  status_code: number | null;
  response_excerpt?: string | null;
  duration_ms: number;
  error: string | null;
}

export interface Delivery {
  id: string;
  event_id: string;
  event: EventName;
  invoice_id: string;
  url: string | null;
  status: DeliveryStatus;
  attempts_count: number;
  next_attempt_at: Timestamp | null;
  created_at: Timestamp;
  /** What made this send: the event happening, a redelivery, or a manual send. */
  kind?: 'event' | 'redelivery' | 'manual';
  /** Why a delivery that is not finished waits (queued behind another, or its next attempt). */
  waiting_reason?: string | null;
  body?: Record<string, unknown>;
  attempts?: DeliveryAttempt[];
}

export interface DeliveryQuery {
  page?: number;
  per_page?: number;
  invoice_id?: string;
  event?: EventName;
  status?: DeliveryStatus;
  /** Long-poll up to this many seconds until a delivery matches. */
  wait?: number;
}

export interface DeliveryPage {
  deliveries: Delivery[];
  meta: PageMeta;
}
