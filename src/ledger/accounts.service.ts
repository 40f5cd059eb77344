import { withJsonText } from '../http/json-text.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import type { LedgerApi } from './ledger.api.js';
import { cryptoAccountResource, developerCurrency } from './accounts.view.js';

/** Pages kept at most (one per user and query); past it the cache starts over. */
const PAGES_KEPT = 1000;

export interface AccountServiceDeps {
  ledger: LedgerApi;
  /**
   * A number that moves whenever a row a page shows may have changed (SQLite's `total_changes()` less
   * the nonce advances of signed requests); without it nothing is kept. Every rollback must call the
   * service's `forget` (a rollback does not lower the count).
   */
  version?: () => number;
}

export function createAccountService(d: AccountServiceDeps) {
  // The pages of `GET /v3/crypto-accounts/` with the version they were made at: a signed poll of an
  // unchanged wallet list costs one `SELECT total_changes()` instead of the accounts read and the render
  // (docs/benchmarks.md, round 4). Balances change only through writes, which move the version.
  const pages = new Map<string, { version: number; page: ReturnType<typeof render> }>();

  function render(userId: string, query: { page?: number; per_page?: number; currency?: string }) {
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
  }

  return {
    /** Wallet accounts of a user, page-based; `currency` is one code or a comma-separated list (`PBTC,BTC`). */
    listForUser(userId: string, query: { page?: number; per_page?: number; currency?: string }) {
      if (!d.version) return render(userId, query);
      // Stryker disable next-line StringLiteral: any text that no page, size or currency code can be keeps the keys apart; '' is that text
      const key = `${userId}\n${query.page ?? ''}\n${query.per_page ?? ''}\n${query.currency ?? ''}`;
      const version = d.version();
      const kept = pages.get(key);
      if (kept && kept.version === version) return kept.page;
      const page = render(userId, query);
      withJsonText(page, JSON.stringify(page));
      if (pages.size >= PAGES_KEPT) pages.clear();
      pages.set(key, { version, page });
      return page;
    },
    /** Drop every kept page (after a rollback, whose writes may have been read). */
    forget(): void {
      pages.clear();
    },
  };
}
