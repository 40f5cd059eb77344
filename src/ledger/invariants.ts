import type { Db } from '../db/open.js';

/**
 * Check the ledger (tests call it after every scenario): every transaction balances, the trial
 * balance is zero, cached balances equal the sum of entries, and no wallet is negative.
 * Throws with every violation found.
 */
export function assertLedgerInvariants(db: Db): void {
  const problems: string[] = [];
  const unbalanced = db
    .prepare('SELECT transaction_id, SUM(amount) AS s FROM ledger_entries GROUP BY transaction_id HAVING SUM(amount) <> 0')
    .safeIntegers(true)
    .all() as Array<{ transaction_id: string; s: bigint }>;
  for (const u of unbalanced) problems.push(`transaction ${u.transaction_id} sums to ${u.s}`);
  const trial = db.prepare('SELECT COALESCE(SUM(amount), 0) AS s FROM ledger_entries').safeIntegers(true).get() as { s: bigint };
  if (trial.s !== 0n) problems.push(`trial balance is ${trial.s}`);
  const drift = db
    .prepare(
      `SELECT a.id, a.balance, COALESCE(SUM(e.amount), 0) AS s FROM accounts a
       LEFT JOIN ledger_entries e ON e.account_id = a.id GROUP BY a.id HAVING a.balance <> COALESCE(SUM(e.amount), 0)`,
    )
    .safeIntegers(true)
    .all() as Array<{ id: string; balance: bigint; s: bigint }>;
  for (const d of drift) problems.push(`account ${d.id} caches ${d.balance} but its entries sum to ${d.s}`);
  const received = db
    .prepare(
      `SELECT a.id, a.total_received AS t, COALESCE(SUM(CASE WHEN e.amount > 0 THEN e.amount END), 0) AS s FROM accounts a
       LEFT JOIN ledger_entries e ON e.account_id = a.id GROUP BY a.id HAVING a.total_received <> COALESCE(SUM(CASE WHEN e.amount > 0 THEN e.amount END), 0)`,
    )
    .safeIntegers(true)
    .all() as Array<{ id: string; t: bigint; s: bigint }>;
  for (const r of received) problems.push(`account ${r.id} caches total_received ${r.t} but its credits sum to ${r.s}`);
  const negative = db
    .prepare('SELECT id, balance FROM accounts WHERE allow_negative = 0 AND balance < 0')
    .safeIntegers(true)
    .all() as Array<{ id: string; balance: bigint }>;
  for (const n of negative) problems.push(`wallet ${n.id} is negative (${n.balance})`);
  const emptyTx = db
    .prepare('SELECT t.id FROM ledger_transactions t LEFT JOIN ledger_entries e ON e.transaction_id = t.id WHERE e.id IS NULL')
    .all() as Array<{ id: string }>;
  for (const t of emptyTx) problems.push(`transaction ${t.id} has no entries`);
  if (problems.length) throw new Error('ledger invariants violated:\n' + problems.join('\n'));
}
