import type { InvoiceResource } from './invoice.view.js';

/**
 * Rendered pages of the invoice list, kept while the database has not changed (docs/benchmarks.md):
 * a merchant polling page 1 reads ten rows and renders ten invoices per request otherwise.
 *
 * `changes` is SQLite's `total_changes()` of the one connection (every row any statement or trigger
 * inserted, updated or deleted, whichever module wrote it): the same count means no row changed since
 * the page was rendered. A rollback does not lower the count, so the write batch's rollback listener
 * calls `forget` (a page rendered from writes that a failed group commit then took back must go).
 * Only `expires_in_seconds` depends on the clock: it is worked out again on every hit.
 */
export interface CachedPage {
  total: number;
  invoices: InvoiceResource[];
  /** `expires_at` (sandbox micros) of each invoice that is pending, null for the others. */
  expiresAt: Array<number | null>;
  /** The answer's JSON text as last sent, while no countdown has moved since (set by the caller). */
  json?: string;
}

/** Pages kept at most (a merchant's first pages, a few filters); the whole cache is dropped past it. */
const CAPACITY = 64;

export function createInvoicePageCache(changes: () => number) {
  const pages = new Map<string, CachedPage>();
  let seen = -1;

  /** Drop every page when the database changed since they were rendered. */
  function current(): void {
    const n = changes();
    if (n !== seen) {
      pages.clear();
      seen = n;
    }
  }

  return {
    /**
     * The page under `key`, its expiry countdowns at `nowMicros` (its `json` gone when one moved);
     * undefined when it must be read again. The caller may set `json`; it never changes `invoices`.
     */
    get(key: string, nowMicros: number): CachedPage | undefined {
      current();
      const page = pages.get(key);
      if (!page) return undefined;
      page.invoices.forEach((invoice, i) => {
        const at = page.expiresAt[i];
        if (at === undefined || at === null) return;
        const left = String(Math.max(0, Math.floor((at - nowMicros) / 1_000_000)));
        if (invoice.expires_in_seconds === left) return;
        // A new object when the countdown moved: a page handed out earlier is never changed.
        page.invoices[i] = { ...invoice, expires_in_seconds: left };
        page.json = undefined;
      });
      return page;
    },
    /** Keep a page read after `get` missed (nothing was written in between: one synchronous request). */
    set(key: string, page: CachedPage): void {
      current();
      if (pages.size >= CAPACITY) pages.clear();
      pages.set(key, page);
    },
    forget(): void {
      pages.clear();
      seen = -1;
    },
  };
}

export type InvoicePageCache = ReturnType<typeof createInvoicePageCache>;
