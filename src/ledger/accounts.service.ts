import { pageMeta, pageRequest } from '../shared/pagination.js';
import type { LedgerApi } from './ledger.api.js';
import { cryptoAccountResource, developerCurrency } from './accounts.view.js';

export function createAccountService(d: { ledger: LedgerApi }) {
  return {
    /** Wallet accounts of a user, page-based; `currency` is one code or a comma-separated list (`PBTC,BTC`). */
    listForUser(userId: string, query: { page?: number; per_page?: number; currency?: string }) {
      const req = pageRequest(query);
      const wanted = query.currency
        ? new Set(query.currency.split(',').map((c) => c.trim().toUpperCase()))
        : null;
      const owned = d.ledger.byOwner('user', userId);
      // Newest first: the last account of each currency is the oldest, the owner's default one.
      const defaults = new Set([...new Map(owned.map((a) => [a.currency, a.id])).values()]);
      const all = owned.filter((a) => !wanted || wanted.has(developerCurrency(a.currency)));
      return {
        'crypto-accounts': all
          .slice(req.offset, req.offset + req.limit)
          .map((a) => cryptoAccountResource(a, defaults.has(a.id))),
        meta: pageMeta(req, all.length),
      };
    },
  };
}
