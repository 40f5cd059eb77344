import type { Db } from '../db/open.js';
import { formatMoney, MAX_ACCOUNT_UNITS } from '../shared/money.js';

/** What `checkLedgerInvariants` found: `GET /_sandbox/ledger/invariants` answers it as it is. */
export interface LedgerInvariantReport {
  ok: boolean;
  /** One sentence per violation, empty when `ok`. */
  problems: string[];
  /** Per currency: the sum of every entry (zero when the ledger balances) and how many accounts hold it. */
  currencies: Array<{ currency: string; trial_balance: string; accounts: number; entries: number }>;
  transactions: number;
}

type Row = Record<string, unknown>;

type Query = {
  name: string;
  sql: string;
  describe: (row: Row) => string;
  /**
   * When the query cannot run (a sum past int64): the same check one account or transaction at a time,
   * so that the one that overflows is named and every other is still checked.
   */
  fallback?: (db: Db) => Array<Row | string>;
};

/** A figure of the ledger as the API writes amounts (`"20.00000000"`); a non-integer as it is stored. */
const money = (v: unknown) =>
  typeof v === 'bigint'
    ? formatMoney(v)
    : // Stryker disable next-line ConditionalExpression: Number.isInteger is false for anything but a number, so the typeof test only narrows the type
      typeof v === 'number' && Number.isInteger(v)
      ? formatMoney(BigInt(v))
      : String(v);

/**
 * The rules the ledger keeps (docs/design.md#money-bounds), each a query that lists what breaks it. Sums
 * are taken per account or per transaction and currency, whose partial sums the bounds keep inside int64;
 * a sum that still overflows is reported, not thrown.
 */
const RULES: Query[] = [
  {
    name: 'balanced per currency',
    // Every transaction balances in each currency it touches (and touches one currency only).
    sql: `SELECT e.transaction_id AS tx, a.currency AS currency, SUM(e.amount) AS s FROM ledger_entries e
          JOIN accounts a ON a.id = e.account_id GROUP BY e.transaction_id, a.currency HAVING SUM(e.amount) <> 0`,
    describe: (r) => `transaction ${r.tx} sums to ${money(r.s)} ${r.currency}, not 0`,
    fallback: (db) =>
      oneByOne(
        db,
        'SELECT DISTINCT transaction_id FROM ledger_entries ORDER BY transaction_id',
        'transaction',
        `SELECT e.transaction_id AS tx, a.currency AS currency, SUM(e.amount) AS s FROM ledger_entries e
         JOIN accounts a ON a.id = e.account_id WHERE e.transaction_id = ? GROUP BY a.currency HAVING SUM(e.amount) <> 0`,
      ),
  },
  {
    name: 'one currency per transaction',
    sql: `SELECT e.transaction_id AS tx, group_concat(DISTINCT a.currency) AS currencies FROM ledger_entries e
          JOIN accounts a ON a.id = e.account_id GROUP BY e.transaction_id HAVING COUNT(DISTINCT a.currency) > 1`,
    describe: (r) => `transaction ${r.tx} mixes currencies (${r.currencies})`,
  },
  {
    name: 'cached balances',
    sql: `SELECT a.id, a.balance, (SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e WHERE e.account_id = a.id) AS s
          FROM accounts a WHERE a.balance IS NOT s`,
    describe: (r) =>
      `account ${r.id} caches a balance of ${money(r.balance)} but its entries sum to ${money(r.s)}`,
    fallback: (db) =>
      oneByOne(
        db,
        'SELECT id FROM accounts ORDER BY rowid',
        'account',
        `SELECT a.id, a.balance, (SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e WHERE e.account_id = a.id) AS s
         FROM accounts a WHERE a.id = ? AND a.balance IS NOT s`,
      ),
  },
  {
    name: 'cached total received',
    sql: `SELECT a.id, a.total_received AS t,
            (SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e WHERE e.account_id = a.id AND e.amount > 0) AS s
          FROM accounts a WHERE a.owner_type <> 'system' AND a.total_received IS NOT s`,
    describe: (r) =>
      `account ${r.id} caches total_received ${money(r.t)} but its credits sum to ${money(r.s)}`,
    fallback: (db) =>
      oneByOne(
        db,
        "SELECT id FROM accounts WHERE owner_type <> 'system' ORDER BY rowid",
        'account',
        `SELECT a.id, a.total_received AS t,
           (SELECT COALESCE(SUM(e.amount), 0) FROM ledger_entries e WHERE e.account_id = a.id AND e.amount > 0) AS s
         FROM accounts a WHERE a.id = ? AND a.total_received IS NOT s`,
      ),
  },
  {
    name: 'exact integers in accounts',
    sql: `SELECT id, typeof(balance) AS b, typeof(total_received) AS t FROM accounts
          WHERE typeof(balance) <> 'integer' OR typeof(total_received) <> 'integer'`,
    describe: (r) =>
      `account ${r.id} stores a figure as ${r.b === 'integer' ? r.t : r.b}, not an exact integer`,
  },
  {
    name: 'exact integers in entries',
    sql: `SELECT id, typeof(amount) AS k FROM ledger_entries WHERE typeof(amount) <> 'integer'`,
    describe: (r) => `ledger entry ${r.id} stores its amount as ${r.k}, not an exact integer`,
  },
  {
    name: 'bounds',
    sql: `SELECT id, balance, total_received AS t FROM accounts WHERE abs(balance) > ${MAX_ACCOUNT_UNITS}
          OR (owner_type <> 'system' AND total_received > ${MAX_ACCOUNT_UNITS})`,
    describe: (r) =>
      `account ${r.id} is past the bound of ${formatMoney(MAX_ACCOUNT_UNITS)} (balance ${money(r.balance)}, total received ${money(r.t)})`,
  },
  {
    name: 'no negative wallet',
    sql: 'SELECT id, balance FROM accounts WHERE allow_negative = 0 AND balance < 0',
    describe: (r) => `wallet ${r.id} is negative (${money(r.balance)})`,
  },
  {
    name: 'no empty transaction',
    sql: `SELECT t.id FROM ledger_transactions t WHERE NOT EXISTS (SELECT 1 FROM ledger_entries e WHERE e.transaction_id = t.id)`,
    describe: (r) => `transaction ${r.id} has no entries`,
  },
];

function rows(db: Db, sql: string): { rows: Array<Record<string, unknown>>; error?: string } {
  try {
    return { rows: db.prepare(sql).safeIntegers(true).all() as Array<Record<string, unknown>> };
  } catch (err) {
    return { rows: [], error: (err as Error).message };
  }
}

/**
 * A rule's query run for one account or transaction at a time (`check` takes its id): the rows that
 * break the rule, and a sentence for each one whose own sum cannot be taken.
 */
function oneByOne(db: Db, ids: string, noun: string, check: string): Array<Row | string> {
  const each = db.prepare(check).safeIntegers(true);
  const out: Array<Row | string> = [];
  for (const id of db.prepare(ids).pluck().all()) {
    try {
      out.push(...(each.all(id) as Row[]));
    } catch (err) {
      out.push(`${noun} ${String(id)}: its entries cannot be summed (${(err as Error).message})`);
    }
  }
  return out;
}

/** Each currency's trial balance, summed exactly in BigInt when SQLite's sum overflows. */
function trialBalances(db: Db): Row[] {
  const rows = db
    .prepare(
      `SELECT a.currency AS currency, COUNT(DISTINCT a.id) AS accounts, COUNT(e.id) AS entries
       FROM accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id GROUP BY a.currency ORDER BY a.currency`,
    )
    .safeIntegers(true)
    .all() as Row[];
  const amounts = db
    .prepare(
      `SELECT e.amount FROM ledger_entries e JOIN accounts a ON a.id = e.account_id WHERE a.currency = ?`,
    )
    .pluck()
    .safeIntegers(true);
  return rows.map((r) => ({
    ...r,
    // A figure stored other than as an integer is reported by the rule on exact integers.
    s: (amounts.all(r.currency) as unknown[]).reduce<bigint>(
      (sum, v) => (typeof v === 'bigint' ? sum + v : sum),
      0n,
    ),
  }));
}

/** Check every rule of the ledger and say what breaks it (never throws for what it finds). */
export function checkLedgerInvariants(db: Db): LedgerInvariantReport {
  const problems: string[] = [];
  for (const rule of RULES) {
    const found = rows(db, rule.sql);
    if (found.error) {
      problems.push(`the check "${rule.name}" could not run at once: ${found.error}`);
      for (const r of rule.fallback?.(db) ?? [])
        problems.push(typeof r === 'string' ? r : rule.describe(r));
    }
    for (const r of found.rows) problems.push(rule.describe(r));
  }
  const totals = rows(
    db,
    `SELECT a.currency AS currency, COUNT(DISTINCT a.id) AS accounts, COUNT(e.id) AS entries, COALESCE(SUM(e.amount), 0) AS s
     FROM accounts a LEFT JOIN ledger_entries e ON e.account_id = a.id GROUP BY a.currency ORDER BY a.currency`,
  );
  const currencies = (totals.error ? trialBalances(db) : totals.rows).map((r) => ({
    currency: String(r.currency),
    trial_balance: formatMoney(r.s as bigint),
    accounts: Number(r.accounts),
    entries: Number(r.entries),
  }));
  for (const c of currencies)
    if (c.trial_balance !== formatMoney(0n))
      problems.push(`the ${c.currency} trial balance is ${c.trial_balance}`);
  const transactions = Number(db.prepare('SELECT COUNT(*) FROM ledger_transactions').pluck().get());
  return { ok: problems.length === 0, problems, currencies, transactions };
}

/**
 * Check the ledger (tests call it after every scenario; the kill -9 loop and the fuzzer after their
 * runs): per currency, every transaction balances and the trial balance is zero; every account's cached
 * balance (system accounts included) and a wallet's total received equal its entries; no figure is
 * stored other than as an exact integer or past the bounds; no wallet is negative. Throws with every
 * violation found.
 */
export function assertLedgerInvariants(db: Db): void {
  const report = checkLedgerInvariants(db);
  if (!report.ok) throw new Error('ledger invariants violated:\n' + report.problems.join('\n'));
}
