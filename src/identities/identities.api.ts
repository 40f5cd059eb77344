import { ApiError } from '../shared/api-error.js';

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
  /** 1 when the developer account behind the app is a business account (HMAC sell orders need one). */
  business_account: number;
  /** The account's cash-in limit for buy orders over a rolling day, in units of 1e-8 PHP; null: none. */
  daily_buy_limit: number | null;
}

/**
 * What a new app needs; left out, `business_account` is true and `daily_buy_limit` is none (the real limits
 * depend on the account's level, which nothing publishes: a test sets one to exercise the refusal).
 */
export type NewApp = Omit<App, 'last_nonce' | 'disabled' | 'business_account' | 'daily_buy_limit'> &
  Partial<Pick<App, 'business_account' | 'daily_buy_limit'>>;

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

/** An OAuth2 access token of an app (the Bearer alternative to HMAC on the developer API). */
export interface AppToken {
  access_token: string;
  api_key: string;
  scope: string;
  /** Sandbox-clock microseconds, like every timestamp of the database. */
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** When it expired, recorded by the clock's due work: never live again, whatever the clock does after. */
  expired_at: number | null;
}

/** The apps' OAuth2 access tokens: live while not revoked, not expired on the sandbox clock, app enabled. */
export interface AppTokensApi {
  insert(token: Omit<AppToken, 'revoked_at' | 'expired_at'>): void;
  /** The app's live tokens, oldest first. */
  live(apiKey: string, now: number): AppToken[];
  /** The app's tokens that were not revoked, live and expired alike, oldest first. */
  unrevoked(apiKey: string): AppToken[];
  /** True when a live token of this app was revoked now. */
  revoke(apiKey: string, token: string, now: number): boolean;
  /** The enabled app a live token belongs to. */
  appOfToken(token: string, now: number): App | undefined;
  /** Record every token whose expiry `now` has reached as expired (at its `expires_at`); how many. */
  markExpired(now: number): number;
  /** True when some token has reached its expiry without being recorded as expired yet (a read only). */
  anyDue(now: number): boolean;
  /**
   * The earliest expiry not yet recorded, of a token neither expired nor revoked, on its app's clock: over
   * every token (`null`) or over the tokens of one workspace's apps (the guard of the due work).
   */
  nextExpiry(workspaceId: string | null): number | null;
}

/**
 * What other modules, the CLI and tests may ask of the identities module. Listings and "the first"
 * merchant or customer follow insertion order (the fixtures' own order first).
 */
export interface IdentitiesApi {
  /** Drop the credential caches (after a rollback of the write batch, and on reset). */
  forgetCached(): void;
  appTokens: AppTokensApi;
  /** An enabled merchant by its API token or bearer token. */
  merchantByToken(token: string): Merchant | undefined;
  merchantById(id: string): Merchant | undefined;
  firstMerchant(): Merchant | undefined;
  merchantsPage(limit: number, offset: number, workspaceId?: string): Merchant[];
  merchantsCount(workspaceId?: string): number;
  insertMerchant(m: Omit<Merchant, 'disabled'>): void;
  /** Change a merchant's settings; identity columns (id, tokens, wallet) are never updatable. */
  updateMerchant(id: string, fields: Partial<Pick<Merchant, MerchantSetting>>): void;
  appByKey(key: string): App | undefined;
  /** The app of an access key for signature checks (cached: its `last_nonce` may be older than stored). */
  appForAuth(key: string): App | undefined;
  appsPage(limit: number, offset: number, workspaceId?: string): App[];
  appsCount(workspaceId?: string): number;
  /** A new app; a business account with the default daily buy limit unless told otherwise. */
  insertApp(a: NewApp): void;
  /** True when the nonce was strictly greater than the last one and is now recorded. */
  advanceNonce(key: string, nonce: string): boolean;
  /**
   * Rows the nonce advances have changed on this connection so far: a cache that is valid while
   * SQLite's `total_changes()` stays put may subtract them (a nonce is in no page it keeps).
   */
  nonceWrites(): number;
  resetNonce(key: string): boolean;
  userById(id: string): User | undefined;
  /** A customer by email, mobile number or id, within one tenant (`null`: the base data). */
  customerByLogin(login: string, workspaceId: string | null): User | undefined;
  /** The oldest customer of a tenant (`null`: the base data). */
  firstCustomer(workspaceId?: string | null): User | undefined;
  /** The tenant of an account's owner: a workspace id, null for the base data, undefined for system accounts. */
  workspaceOfOwner(ownerType: string, ownerId: string): string | null | undefined;
  /** Whether the owner (`user` or `merchant`) is of a workspace that was deleted or has expired. */
  ownerWorkspaceEnded(ownerType: string, ownerId: string): boolean;
  customersPage(limit: number, offset: number, workspaceId?: string): User[];
  customersCount(workspaceId?: string): number;
  /** Any wallet user (a customer or an application's owner) by email, mobile number or id, in a tenant: who a send can reach. */
  walletUserByAddress(login: string, workspaceId: string | null): User | undefined;
  /** Whether any user has this email (case-insensitive) or this mobile number. */
  emailTaken(email: string): boolean;
  mobileTaken(mobile: string): boolean;
  /** The first enabled merchant of a workspace (a deleted workspace has none). */
  merchantOfWorkspace(workspaceId: string): Merchant | undefined;
  insertUser(u: User): void;
  /** Disable a deleted workspace's merchants and apps (and so their tokens). */
  disableWorkspace(workspaceId: string): void;
  /** Call `listener` when a workspace is disabled (deleted or expired): what a module keeps of its tenant ends. */
  onWorkspaceDisabled(listener: (workspaceId: string) => void): void;
}

/**
 * The control API's refusal of a write on a deleted (or expired) workspace's row (docs/design.md#workspaces):
 * its merchant, applications and customers are gone, so is its money. 409, as for its invoices; `refusal`
 * completes "The <what>'s workspace was deleted; …" (`it cannot be paid.`).
 */
export function requireLiveWorkspace(
  identities: Pick<IdentitiesApi, 'ownerWorkspaceEnded'>,
  owner: { type: 'user' | 'merchant'; id: string },
  what: string,
  refusal: string,
): void {
  if (identities.ownerWorkspaceEnded(owner.type, owner.id))
    throw ApiError.general(
      'invalid_state_transition',
      `The ${what}'s workspace was deleted; ${refusal}`,
    );
}
