import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/test-app.js';
import { ANCHOR_EVERY } from './invoice-anchors.repo.js';
import type { InvoiceStatus } from './invoices.api.js';

const t = createTestApp();
afterAll(() => t.close());

const STATUSES: InvoiceStatus[] = ['pending', 'fully_paid', 'expired', 'canceled'];

type Op =
  | { kind: 'append'; n: number }
  | { kind: 'older'; back: number }
  | { kind: 'status'; pick: number; status: InvoiceStatus }
  | { kind: 'page'; offset: number; limit: number; status: InvoiceStatus | null }
  | { kind: 'reset' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      n: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 700 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('older' as const),
      back: fc.integer({ min: 0, max: 1500 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('status' as const),
      pick: fc.nat(),
      status: fc.constantFrom(...STATUSES),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('page' as const),
      offset: fc.oneof(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: ANCHOR_EVERY - 2, max: ANCHOR_EVERY + 2 }),
      ),
      limit: fc.constantFrom(1, 10, 100),
      status: fc.constantFrom(null, ...STATUSES),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'reset' as const }) },
);

const repo = t.sandbox.modules.invoices.repo;
const db = t.db;
const merchantId = () => t.sandbox.fixtures.merchants[0]!.id;
/** The reference: the plain query every optimisation must agree with. */
const reference = (status: InvoiceStatus | null, limit: number, offset: number) =>
  (
    db
      .prepare(
        `SELECT id FROM invoices WHERE merchant_id = ? ${status ? 'AND status = ?' : ''} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      )
      .all(
        ...(status ? [merchantId(), status, limit, offset] : [merchantId(), limit, offset]),
      ) as Array<{ id: string }>
  ).map((r) => r.id);
const page = (status: InvoiceStatus | null, limit: number, offset: number) =>
  repo
    .page({ merchantId: merchantId(), status: status ?? undefined }, limit, offset)
    .map((r) => r.id);
let seq = 0;
let clock = 1_800_000_000_000_000;
const insert = (createdAt: number) => {
  const n = ++seq;
  repo.insert({
    id: n.toString(16).padStart(32, '0'),
    merchant_id: merchantId(),
    amount: 100_000_000n,
    currency: 'PHP',
    external_transaction_id: `anchor-${n}`,
    description: '',
    metadata: '{}',
    supported_payment_collectors: '["cash_payment"]',
    created_at: createdAt,
    expires_at: 4_000_000_000_000_000,
  });
};
const append = (n: number) => {
  for (let i = 0; i < n; i++) insert((clock += 1 + (i % 3 === 0 ? 0 : 7)));
};

describe('deep pages of the invoice list', () => {
  it('are exactly the rows LIMIT/OFFSET gives, whatever was inserted, paid or reset in between', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 30 }), (ops) => {
        t.sandbox.reset();
        for (const o of ops) {
          if (o.kind === 'append') append(o.n);
          else if (o.kind === 'older') insert(clock - o.back * 5 - 1);
          else if (o.kind === 'status') {
            const ids = db.prepare('SELECT id FROM invoices ORDER BY id').pluck().all() as string[];
            if (ids.length) repo.setStatus(ids[o.pick % ids.length]!, o.status, clock);
          } else if (o.kind === 'reset') t.sandbox.reset();
          else
            expect(page(o.status, o.limit, o.offset), JSON.stringify(o)).toEqual(
              reference(o.status, o.limit, o.offset),
            );
        }
      }),
      { numRuns: 60, seed: 20261122 },
    );
  });

  it('follow invoices created at the top of the list without searching again', () => {
    t.sandbox.reset();
    append(2000);
    expect(page(null, 10, 1500)).toEqual(reference(null, 10, 1500));
    for (let round = 0; round < 3; round++) {
      append(3);
      for (const offset of [2, 300, 1503, 2005])
        expect(page(null, 10, offset), `offset ${offset}`).toEqual(reference(null, 10, offset));
    }
  });

  it('walk a deep page of one status from its nearer end, to the last partial page and past it', () => {
    t.sandbox.reset();
    append(1000);
    const ids = db.prepare('SELECT id FROM invoices ORDER BY id').pluck().all() as string[];
    ids.forEach((id, i) => i % 7 === 0 && repo.setStatus(id, 'expired', clock));
    for (const status of ['pending', 'expired'] as const) {
      const total = ids.filter((_, i) => (i % 7 === 0) === (status === 'expired')).length;
      for (const offset of [
        256,
        300,
        total - 300,
        total - 100,
        total - 10,
        total - 3,
        total,
        total + 2,
        total + 50,
      ]) {
        for (const limit of [1, 10, 100]) {
          if (offset < 0) continue;
          expect(page(status, limit, offset), `${status} ${limit} ${offset}`).toEqual(
            reference(status, limit, offset),
          );
        }
      }
    }
  });

  it('notice an invoice inserted in the middle (a clock set back across restarts)', () => {
    t.sandbox.reset();
    append(2000);
    expect(page(null, 10, 1500)).toEqual(reference(null, 10, 1500));
    insert(clock - 1000 * 5); // lands about 1,000 rows down
    for (const offset of [300, 900, 1100, 1500])
      expect(page(null, 10, offset), `offset ${offset}`).toEqual(reference(null, 10, offset));
  });

  it('notice a reset of the sandbox even when as many invoices come back', () => {
    t.sandbox.reset();
    append(1200);
    expect(page(null, 10, 1000)).toEqual(reference(null, 10, 1000));
    t.sandbox.reset();
    clock -= 10_000_000; // older than before: nothing new is "newer than the newest known"
    append(1200);
    expect(page(null, 10, 1000)).toEqual(reference(null, 10, 1000));
  });
});
