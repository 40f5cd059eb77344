import type { OffsetMeta, PageMeta } from './client.types.js';

/** Stop runaway loops when a server keeps answering with a `next_page`. */
const MAX_PAGES = 100_000;

/**
 * Every item of a page-based list, following `meta.next_page` until it is null (docs/design.md#pagination).
 * Throws when the server points back at a page already read.
 *
 * @example
 * for await (const t of iteratePages((page) => dev.listTransfers({ page, per_page: 100 }), (p) => p.transfers)) {
 *   console.log(t.id);
 * }
 */
export async function* iteratePages<P extends { meta: PageMeta }, T>(
  fetchPage: (page: number) => Promise<P>,
  itemsOf: (page: P) => T[],
  firstPage = 1,
): AsyncGenerator<T, void, undefined> {
  let page: number | null = firstPage;
  const seen = new Set<number>();
  while (page !== null) {
    if (seen.has(page) || seen.size >= MAX_PAGES)
      throw new Error(`pagination loops: next_page ${page} was already read`);
    seen.add(page);
    const result: P = await fetchPage(page);
    yield* itemsOf(result);
    page = result.meta.next_page;
  }
}

/**
 * Every item of an offset-based list (`limit`/`offset`, buy and sell orders), until an empty slice or
 * `offset >= meta.pagination.total`.
 *
 * @example
 * for await (const o of iterateOffsets((offset) => dev.listSellOrders({ offset, limit: 100 }), (p) => p.orders)) {
 *   console.log(o.delivery_status);
 * }
 */
export async function* iterateOffsets<P extends { meta: OffsetMeta }, T>(
  fetchSlice: (offset: number) => Promise<P>,
  itemsOf: (slice: P) => T[],
): AsyncGenerator<T, void, undefined> {
  let offset = 0;
  for (let i = 0; i < MAX_PAGES; i++) {
    const slice = await fetchSlice(offset);
    const items = itemsOf(slice);
    yield* items;
    offset += items.length;
    if (items.length === 0 || offset >= slice.meta.pagination.total) return;
  }
}
