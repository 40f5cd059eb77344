import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open.js';
import { ApiError } from '../shared/api-error.js';
import { createClock } from '../shared/clock.js';
import { balanceStatement } from './balance-statement.js';
import type { LedgerApi } from './ledger.api.js';
import { createLedgerRepository } from './ledger.repo.js';

// The statement built straight from the ledger, at known times: which entries a month holds, the
// balance it opens with, and how its query is read.
let db: Db;
let ledger: LedgerApi;
let nowMs = 0;
let seq = 0;
beforeEach(() => {
  db = openDatabase(':memory:');
  seq = 0;
  ledger = createLedgerRepository(db, createClock({ realNowMs: () => nowMs }), () => `tx-${++seq}`);
  ledger.ensureSystemAccounts();
});
afterEach(() => db.close());

/** The peso wallet of `u1`, funded with `units` at each of the times given. */
function walletFundedAt(fundings: Array<[string, bigint]>): string {
  const id = ledger.createAccount({ ownerType: 'user', ownerId: 'u1', name: 'w', currency: 'PHP' });
  for (const [at, units] of fundings) {
    nowMs = Date.parse(at);
    ledger.post('funding', null, [
      { accountId: ledger.systemAccount('funding', 'PHP'), amount: -units },
      { accountId: id, amount: units },
    ]);
  }
  return id;
}

/** The rows of a statement as [entry_type, created_at, reference, amount, balance]. */
const rows = (csv: string) =>
  csv
    .split('\r\n')
    .slice(1, -1)
    .map((l) => l.split(','))
    .map((r) => [r[0], r[2], r[4], r[6], r[7]]);

function refusal(q: Parameters<typeof balanceStatement>[2]): ApiError {
  try {
    balanceStatement(ledger, 'u1', q);
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('balanceStatement()', () => {
  it("holds the month's entries only, opening with the balance at the month's first instant", () => {
    walletFundedAt([
      ['2026-09-30T23:59:59.999Z', 100_00000000n],
      ['2026-10-01T00:00:00.000Z', 5_00000000n],
      ['2026-10-31T12:00:00.000Z', 2_00000000n],
      ['2026-11-01T00:00:00.000Z', 7_00000000n],
    ]);
    // From the first microsecond of the month to the last; a funding names no reference.
    expect(rows(balanceStatement(ledger, 'u1', { year: 2026, month: 10 }))).toEqual([
      ['incoming', '2026-10-01T00:00:00.000000Z', '', '5.00000000', '105.00000000'],
      ['incoming', '2026-10-31T12:00:00.000000Z', '', '2.00000000', '107.00000000'],
    ]);
    expect(rows(balanceStatement(ledger, 'u1', { year: 2026, month: 11 }))).toEqual([
      ['incoming', '2026-11-01T00:00:00.000000Z', '', '7.00000000', '114.00000000'],
    ]);
    expect(rows(balanceStatement(ledger, 'u1', { year: 2026, month: 12 }))).toEqual([]);
  });

  it('reads the currency trimmed and in any case, the peso wallet as PBTC by default', () => {
    walletFundedAt([['2026-10-05T08:00:00.000Z', 1_00000000n]]);
    const october = { year: 2026, month: 10 };
    const expected = rows(balanceStatement(ledger, 'u1', october));
    expect(expected).toHaveLength(1);
    expect(rows(balanceStatement(ledger, 'u1', { ...october, currency: ' pbtc ' }))).toEqual(
      expected,
    );
    expect(refusal({ ...october, currency: '  ' }).errors).toEqual({
      currency: ['This field may not be blank.'],
    });
  });

  it('names each missing field of the month', () => {
    walletFundedAt([]);
    expect(refusal({}).errors).toEqual({
      month: ['This field is required.'],
      year: ['This field is required.'],
    });
    expect(refusal({ month: 10 }).errors).toEqual({ year: ['This field is required.'] });
  });
});
