import { formatMoney } from '../shared/money.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import type { Account, LedgerApi } from './ledger.api.js';

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
  return { ...accountSummary(a), pending_balance: formatMoney(a.pending_balance), owner: { type: a.owner_type, id: a.owner_id } };
}

export function createAccountService(d: { ledger: LedgerApi }) {
  return {
    /** Wallet accounts of a user, page-based; `currency` is one code or a comma-separated list (`PBTC,BTC`). */
    listForUser(userId: string, query: { page?: number; per_page?: number; currency?: string }) {
      const req = pageRequest(query);
      const wanted = query.currency ? new Set(query.currency.split(',').map((c) => c.trim().toUpperCase())) : null;
      const owned = d.ledger.byOwner('user', userId);
      // Newest first: the last account of each currency is the oldest, the owner's default one.
      const defaults = new Set([...new Map(owned.map((a) => [a.currency, a.id])).values()]);
      const all = owned.filter((a) => !wanted || wanted.has(developerCurrency(a.currency)));
      return {
        'crypto-accounts': all.slice(req.offset, req.offset + req.limit).map((a) => cryptoAccountResource(a, defaults.has(a.id))),
        meta: pageMeta(req, all.length),
      };
    },
  };
}
