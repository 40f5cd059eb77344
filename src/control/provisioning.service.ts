import { randomInt } from 'node:crypto';
import { newOtpSecret } from '../auth/otp.js';
import { fund } from '../fixtures/load.js';
import { ApiError } from '../shared/api-error.js';
import { CREDENTIAL_LENGTH, randomCredential } from '../shared/credentials.js';
import {
  requireLiveWorkspace,
  type App,
  type Merchant,
  type MerchantSetting,
  type User,
} from '../identities/identities.api.js';
import { COUNTER_COLLECTORS, WALLET_COLLECTOR } from '../payments/payments.service.js';
import type { ServicesWith } from '../module.types.js';
import { MAX_MERCHANT_LIMIT_UNITS, UNITS_PER_PESO } from '../shared/money.js';
import type { MerchantUrlScope } from '../shared/sandbox-url.js';
import { amountInput, fundingOf, collectFieldErrors, merchantUrl } from './control-input.js';
import type { ControlReads } from './control.reads.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger'>;

/** `SandboxMerchantInput` of the document (createMerchant, updateMerchant). */
export interface MerchantInput {
  name?: string;
  callback_url?: string | null;
  redirect_url?: string | null;
  enabled_payment_collectors?: string[];
  callback_auth?: Merchant['callback_auth'];
  max_invoice_amount?: unknown;
  invoice_lifetime_seconds?: number;
}

export interface AppInput {
  name?: string;
  mfa_whitelisted?: boolean;
  balance?: unknown;
  business_account?: boolean;
  daily_buy_limit?: unknown;
}

export interface CustomerInput {
  email?: string;
  mobile_number?: string;
  password?: string;
  balance?: unknown;
}

export const ALL_COLLECTORS = [WALLET_COLLECTOR, ...COUNTER_COLLECTORS];
const DEFAULT_APP_BALANCE = 100_000n * UNITS_PER_PESO;
const DEFAULT_CUSTOMER_BALANCE = 50_000n * UNITS_PER_PESO;

/** Merchants, developer applications and customers made through the control API (docs/design.md#control-api). */
export function createProvisioningService(s: ModuleServices, repo: ControlReads) {
  function phpWallet(ownerType: 'merchant' | 'user', ownerId: string, name: string): string {
    return s.ledger.createAccount({ ownerType, ownerId, name, currency: 'PHP' });
  }

  /**
   * Validate the fields present in the input of a merchant of `workspaceId` (null: the base data);
   * returns the columns they set. Its URLs may name the example receiver of a merchant of its own tenant only.
   */
  function merchantColumns(
    input: MerchantInput,
    workspaceId: string | null,
  ): Partial<Pick<Merchant, MerchantSetting>> {
    const scope: MerchantUrlScope = {
      own: s.config,
      tenantOf: (id) => {
        const m = s.identities.merchantById(id);
        if (m === undefined) return 'unknown';
        return m.workspace_id === workspaceId ? 'same' : 'other';
      },
    };
    const checked = collectFieldErrors({
      callback_url: () =>
        input.callback_url === undefined
          ? undefined
          : merchantUrl(input.callback_url, 'callback_url', scope),
      redirect_url: () =>
        input.redirect_url === undefined
          ? undefined
          : merchantUrl(input.redirect_url, 'redirect_url', scope),
      max_invoice_amount: () =>
        input.max_invoice_amount === undefined
          ? undefined
          : amountInput(input.max_invoice_amount, 'max_invoice_amount', MAX_MERCHANT_LIMIT_UNITS),
    });
    const cols: Partial<Pick<Merchant, MerchantSetting>> = {};
    if (input.name !== undefined) cols.name = input.name;
    if (checked.callback_url !== undefined) cols.callback_url = checked.callback_url;
    if (checked.redirect_url !== undefined) cols.redirect_url = checked.redirect_url;
    if (input.enabled_payment_collectors !== undefined)
      cols.enabled_payment_collectors = JSON.stringify(input.enabled_payment_collectors);
    if (input.callback_auth !== undefined) cols.callback_auth = input.callback_auth;
    if (checked.max_invoice_amount !== undefined)
      cols.max_invoice_amount = Number(checked.max_invoice_amount);
    if (input.invoice_lifetime_seconds !== undefined)
      cols.invoice_lifetime_seconds = input.invoice_lifetime_seconds;
    return cols;
  }

  function uniqueMobile(): string {
    for (;;) {
      const mobile = `+639${String(randomInt(0, 1e9)).padStart(9, '0')}`;
      if (!repo.mobileTaken(mobile)) return mobile;
    }
  }

  const service = {
    /** Defaults: every collector, 10000 PHP maximum, 15-minute invoices, `https-only` callback auth. */
    createMerchant(input: MerchantInput, workspaceId: string | null = null): Merchant {
      const cols = merchantColumns(input, workspaceId);
      return s.unitOfWork(() => {
        const id = s.ids();
        const name = cols.name ?? `Sandbox merchant ${id.slice(0, 6)}`;
        s.identities.insertMerchant({
          id,
          name,
          merchant_api_token: randomCredential(CREDENTIAL_LENGTH.merchantToken),
          bearer_token: randomCredential(CREDENTIAL_LENGTH.bearerToken),
          callback_url: cols.callback_url ?? null,
          redirect_url: cols.redirect_url ?? null,
          enabled_payment_collectors:
            cols.enabled_payment_collectors ?? JSON.stringify(ALL_COLLECTORS),
          max_invoice_amount: cols.max_invoice_amount ?? Number(10_000n * UNITS_PER_PESO),
          invoice_lifetime_seconds: cols.invoice_lifetime_seconds ?? 900,
          callback_auth: cols.callback_auth ?? 'https-only',
          wallet_account_id: phpWallet('merchant', id, `${name} PHP Wallet`),
          workspace_id: workspaceId,
          created_at: s.clock.now(),
        });
        return s.identities.merchantById(id)!;
      });
    },

    updateMerchant(id: string, input: MerchantInput): Merchant {
      const merchant = s.identities.merchantById(id);
      if (!merchant || merchant.disabled) throw ApiError.notFound();
      const cols = merchantColumns(input, merchant.workspace_id);
      s.unitOfWork(() => s.identities.updateMerchant(id, cols));
      return s.identities.merchantById(id)!;
    },

    /** A developer application with a new owner whose PHP wallet is funded (and an empty BTC wallet). */
    createApp(input: AppInput, workspaceId: string | null = null): { app: App; owner: User } {
      const balance =
        input.balance === undefined ? DEFAULT_APP_BALANCE : amountInput(input.balance, 'balance');
      const dailyBuyLimit =
        input.daily_buy_limit === undefined || input.daily_buy_limit === null
          ? input.daily_buy_limit
          : Number(amountInput(input.daily_buy_limit, 'daily_buy_limit', MAX_MERCHANT_LIMIT_UNITS));
      return s.unitOfWork(() => {
        const ownerId = s.ids();
        const owner: User = {
          id: ownerId,
          kind: 'developer',
          name: `Developer ${ownerId.slice(0, 6)}`,
          email: `dev-${ownerId}@dev.example.ph`,
          mobile_number: null,
          password: null,
          workspace_id: workspaceId,
          created_at: s.clock.now(),
        };
        s.identities.insertUser(owner);
        // An empty BTC wallet as the fixture developers have, so conversions (`/v3/crypto-exchanges/`) and
        // `?currency=BTC` reads work for a new app too. Made first: accounts are listed newest first, so
        // the peso wallet stays the first one listed.
        s.ledger.createAccount({ ownerType: 'user', ownerId, name: 'BTC Wallet', currency: 'BTC' });
        fundingOf('balance', () =>
          fund(s, phpWallet('user', ownerId, 'PHP Wallet'), balance, 'sandbox_funding'),
        );
        const apiKey = randomCredential(CREDENTIAL_LENGTH.apiKey);
        s.identities.insertApp({
          api_key: apiKey,
          api_secret: randomCredential(CREDENTIAL_LENGTH.apiSecret),
          name: input.name ?? `Sandbox app ${apiKey.slice(0, 6)}`,
          owner_id: ownerId,
          mfa_whitelisted: input.mfa_whitelisted ? 1 : 0,
          otp_secret: newOtpSecret(),
          workspace_id: workspaceId,
          created_at: s.clock.now(),
          business_account: input.business_account === false ? 0 : 1,
          daily_buy_limit: dailyBuyLimit,
        });
        return { app: s.identities.appByKey(apiKey)!, owner };
      });
    },

    /** A wallet customer; whatever login detail is missing is generated. */
    createCustomer(
      input: CustomerInput,
      workspaceId: string | null = null,
      emailHint?: string,
    ): User {
      const balance =
        input.balance === undefined
          ? DEFAULT_CUSTOMER_BALANCE
          : amountInput(input.balance, 'balance');
      return s.unitOfWork(() => {
        const id = s.ids();
        const email = input.email ?? emailHint ?? `customer-${id}@customer.example.ph`;
        const errors: Record<string, string[]> = {};
        if (repo.emailTaken(email)) errors.email = ['A user with this email already exists.'];
        if (input.mobile_number !== undefined && repo.mobileTaken(input.mobile_number)) {
          errors.mobile_number = ['A user with this mobile number already exists.'];
        }
        if (Object.keys(errors).length) throw new ApiError('validation_error', errors);
        const user: User = {
          id,
          kind: 'customer',
          name: `Customer ${id.slice(0, 6)}`,
          email,
          mobile_number: input.mobile_number ?? uniqueMobile(),
          password: input.password ?? `sandbox-${randomCredential(8)}`,
          workspace_id: workspaceId,
          created_at: s.clock.now(),
        };
        s.identities.insertUser(user);
        fundingOf('balance', () =>
          fund(s, phpWallet('user', id, 'PHP Wallet'), balance, 'sandbox_funding'),
        );
        return user;
      });
    },

    /**
     * A merchant or user wallet. The system accounts stand for the world outside (their balances are
     * negative by design) and are not wallets: 404, like an unknown id.
     */
    wallet(accountId: string) {
      const account = s.ledger.get(accountId);
      if (!account || account.owner_type === 'system') throw ApiError.notFound();
      return account;
    },

    /** Put money into any wallet from the outside world (a balanced ledger posting); 409 for a deleted workspace's. */
    fundAccount(accountId: string, amount: unknown) {
      const wallet = service.wallet(accountId);
      if (wallet.owner_type === 'user' || wallet.owner_type === 'merchant')
        requireLiveWorkspace(
          s.identities,
          { type: wallet.owner_type, id: wallet.owner_id },
          'account',
          'it cannot be funded.',
        );
      const units = amountInput(amount, 'amount');
      // The ledger refuses a balance past MAX_ACCOUNT_UNITS (docs/design.md#money-bounds), as for every posting.
      s.unitOfWork(() => fund(s, accountId, units, 'sandbox_funding'));
      return s.ledger.get(accountId)!;
    },
  };
  return service;
}

export type ProvisioningService = ReturnType<typeof createProvisioningService>;
