import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { developerError } from '../testing/error-code.js';

/** Offset paging over HTTP on both order lists (docs/design.md#pagination): `limit`/`offset`, `meta.pagination`. */
let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

type Kind = 'sell' | 'buy';
const LIST: Record<Kind, string> = { sell: '/v2/sellorder', buy: '/v2/buyorder' };

/**
 * A developer with exactly `n` orders of a kind, inserted directly. Times fall on few distinct values,
 * so many orders tie on created_at and the id tie-break decides. Returns the ids in list order.
 */
function developerWith(kind: Kind, n: number, times: number[]) {
  const dev = newDeveloper(t);
  const { repo } = t.sandbox.modules.orders;
  const base = t.services.clock.now();
  const rows: Array<{ id: string; at: number }> = [];
  t.services.unitOfWork(() => {
    for (let i = 0; i < n; i++) {
      const id = t.services.ids();
      const at = base - (times[i % times.length] ?? 0) * 1_000_000;
      rows.push({ id, at });
      if (kind === 'sell') {
        repo.insertSell({
          id,
          owner_id: dev.id,
          account_id: dev.php,
          outlet_id: 'bpi',
          amount: 100_000_000n,
          fee: 0n,
          currency: 'PHP',
          delivery_status: 'completed',
          external_transaction_id: null,
          target_address: null,
          target_account_id: null,
          fields: '{}',
          debit_transaction_id: null,
          auto_advance: 0,
          created_at: at,
          status_changed_at: at,
        });
      } else {
        repo.insertBuy({
          id,
          owner_id: dev.id,
          account_id: dev.php,
          amount: 100_000_000n,
          currency: 'PHP',
          payment_method: 'cash_payment',
          instructions: null,
          status: 'released',
          marked_paid_at: at,
          canceled_at: null,
          auto_release: 0,
          created_at: at,
          expires_at: at,
          status_changed_at: at,
        });
      }
    }
  });
  rows.sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
  return { dev, ids: rows.map((r) => r.id) };
}

const limits = fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: 101, max: 10_000 }));

describe.each(['sell', 'buy'] as const)('%s order list paging over HTTP', (kind) => {
  it('walking offset by limit visits every order exactly once, newest first, with metas that agree', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 45 }),
        limits,
        fc.nat({ max: 50 }),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 6 }),
        async (n, limit, start, times) => {
          const { dev, ids } = developerWith(kind, n, times);
          const clamped = Math.min(limit, 100);
          const seen: string[] = [];
          let offset = start;
          for (;;) {
            const res = await t.signed(
              'GET',
              `${LIST[kind]}?limit=${limit}&offset=${offset}`,
              as(dev),
            );
            expect(res.status).toBe(200);
            expect(res.body.meta).toEqual({ pagination: { total: n, limit: clamped, offset } });
            expect(res.body.orders.length).toBe(Math.max(0, Math.min(clamped, n - offset)));
            if (res.body.orders.length === 0) break;
            seen.push(...res.body.orders.map((o: { id: string }) => o.id));
            offset += clamped;
          }
          expect(seen).toEqual(ids.slice(start));
        },
      ),
      { numRuns: 20 },
    );
  });

  it('any window of the fixture history is the same slice of the whole list', async () => {
    const whole: string[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (await t.signed('GET', `${LIST[kind]}?limit=100&offset=${offset}`)).body;
      whole.push(...page.orders.map((o: { id: string }) => o.id));
      if (page.orders.length < 100) break;
    }
    expect(whole.length).toBeGreaterThanOrEqual(250);
    expect(new Set(whole).size).toBe(whole.length);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 100 }),
        fc.nat({ max: whole.length + 20 }),
        async (limit, offset) => {
          const res = await t.signed('GET', `${LIST[kind]}?limit=${limit}&offset=${offset}`, {
            spelling: offset % 2 ? 'dash' : 'underscore',
          });
          expect(res.body.orders.map((o: { id: string }) => o.id)).toEqual(
            whole.slice(offset, offset + limit),
          );
          expect(res.body.meta.pagination).toEqual({ total: whole.length, limit, offset });
        },
      ),
      { numRuns: 25 },
    );
  });

  it.each([
    ['limit=0', 'limit', 'Ensure this value is greater than or equal to 1.'],
    ['limit=-5', 'limit', 'Ensure this value is greater than or equal to 1.'],
    ['limit=1.5', 'limit', 'A valid integer is required.'],
    ['limit=ten', 'limit', 'A valid integer is required.'],
    ['limit=', 'limit', 'A valid integer is required.'],
    ['offset=-1', 'offset', 'Ensure this value is greater than or equal to 0.'],
    ['offset=0.5', 'offset', 'A valid integer is required.'],
    ['offset=x', 'offset', 'A valid integer is required.'],
  ])('refuses %s with a 400 field error', async (q, field, message) => {
    const res = await t.signed('GET', `${LIST[kind]}?${q}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(developerError('validation_error', { [field]: [message] }));
  });

  it('defaults to limit 10, clamps to 100 and answers an offset far past the end with an empty list', async () => {
    const d = await t.signed('GET', LIST[kind]);
    expect(d.body.orders).toHaveLength(10);
    expect(d.body.meta.pagination).toMatchObject({ limit: 10, offset: 0 });
    const big = await t.signed('GET', `${LIST[kind]}?limit=1000`);
    expect(big.body.orders).toHaveLength(100);
    expect(big.body.meta.pagination.limit).toBe(100);
    const far = await t.signed('GET', `${LIST[kind]}?offset=999999999999999`);
    expect(far.status).toBe(200);
    expect(far.body.orders).toEqual([]);
    expect(far.body.meta.pagination.offset).toBe(999999999999999);
  });
});
