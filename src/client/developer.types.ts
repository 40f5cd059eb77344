import type { AmountInput, Money, OffsetMeta, PageMeta, Timestamp } from './client.types.js';

/**
 * Hand-written types of the developer API's wire shapes (HMAC-signed: wallets, sell and buy orders,
 * transfers, payout outlets and their fees), as openapi/openapi.yaml's components.schemas has them.
 * The shared wire conventions (money, timestamps, pages, errors) are in client.types.ts.
 */

/** An amount as the developer API writes it, without padding ("5", "0.00205"). */
export type Decimal = string;

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
