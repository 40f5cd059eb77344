import { formatMoney } from '../shared/money.js';
import type { Account } from './ledger.api.js';

/**
 * The currency code of an account on the developer API. The real service names the peso wallet `PBTC`
 * there (a name from its bitcoin-era API, still what its clients send in `?currency=` and
 * `pay_with_wallet`); the ledger, the control API and invoices say `PHP`.
 */
export function developerCurrency(ledgerCurrency: string): string {
  return ledgerCurrency === 'PHP' ? 'PBTC' : ledgerCurrency;
}

/**
 * `crypto-accounts` item, in the real shape: id, name, currency, balance, pending_balance,
 * total_received (everything ever credited), default_address, is_default (the owner's first account of
 * that currency).
 */
export function cryptoAccountResource(a: Account, isDefault: boolean) {
  return {
    id: a.id,
    name: a.name,
    currency: developerCurrency(a.currency),
    balance: formatMoney(a.balance),
    pending_balance: formatMoney(a.pending_balance),
    total_received: formatMoney(a.total_received),
    default_address: a.default_address,
    is_default: isDefault,
  };
}

/** Control API shape of an account summary and of a full account. */
export function accountSummary(a: Account) {
  return { id: a.id, name: a.name, currency: a.currency, balance: formatMoney(a.balance) };
}

export function sandboxAccount(a: Account) {
  return {
    ...accountSummary(a),
    pending_balance: formatMoney(a.pending_balance),
    owner: { type: a.owner_type, id: a.owner_id },
  };
}
