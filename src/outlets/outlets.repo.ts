import type { Db } from '../db/open.js';

export interface PayoutOutletRow {
  id: string;
  name: string;
  category: string;
  currency: string;
}

export interface FeeBracketRow {
  id: string;
  outlet_id: string;
  currency: string;
  from_amount: bigint;
  until_amount: bigint;
  fee_amount: bigint;
  fee_percent: string;
}

/**
 * Payout outlets and their fee brackets (loaded from fixtures by the core loader). SQL only.
 * Money columns come back as BigInt (exact).
 */
export function createOutletRepository(db: Db) {
  const outletById = db.prepare("SELECT id, name, category, currency FROM outlets WHERE kind = 'payout' AND id = ?");
  const outletsPage = db.prepare(
    "SELECT id, name, category, currency FROM outlets WHERE kind = 'payout' ORDER BY position, id LIMIT ? OFFSET ?",
  );
  const outletsCount = db.prepare("SELECT COUNT(*) AS n FROM outlets WHERE kind = 'payout'");
  const bracketsOf = db.prepare('SELECT * FROM payout_outlet_fees WHERE outlet_id = ? ORDER BY from_amount, id').safeIntegers(true);
  const feesPage = db.prepare('SELECT * FROM payout_outlet_fees ORDER BY position, id LIMIT ? OFFSET ?').safeIntegers(true);
  const feesCount = db.prepare('SELECT COUNT(*) AS n FROM payout_outlet_fees');
  const feesOfPage = db
    .prepare('SELECT * FROM payout_outlet_fees WHERE outlet_id = ? ORDER BY position, id LIMIT ? OFFSET ?')
    .safeIntegers(true);
  const feesOfCount = db.prepare('SELECT COUNT(*) AS n FROM payout_outlet_fees WHERE outlet_id = ?');

  return {
    payoutOutlet: (id: string) => outletById.get(id) as PayoutOutletRow | undefined,
    payoutOutletsPage: (limit: number, offset: number) => outletsPage.all(limit, offset) as PayoutOutletRow[],
    payoutOutletsCount: () => (outletsCount.get() as { n: number }).n,
    brackets: (outletId: string) => bracketsOf.all(outletId) as FeeBracketRow[],
    feesPage: (outletId: string | undefined, limit: number, offset: number) =>
      (outletId === undefined ? feesPage.all(limit, offset) : feesOfPage.all(outletId, limit, offset)) as FeeBracketRow[],
    feesCount: (outletId: string | undefined) =>
      ((outletId === undefined ? feesCount.get() : feesOfCount.get(outletId)) as { n: number }).n,
  };
}

export type OutletRepository = ReturnType<typeof createOutletRepository>;
