import type { ApiResponse, OffsetMeta, PageMeta } from '../../src/client/index.js';
import type { CaseContext } from './case.context.js';
import { itemAt } from '../../src/shared/defined.js';

/** Pages read per list at most; a longer list is sampled (first pages and the last one). */
export const MAX_WALK_PAGES = 40;
/** A walk whose total moved underneath it (someone else wrote) is read again, this many times at most. */
const WALK_ATTEMPTS = 3;

type Item = Record<string, unknown>;

export interface PageWalk {
  /** GET one page (the walker checks status and metas). */
  fetch(page: number, perPage: number): Promise<ApiResponse>;
  /** Key of the list in the body (`invoices`, `crypto-accounts`, …). */
  key: string;
  perPage: number;
  /** Field that orders the list newest first (ISO timestamp or epoch seconds), when checked. */
  orderBy?: string;
}

export interface WalkResult {
  total: number;
  ids: string[];
  complete: boolean;
}

const idOf = (item: Item) => String(item.id ?? JSON.stringify(item));
const timeOf = (v: unknown) =>
  typeof v === 'string' && /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(String(v));
const range = (from: number, to: number) =>
  Array.from({ length: Math.max(0, to - from + 1) }, (_, i) => from + i);
const itemsOf = (res: ApiResponse, key: string) =>
  ((res.body as Record<string, unknown> | null)?.[key] ?? []) as Item[];

async function readPages(ctx: CaseContext, w: PageWalk) {
  const first = await w.fetch(1, w.perPage);
  ctx.expectStatus(first, 200);
  const total = (first.body as { meta: PageMeta }).meta.total_count;
  const lastPage = Math.max(1, Math.ceil(total / w.perPage));
  const numbers =
    lastPage <= MAX_WALK_PAGES ? range(1, lastPage) : [...range(1, MAX_WALK_PAGES - 1), lastPage];
  const pages: Array<{ page: number; res: ApiResponse }> = [];
  for (const page of numbers) {
    const res = page === 1 ? first : await w.fetch(page, w.perPage);
    ctx.expectStatus(res, 200);
    pages.push({ page, res });
  }
  const past = await w.fetch(lastPage + 1, w.perPage);
  ctx.expectStatus(past, 200);
  const moved = pages.some(
    ({ res }) => (res.body as { meta: PageMeta }).meta.total_count !== total,
  );
  return { total, lastPage, pages, past, moved };
}

/**
 * Walk a page-based list and hold it to docs/design.md#pagination: every page 200; `total_count` the same on every
 * page; full pages until the last; `next_page`/`previous_page` integers or null (never 0); no
 * duplicates and no gaps (ids seen = total); a page past the end is empty with `next_page` null and
 * `previous_page` the last page (null when there is no data).
 */
export async function walkPages(ctx: CaseContext, w: PageWalk): Promise<WalkResult> {
  let read = await readPages(ctx, w);
  for (let attempt = 1; read.moved && attempt < WALK_ATTEMPTS; attempt++)
    read = await readPages(ctx, w);
  const { total, lastPage, pages, past } = read;
  const ids: string[] = [];
  let previousTime = Infinity;
  for (const { page, res } of pages) {
    const items = itemsOf(res, w.key);
    const m = (res.body as { meta: PageMeta }).meta;
    const want = page < lastPage ? w.perPage : total - (lastPage - 1) * w.perPage;
    const at = `${w.key} page ${page} of ${lastPage} (per_page ${w.perPage}, total ${total})`;
    ctx.check(
      m.total_count === total,
      `${at}: total_count changed to ${m.total_count} during the walk`,
      res.operationId,
    );
    ctx.check(
      items.length === want,
      `${at}: ${items.length} items, expected ${want}`,
      res.operationId,
    );
    ctx.check(
      m.next_page === (page < lastPage ? page + 1 : null),
      `${at}: next_page is ${JSON.stringify(m.next_page)}, expected ${page < lastPage ? page + 1 : 'null'}`,
      res.operationId,
    );
    ctx.check(
      m.previous_page === (page > 1 ? page - 1 : null),
      `${at}: previous_page is ${JSON.stringify(m.previous_page)}, expected ${page > 1 ? page - 1 : 'null'}`,
      res.operationId,
    );
    ids.push(...items.map(idOf));
    const orderBy = w.orderBy;
    if (orderBy)
      for (const item of items) {
        const t = timeOf(item[orderBy]);
        ctx.check(
          t <= previousTime,
          `${at}: not newest first (${orderBy} ${String(item[orderBy])} after an older item)`,
          res.operationId,
        );
        previousTime = t;
      }
  }
  const complete = pages.length === lastPage;
  const opId = itemAt(pages, 0).res.operationId;
  ctx.check(
    new Set(ids).size === ids.length,
    `${w.key}: ${ids.length - new Set(ids).size} duplicate item(s) across pages`,
    opId,
  );
  if (complete)
    ctx.check(
      ids.length === total,
      `${w.key}: walked ${ids.length} items, total_count says ${total} (gap)`,
      opId,
    );

  const pm = (past.body as { meta: PageMeta }).meta;
  const at = `${w.key} page ${lastPage + 1} (past the end)`;
  ctx.check(itemsOf(past, w.key).length === 0, `${at}: expected an empty list`, past.operationId);
  ctx.check(
    pm.next_page === null,
    `${at}: next_page is ${JSON.stringify(pm.next_page)}, expected null`,
    past.operationId,
  );
  const prev = total > 0 ? lastPage : null;
  ctx.check(
    pm.previous_page === prev,
    `${at}: previous_page is ${JSON.stringify(pm.previous_page)}, expected ${prev}`,
    past.operationId,
  );
  return { total, ids, complete };
}

export interface OffsetWalk {
  fetch(offset: number, limit: number): Promise<ApiResponse>;
  key: string;
  limit: number;
}

async function readSlices(ctx: CaseContext, w: OffsetWalk) {
  const slices: Array<{ offset: number; res: ApiResponse }> = [];
  let total = -1;
  let offset = 0;
  for (let i = 0; i < MAX_WALK_PAGES && (total < 0 || offset < total); i++, offset += w.limit) {
    const res = await w.fetch(offset, w.limit);
    ctx.expectStatus(res, 200);
    if (total < 0) total = (res.body as { meta: OffsetMeta }).meta.pagination.total;
    slices.push({ offset, res });
  }
  const past = await w.fetch(Math.max(total, offset), w.limit);
  ctx.expectStatus(past, 200);
  const moved = slices.some(
    ({ res }) => (res.body as { meta: OffsetMeta }).meta.pagination.total !== total,
  );
  return { total, slices, past, moved, complete: offset >= total };
}

/**
 * Walk an offset-based list (`limit`/`offset`): `meta.pagination.total` the same on every slice,
 * `limit` and `offset` echoed, full slices until the end, no duplicates, no gaps, empty past the end.
 */
export async function walkOffsets(ctx: CaseContext, w: OffsetWalk): Promise<WalkResult> {
  let read = await readSlices(ctx, w);
  for (let attempt = 1; read.moved && attempt < WALK_ATTEMPTS; attempt++)
    read = await readSlices(ctx, w);
  const { total, slices, past, complete } = read;
  const ids: string[] = [];
  for (const { offset, res } of slices) {
    const p = (res.body as { meta: OffsetMeta }).meta.pagination;
    const items = itemsOf(res, w.key);
    const at = `${w.key} offset ${offset} (limit ${w.limit}, total ${total})`;
    ctx.check(
      p.total === total,
      `${at}: total changed to ${p.total} during the walk`,
      res.operationId,
    );
    ctx.check(
      p.limit === w.limit && p.offset === offset,
      `${at}: meta echoes limit ${p.limit}, offset ${p.offset}`,
      res.operationId,
    );
    ctx.check(
      items.length === Math.max(0, Math.min(w.limit, total - offset)),
      `${at}: ${items.length} items`,
      res.operationId,
    );
    ids.push(...items.map(idOf));
  }
  const opId = past.operationId;
  ctx.check(new Set(ids).size === ids.length, `${w.key}: duplicate items across slices`, opId);
  if (complete)
    ctx.check(
      ids.length === total,
      `${w.key}: walked ${ids.length} items, total says ${total} (gap)`,
      opId,
    );
  ctx.check(itemsOf(past, w.key).length === 0, `${w.key}: a slice past the end is not empty`, opId);
  return { total, ids, complete };
}
