import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  offsetMeta,
  offsetRequest,
  pageMeta,
  pageRequest,
} from './pagination.js';

/** One page of a list of `total` items (0..total-1), as a repository would return it. */
const slice = (total: number, offset: number, limit: number) =>
  Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => offset + i);

const total = fc.integer({ min: 0, max: 1000 });
const size = fc.oneof(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 1, max: 100_000 }));

describe('page-based paging', () => {
  it('defaults to page 1 of 10 and clamps per_page to 100', () => {
    expect(pageRequest({})).toEqual({ page: 1, perPage: DEFAULT_PAGE_SIZE, limit: 10, offset: 0 });
    fc.assert(
      fc.property(size, fc.integer({ min: 1, max: 10_000 }), (perPage, page) => {
        const req = pageRequest({ page, per_page: perPage });
        expect(req.perPage).toBe(Math.min(perPage, MAX_PAGE_SIZE));
        expect(req.limit).toBe(req.perPage);
        expect(req.offset).toBe((page - 1) * req.perPage);
      }),
    );
  });

  it('walking next_page from page 1 visits every item exactly once, with metas that agree with the total', () => {
    fc.assert(
      fc.property(total, size, (n, perPage) => {
        const seen: number[] = [];
        let page: number | null = 1;
        let pages = 0;
        while (page !== null) {
          const req = pageRequest({ page, per_page: perPage });
          const meta = pageMeta(req, n);
          const items = slice(n, req.offset, req.limit);
          expect(meta.total_count).toBe(n);
          expect(meta.previous_page).toBe(page > 1 ? page - 1 : null);
          if (meta.next_page !== null) expect(items).toHaveLength(req.perPage);
          seen.push(...items);
          page = meta.next_page;
          pages += 1;
        }
        expect(seen).toEqual(slice(n, 0, n));
        expect(pages).toBe(Math.max(1, Math.ceil(n / Math.min(perPage, MAX_PAGE_SIZE))));
      }),
    );
  });

  it('a page past the end is empty, has no next page, and points back to the last page (null without data)', () => {
    fc.assert(
      fc.property(total, size, fc.integer({ min: 1, max: 50 }), (n, perPage, beyond) => {
        const req0 = pageRequest({ per_page: perPage });
        const last = Math.max(1, Math.ceil(n / req0.perPage));
        const req = pageRequest({ page: last + beyond, per_page: perPage });
        expect(slice(n, req.offset, req.limit)).toEqual([]);
        expect(pageMeta(req, n)).toEqual({
          total_count: n,
          next_page: null,
          previous_page: n === 0 ? null : last,
        });
      }),
    );
  });

  it('any page inside the list links to its neighbours', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), size, fc.nat(), (n, perPage, pick) => {
        const last = Math.ceil(n / Math.min(perPage, MAX_PAGE_SIZE));
        const page = 1 + (pick % last);
        const meta = pageMeta(pageRequest({ page, per_page: perPage }), n);
        expect(meta.next_page).toBe(page < last ? page + 1 : null);
        expect(meta.previous_page).toBe(page > 1 ? page - 1 : null);
      }),
    );
  });
});

describe('offset-based paging', () => {
  it('defaults to limit 10 from offset 0 and clamps limit to 100', () => {
    expect(offsetRequest({})).toEqual({ limit: 10, offset: 0 });
    fc.assert(
      fc.property(size, fc.nat(), (limit, offset) => {
        const req = offsetRequest({ limit, offset });
        expect(req).toEqual({ limit: Math.min(limit, MAX_PAGE_SIZE), offset });
        expect(offsetMeta(req, 7)).toEqual({ pagination: { total: 7, limit: req.limit, offset } });
      }),
    );
  });

  it('walking offset by limit visits every item exactly once; offsets past the end are empty', () => {
    fc.assert(
      fc.property(total, size, fc.nat({ max: 200 }), (n, limit, start) => {
        const seen: number[] = [];
        let offset = start;
        for (;;) {
          const req = offsetRequest({ limit, offset });
          const meta = offsetMeta(req, n);
          expect(meta.pagination).toEqual({
            total: n,
            limit: Math.min(limit, MAX_PAGE_SIZE),
            offset,
          });
          const items = slice(n, req.offset, req.limit);
          if (items.length === 0) break;
          seen.push(...items);
          offset += req.limit;
        }
        expect(seen).toEqual(slice(n, start, n));
        expect(offset).toBeGreaterThanOrEqual(n);
      }),
    );
  });
});
