import { formatMoney } from '../shared/money.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import type { AccountRow, LedgerRepository } from './ledger.repo.js';

/** `crypto-accounts` item (sandbox.md §4; real shape: id, name, currency, balance, pending_balance, default_address). */
export function cryptoAccountResource(a: AccountRow) {
  return {
    id: a.id,
    name: a.name,
    currency: a.currency,
    balance: formatMoney(a.balance),
    pending_balance: formatMoney(a.pending_balance),
    default_address: a.default_address,
  };
}

/** Control API shape of an account summary and of a full account. */
export function accountSummary(a: AccountRow) {
  return { id: a.id, name: a.name, currency: a.currency, balance: formatMoney(a.balance) };
}

export function sandboxAccount(a: AccountRow) {
  return { ...accountSummary(a), pending_balance: formatMoney(a.pending_balance), owner: { type: a.owner_type, id: a.owner_id } };
}

export function createAccountService(d: { ledger: LedgerRepository }) {
  return {
    /** Wallet accounts of a user, page-based, optional currency filter. */
    listForUser(userId: string, query: { page?: number; per_page?: number; currency?: string }) {
      const req = pageRequest(query);
      const all = d.ledger.byOwner('user', userId).filter((a) => !query.currency || a.currency === query.currency.toUpperCase());
      return {
        'crypto-accounts': all.slice(req.offset, req.offset + req.limit).map(cryptoAccountResource),
        meta: pageMeta(req, all.length),
      };
    },
  };
}
