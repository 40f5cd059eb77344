import { accountSummary } from '../ledger/accounts.view.js';
import type { LedgerApi } from '../ledger/ledger.api.js';
import { formatMoney } from '../shared/money.js';
import type { Schemas } from '../spec/operations.generated.js';
import type { App, Merchant, User } from './identities.api.js';

/** Control API shapes of merchants, applications and customers (docs/design.md#control-api). */
export function sandboxMerchant(m: Merchant) {
  return {
    id: m.id,
    name: m.name,
    merchant_api_token: m.merchant_api_token,
    bearer_token: m.bearer_token,
    callback_url: m.callback_url,
    redirect_url: m.redirect_url,
    enabled_payment_collectors: JSON.parse(m.enabled_payment_collectors) as Array<
      Schemas['PaymentCollector']
    >,
    callback_auth: m.callback_auth,
    wallet_account_id: m.wallet_account_id,
    max_invoice_amount: formatMoney(m.max_invoice_amount),
    invoice_lifetime_seconds: m.invoice_lifetime_seconds,
  };
}

export function sandboxApp(a: App, owner: User, ledger: LedgerApi) {
  return {
    api_key: a.api_key,
    api_secret: a.api_secret,
    name: a.name,
    mfa_whitelisted: a.mfa_whitelisted === 1,
    business_account: a.business_account === 1,
    daily_buy_limit: a.daily_buy_limit === null ? null : formatMoney(BigInt(a.daily_buy_limit)),
    otp_secret: a.otp_secret,
    last_nonce: a.last_nonce,
    owner: {
      id: owner.id,
      name: owner.name,
      email: owner.email ?? '',
      accounts: ledger.byOwner('user', owner.id).map(accountSummary),
    },
  };
}

export function sandboxCustomer(u: User, ledger: LedgerApi) {
  return {
    id: u.id,
    name: u.name,
    email: u.email ?? '',
    mobile_number: u.mobile_number ?? '',
    password: u.password ?? '',
    accounts: ledger.byOwner('user', u.id).map(accountSummary),
  };
}
