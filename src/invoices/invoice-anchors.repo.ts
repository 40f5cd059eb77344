import type { Db } from '../db/open.js';

/** A position in a merchant's invoice list, which is ordered by (created_at, id), newest first. */
export interface ListKey {
  created_at: number;
  id: string;
}

/** Every this many rows the key is remembered: a deep page walks at most this many index entries. */
export const ANCHOR_EVERY = 256;
/** Merchants whose anchors are kept (the least recently used are dropped beyond this). */
const MAX_MERCHANTS = 256;

interface Anchors {
  /** How many invoices the merchant had when the anchors were last checked. */
  count: number;
  /** The newest key at that moment: whatever is newer was inserted since. */
  newest: ListKey;
  /** Rows newer than `keys[0]`: the position of `keys[0]` in the list. */
  base: number;
  /** `keys[j]` is the key at position base + j * ANCHOR_EVERY. */
  keys: ListKey[];
}

/**
 * Deep pages of a merchant's whole invoice list without walking the index from the top (the API pages by
 * number, so a client cannot hand over a cursor). The repository remembers the key found every
 * ANCHOR_EVERY rows and seeks from the nearest one: any page costs at most ANCHOR_EVERY + per_page index
 * steps instead of page × per_page.
 *
 * Why the remembered keys stay exact: an invoice's (merchant_id, created_at, id) never changes and
 * invoices are never deleted (the trigger-maintained counts rely on that too), so the list only grows.
 * Before use, the repository checks how many invoices arrived since it last looked, and that all of them
 * are newer than the newest key it knew (the usual case: timestamps come from a clock that only moves
 * forward); then every anchor simply moved down by that many rows. Anything else (an invoice inserted
 * in the middle after a clock change across restarts, a reset of the whole sandbox) drops the anchors,
 * and they are found again on the next deep page.
 */
export function createInvoiceAnchors(db: Db) {
  const countAll = db
    .prepare('SELECT COALESCE(SUM(n), 0) AS n FROM invoice_counts WHERE merchant_id = ?')
    .pluck();
  const newest = db.prepare(
    'SELECT created_at, id FROM invoices WHERE merchant_id = ? ORDER BY created_at DESC, id DESC LIMIT 1',
  );
  const stillThere = db
    .prepare('SELECT 1 FROM invoices WHERE id = ? AND merchant_id = ? AND created_at = ?')
    .pluck();
  const newerCount = db
    .prepare(
      `SELECT COUNT(*) FROM (SELECT 1 FROM invoices WHERE merchant_id = ? AND (created_at, id) > (?, ?)
       ORDER BY created_at DESC, id DESC LIMIT ?)`,
    )
    .pluck();
  // The key `ANCHOR_EVERY` rows after a key (inclusive of the key itself at offset 0).
  const nextAnchor = db.prepare(
    `SELECT created_at, id FROM invoices WHERE merchant_id = ? AND (created_at, id) <= (?, ?)
     ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`,
  );
  const byMerchant = new Map<string, Anchors>();

  function remember(merchantId: string, a: Anchors): Anchors {
    byMerchant.delete(merchantId);
    byMerchant.set(merchantId, a);
    if (byMerchant.size > MAX_MERCHANTS) byMerchant.delete(byMerchant.keys().next().value!);
    return a;
  }

  /** Anchors that are exact right now, or undefined when they have to be found again. */
  function current(merchantId: string): Anchors | undefined {
    const a = byMerchant.get(merchantId);
    if (!a) return undefined;
    const count = countAll.get(merchantId) as number;
    const arrived = count - a.count;
    const valid =
      arrived >= 0 &&
      // Whole-sandbox resets drop every invoice: the newest key we knew must still be there.
      stillThere.get(a.newest.id, merchantId, a.newest.created_at) !== undefined &&
      (arrived === 0 ||
        (newerCount.get(merchantId, a.newest.created_at, a.newest.id, arrived + 1) as number) ===
          arrived);
    if (!valid || a.base + arrived >= ANCHOR_EVERY) {
      // Many arrivals: find the anchors again from the top rather than walk ever more rows above them.
      byMerchant.delete(merchantId);
      return undefined;
    }
    if (arrived > 0) {
      a.base += arrived;
      a.count = count;
      a.newest = newest.get(merchantId) as ListKey;
    }
    return a;
  }

  return {
    /**
     * Where to seek for `offset` (at least ANCHOR_EVERY, so never above the first anchor, which is at
     * most ANCHOR_EVERY - 1 rows down): a key and the rows still to skip from it (fewer than
     * ANCHOR_EVERY), or undefined when the list has fewer rows than `offset` (the page is empty).
     */
    seek(merchantId: string, offset: number): { key: ListKey; skip: number } | undefined {
      let a = current(merchantId);
      if (!a) {
        const head = newest.get(merchantId) as ListKey | undefined;
        if (!head) return undefined;
        a = remember(merchantId, {
          count: countAll.get(merchantId) as number,
          newest: head,
          base: 0,
          keys: [head],
        });
      }
      const j = Math.floor((offset - a.base) / ANCHOR_EVERY);
      while (a.keys.length <= j) {
        const last = a.keys[a.keys.length - 1]!;
        const next = nextAnchor.get(merchantId, last.created_at, last.id, ANCHOR_EVERY) as
          ListKey | undefined;
        if (!next) return undefined;
        a.keys.push(next);
      }
      return { key: a.keys[j]!, skip: offset - a.base - j * ANCHOR_EVERY };
    },
  };
}

export type InvoiceAnchors = ReturnType<typeof createInvoiceAnchors>;
