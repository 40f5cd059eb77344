/**
 * What the identities module gives other modules (docs/design.md#identities): merchants, developer
 * applications and users in domain types. Their tables are the module's own.
 */

/** A merchant: its credentials, callback and redirect settings, limits and peso wallet. */
export interface Merchant {
  id: string;
  name: string;
  merchant_api_token: string;
  bearer_token: string | null;
  callback_url: string | null;
  redirect_url: string | null;
  enabled_payment_collectors: string;
  max_invoice_amount: number;
  invoice_lifetime_seconds: number;
  callback_auth: 'https-only' | 'always' | 'never';
  wallet_account_id: string;
  workspace_id: string | null;
  disabled: number;
  created_at: number;
}

/** The merchant columns the control API may change. */
export const MERCHANT_SETTINGS = [
  'name',
  'callback_url',
  'redirect_url',
  'enabled_payment_collectors',
  'max_invoice_amount',
  'invoice_lifetime_seconds',
  'callback_auth',
] as const;
export type MerchantSetting = (typeof MERCHANT_SETTINGS)[number];

/** A developer (HMAC / OAuth2) application and the user who owns it. */
export interface App {
  api_key: string;
  api_secret: string;
  name: string;
  owner_id: string;
  mfa_whitelisted: number;
  otp_secret: string;
  last_nonce: string | null;
  workspace_id: string | null;
  disabled: number;
  created_at: number;
}

/** A customer (wallet login) or a developer (owner of apps). */
export interface User {
  id: string;
  kind: 'customer' | 'developer';
  name: string;
  email: string | null;
  mobile_number: string | null;
  password: string | null;
  workspace_id: string | null;
  created_at: number;
}
