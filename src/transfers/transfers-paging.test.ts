import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { developerError } from '../testing/error-code.js';

/** Page paging over HTTP (docs/design.md#pagination): `page`/`per_page`, `meta: {total_count, next_page, previous_page}`. */
let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

/** A developer with exactly `n` transfers on few distinct times (ties decided by id); ids in list order. */
function developerWith(n: number, times: number[]) {
  const dev = newDeveloper(t);
  const { repo } = t.sandbox.modules.transfers;
  const base = t.services.clock.now();
  const rows: Array<{ id: string; at: number }> = [];
  t.services.unitOfWork(() => {
    for (let i = 0; i < n; i++) {
      const id = t.services.ids();
      const at = base - (times[i % times.length] ?? 0) * 1_000_000;
      rows.push({ id, at });
      repo.insert({
        id,
        owner_id: dev.id,
        account_id: dev.php,
        target_account_id: null,
        target_address: 'someone@example.ph',
        amount: 1n,
        currency: 'PHP',
        status: 'success',
        ledger_transaction_id: null,
        created_at: at,
      });
    }
  });
  rows.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  return { dev, ids: rows.map((r) => r.id) };
}

const sizes = fc.oneof(fc.integer({ min: 1, max: 25 }), fc.integer({ min: 101, max: 5000 }));

describe('transfer list paging over HTTP', () => {
  it('walking next_page from page 1 visits every transfer exactly once, newest first, with metas that agree', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 45 }),
        sizes,
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 }),
        async (n, perPage, times) => {
          const { dev, ids } = developerWith(n, times);
          const size = Math.min(perPage, 100);
          const seen: string[] = [];
          let page: number | null = 1;
          while (page !== null) {
            const res = await t.signed(
              'GET',
              `/v3/transfers?page=${page}&per_page=${perPage}`,
              as(dev),
            );
            expect(res.status).toBe(200);
            const meta: {
              total_count: number;
              next_page: number | null;
              previous_page: number | null;
            } = res.body.meta;
            expect(meta.total_count).toBe(n);
            expect(meta.previous_page).toBe(page > 1 ? page - 1 : null);
            expect(res.body.transfers.length).toBe(
              Math.min(size, Math.max(0, n - (page - 1) * size)),
            );
            seen.push(...res.body.transfers.map((x: { id: string }) => x.id));
            page = meta.next_page;
          }
          expect(seen).toEqual(ids);
          const last = Math.max(1, Math.ceil(n / size));
          const beyond = await t.signed(
            'GET',
            `/v3/transfers?page=${last + 1}&per_page=${perPage}`,
            as(dev),
          );
          expect(beyond.body).toEqual({
            transfers: [],
            meta: { total_count: n, next_page: null, previous_page: n === 0 ? null : last },
          });
        },
      ),
      { numRuns: 20 },
    );
  });

  it('any page of the fixture history is the matching slice of the whole list', async () => {
    const whole: string[] = [];
    for (let page: number | null = 1; page !== null;) {
      const res: {
        body: { transfers: Array<{ id: string }>; meta: { next_page: number | null } };
      } = await t.signed('GET', `/v3/transfers?per_page=100&page=${page}`);
      whole.push(...res.body.transfers.map((x) => x.id));
      page = res.body.meta.next_page;
    }
    expect(whole.length).toBeGreaterThanOrEqual(250);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 40 }),
        async (perPage, page) => {
          const res = await t.signed('GET', `/v3/transfers?page=${page}&per_page=${perPage}`, {
            spelling: page % 2 ? 'dash' : 'underscore',
          });
          expect(res.body.transfers.map((x: { id: string }) => x.id)).toEqual(
            whole.slice((page - 1) * perPage, page * perPage),
          );
          expect(res.body.meta.total_count).toBe(whole.length);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe.each(['/v3/transfers', '/v1/payout-outlets/', '/v3/partner-payout-outlet-fees'])(
  'page parameters of %s',
  (path) => {
    it.each([
      ['page=0', 'page', 'Ensure this value is greater than or equal to 1.'],
      ['page=-2', 'page', 'Ensure this value is greater than or equal to 1.'],
      ['page=1.5', 'page', 'A valid integer is required.'],
      ['page=first', 'page', 'A valid integer is required.'],
      ['per_page=0', 'per_page', 'Ensure this value is greater than or equal to 1.'],
      ['per_page=2.5', 'per_page', 'A valid integer is required.'],
      ['per_page=', 'per_page', 'A valid integer is required.'],
    ])('refuses %s with a 400 field error', async (q, field, message) => {
      const res = await t.signed('GET', `${path}?${q}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(developerError('validation_error', { [field]: [message] }));
    });

    it('clamps per_page to 100 and answers a page far past the end with an empty list', async () => {
      const big = await t.signed('GET', `${path}?per_page=5000`);
      expect(big.status).toBe(200);
      const items = Object.values(big.body).find(Array.isArray) as unknown[];
      expect(items.length).toBe(Math.min(100, big.body.meta.total_count));
      const far = await t.signed('GET', `${path}?page=999999999999999`);
      expect(far.status).toBe(200);
      expect(Object.values(far.body).find(Array.isArray)).toEqual([]);
      expect(far.body.meta.next_page).toBeNull();
      expect(far.body.meta.previous_page).toBe(Math.ceil(far.body.meta.total_count / 10));
    });
  },
);
