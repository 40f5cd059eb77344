/**
 * The two paging styles of the API (docs/design.md#pagination), shared by every list.
 * Parameters arrive already type-checked by the operation's query validator.
 */
export const DEFAULT_PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export interface PageRequest {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

export interface PageMeta {
  total_count: number;
  next_page: number | null;
  previous_page: number | null;
}

/** `page`/`per_page` → a window; `per_page` above 100 is clamped to 100. */
export function pageRequest(query: { page?: number; per_page?: number }): PageRequest {
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}

/**
 * Metas with integers, null where there is no such page. A page past the end gets
 * `previous_page` = the last page (or null when there is no data at all).
 */
export function pageMeta(req: PageRequest, total: number): PageMeta {
  const lastPage = Math.max(1, Math.ceil(total / req.perPage));
  const next = req.page < lastPage ? req.page + 1 : null;
  let previous: number | null = null;
  if (total > 0 && req.page > 1) previous = Math.min(req.page - 1, lastPage);
  return { total_count: total, next_page: next, previous_page: previous };
}

export interface OffsetRequest {
  limit: number;
  offset: number;
}

export interface OffsetMeta {
  pagination: { total: number; limit: number; offset: number };
}

/** `limit`/`offset` (buy and sell order lists); `limit` defaults to 10 and is clamped to 100. */
export function offsetRequest(query: { limit?: number; offset?: number }): OffsetRequest {
  return {
    limit: Math.min(query.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    offset: query.offset ?? 0,
  };
}

export function offsetMeta(req: OffsetRequest, total: number): OffsetMeta {
  return { pagination: { total, limit: req.limit, offset: req.offset } };
}
