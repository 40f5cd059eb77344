import type { Db } from '../db/open.js';

export interface PayoutOutletRow {
  id: string;
  name: string;
  category: string;
  currency: string;
}

export interface PayinOutletRow {
  id: string;
  name: string;
  collector: string;
  currency: string;
  instructions: string;
}

export interface AmountRange {
  minimum: bigint;
  maximum: bigint;
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
  const outletById = db.prepare(
    "SELECT id, name, category, currency FROM outlets WHERE kind = 'payout' AND id = ?",
  );
  const outletsPage = db.prepare(
    "SELECT id, name, category, currency FROM outlets WHERE kind = 'payout' ORDER BY position, id LIMIT ? OFFSET ?",
  );
  const outletsCount = db.prepare("SELECT COUNT(*) AS n FROM outlets WHERE kind = 'payout'");
  const bracketsOf = db
    .prepare('SELECT * FROM payout_outlet_fees WHERE outlet_id = ? ORDER BY from_amount, id')
    .safeIntegers(true);
  const feesPage = db
    .prepare('SELECT * FROM payout_outlet_fees ORDER BY position, id LIMIT ? OFFSET ?')
    .safeIntegers(true);
  const feesCount = db.prepare('SELECT COUNT(*) AS n FROM payout_outlet_fees');
  const feesOfPage = db
    .prepare(
      'SELECT * FROM payout_outlet_fees WHERE outlet_id = ? ORDER BY position, id LIMIT ? OFFSET ?',
    )
    .safeIntegers(true);
  const feesOfCount = db.prepare(
    'SELECT COUNT(*) AS n FROM payout_outlet_fees WHERE outlet_id = ?',
  );

  const payinOutlets = db.prepare(
    "SELECT id, name, collector, currency, instructions FROM outlets WHERE kind = 'payin' ORDER BY position, id",
  );
  const allPayout = db.prepare(
    "SELECT id, name, category, currency FROM outlets WHERE kind = 'payout' ORDER BY position, id",
  );
  const rangeOf = db
    .prepare(
      'SELECT MIN(from_amount) AS minimum, MAX(until_amount) AS maximum FROM payout_outlet_fees WHERE outlet_id = ?',
    )
    .safeIntegers(true);
  const insertOutlet = db.prepare(
    "INSERT INTO outlets (id, kind, name, collector, category, currency, instructions, position) VALUES (?, 'payout', ?, NULL, ?, ?, '', ?)",
  );
  const insertFee = db.prepare(
    `INSERT INTO payout_outlet_fees (id, outlet_id, currency, from_amount, until_amount, fee_amount, fee_percent, position)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const nextPosition = db.prepare(
    "SELECT COALESCE(MAX(position) + 1, 0) AS p FROM outlets WHERE kind = 'payout'",
  );
  const nextFeePosition = db.prepare(
    'SELECT COALESCE(MAX(position) + 1, 0) AS p FROM payout_outlet_fees',
  );
  const nameOf = db.prepare('SELECT name FROM outlets WHERE id = ?').pluck();
  const categoryOf = db.prepare('SELECT category FROM outlets WHERE id = ?').pluck();
  // Pay-in outlets are named by id or by collector (a buy order's payment method).
  const payinOutlet = db.prepare(
    "SELECT id, name, collector, currency, instructions FROM outlets WHERE kind = 'payin' AND (id = @v OR collector = @v) ORDER BY position LIMIT 1",
  );
  return {
    /** Any outlet's name (a sell order shows its outlet's). */
    outletName: (id: string) => nameOf.get(id) as string | undefined,
    /** Any outlet's category (a sell order's wire fields depend on it). */
    outletCategory: (id: string) => categoryOf.get(id) as string | undefined,
    payinOutlet: (idOrCollector: string) =>
      payinOutlet.get({ v: idOrCollector }) as PayinOutletRow | undefined,
    payinOutlets: () => payinOutlets.all() as PayinOutletRow[],
    allPayoutOutlets: () => allPayout.all() as PayoutOutletRow[],
    /** The amounts an outlet's fee brackets cover, or undefined when it has none. */
    amountRange: (outletId: string): AmountRange | undefined => {
      const r = rangeOf.get(outletId) as { minimum: bigint | null; maximum: bigint | null };
      return r.minimum === null || r.maximum === null
        ? undefined
        : { minimum: r.minimum, maximum: r.maximum };
    },
    /** Adds a payout outlet with its brackets after the existing ones (the built-in coins_transfer). */
    insertPayoutOutlet(
      o: PayoutOutletRow,
      brackets: Array<Omit<FeeBracketRow, 'outlet_id' | 'currency'>>,
    ) {
      insertOutlet.run(
        o.id,
        o.name,
        o.category,
        o.currency,
        (nextPosition.get() as { p: number }).p,
      );
      for (const b of brackets) {
        const pos = (nextFeePosition.get() as { p: number }).p;
        insertFee.run(
          b.id,
          o.id,
          o.currency,
          b.from_amount,
          b.until_amount,
          b.fee_amount,
          b.fee_percent,
          pos,
        );
      }
    },
    payoutOutlet: (id: string) => outletById.get(id) as PayoutOutletRow | undefined,
    payoutOutletsPage: (limit: number, offset: number) =>
      outletsPage.all(limit, offset) as PayoutOutletRow[],
    payoutOutletsCount: () => (outletsCount.get() as { n: number }).n,
    brackets: (outletId: string) => bracketsOf.all(outletId) as FeeBracketRow[],
    feesPage: (outletId: string | undefined, limit: number, offset: number) =>
      (outletId === undefined
        ? feesPage.all(limit, offset)
        : feesOfPage.all(outletId, limit, offset)) as FeeBracketRow[],
    feesCount: (outletId: string | undefined) =>
      ((outletId === undefined ? feesCount.get() : feesOfCount.get(outletId)) as { n: number }).n,
  };
}

export type OutletRepository = ReturnType<typeof createOutletRepository>;
