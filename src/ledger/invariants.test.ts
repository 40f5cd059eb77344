import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open.js';
import { createClock } from '../shared/clock.js';
import { MAX_ACCOUNT_UNITS } from '../shared/money.js';
import { assertLedgerInvariants, checkLedgerInvariants } from './invariants.js';
import type { LedgerApi } from './ledger.api.js';
import { createLedgerRepository, LedgerImbalanceError } from './ledger.repo.js';
import { SYSTEM_ACCOUNTS } from './system-accounts.js';

let db: Db;
let ledger: LedgerApi;
let seq = 0;
beforeEach(() => {
  db = openDatabase(':memory:');
  seq = 0;
  ledger = createLedgerRepository(db, createClock(), () => `id-${++seq}`);
  ledger.ensureSystemAccounts();
});
afterEach(() => db.close());

const wallet = (ownerId: string, currency = 'PHP') =>
  ledger.createAccount({ ownerType: 'user', ownerId, name: 'w', currency });
function entry(tx: string, account: string, amount: number | bigint) {
  db.prepare(
    'INSERT INTO ledger_entries (transaction_id, account_id, amount, created_at) VALUES (?, ?, ?, 0)',
  ).run(tx, account, amount);
}
const tx = (id: string) =>
  db
    .prepare(
      "INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES (?, 'test', NULL, 0)",
    )
    .run(id);

describe('assertLedgerInvariants', () => {
  it('passes on a ledger written only through post(), in two currencies, and reports each currency', () => {
    const a = wallet('u1');
    const b = wallet('u1', 'BTC');
    ledger.post('funding', null, [
      { accountId: SYSTEM_ACCOUNTS.funding, amount: -10n },
      { accountId: a, amount: 10n },
    ]);
    ledger.post('funding', null, [
      { accountId: ledger.systemAccount('funding', 'BTC'), amount: -3n },
      { accountId: b, amount: 3n },
    ]);
    expect(() => assertLedgerInvariants(db)).not.toThrow();
    expect(checkLedgerInvariants(db)).toEqual({
      ok: true,
      problems: [],
      currencies: [
        { currency: 'BTC', trial_balance: '0.00000000', accounts: 2, entries: 2 },
        { currency: 'PHP', trial_balance: '0.00000000', accounts: 5, entries: 2 },
      ],
      transactions: 2,
    });
  });

  it('refuses a transaction that mixes currencies, and writes nothing of it (the caller rolls back)', () => {
    const a = wallet('u1');
    const b = wallet('u1', 'BTC');
    const post = db.transaction(() =>
      ledger.post('funding', null, [
        { accountId: a, amount: 5n },
        { accountId: SYSTEM_ACCOUNTS.funding, amount: -5n },
        { accountId: b, amount: 0n },
      ]),
    );
    expect(post).not.toThrow(); // a zero posting moves nothing and is not written
    const mixed = db.transaction(() =>
      ledger.post('funding', null, [
        { accountId: SYSTEM_ACCOUNTS.funding, amount: -5n },
        { accountId: b, amount: 5n },
      ]),
    );
    expect(mixed).toThrow(new LedgerImbalanceError('funding mixes PHP and BTC'));
    expect(ledger.get(b)!.balance).toBe(0n);
    expect(checkLedgerInvariants(db).ok).toBe(true);
  });

  it('names every violation written behind its back', () => {
    const a = wallet('u1');
    const b = wallet('u2');
    const c = wallet('u3', 'BTC');
    // an unbalanced transaction (which also puts the trial balance off) whose cached balances were not moved
    tx('tx-bad');
    entry('tx-bad', a, 7);
    // a transaction that balances in units but mixes currencies
    tx('tx-mixed');
    entry('tx-mixed', SYSTEM_ACCOUNTS.funding, -2);
    entry('tx-mixed', c, 2);
    // a wallet below zero: the CHECK constraint forbids it, so switch it off to write one
    db.pragma('ignore_check_constraints = ON');
    db.prepare('UPDATE accounts SET balance = -3 WHERE id = ?').run(b);
    db.pragma('ignore_check_constraints = OFF');
    // a figure stored in floating point, past the bound
    db.prepare('UPDATE accounts SET balance = 9.3e18 WHERE id = ?').run(SYSTEM_ACCOUNTS.payoutFees);
    tx('tx-empty');

    const { ok, problems } = checkLedgerInvariants(db);
    expect(ok).toBe(false);
    expect(problems.sort()).toEqual(
      [
        'transaction tx-bad sums to 0.00000007 PHP, not 0',
        'transaction tx-mixed sums to -0.00000002 PHP, not 0',
        'transaction tx-mixed sums to 0.00000002 BTC, not 0',
        'transaction tx-mixed mixes currencies (PHP,BTC)',
        `account ${a} caches a balance of 0.00000000 but its entries sum to 0.00000007`,
        `account ${b} caches a balance of -0.00000003 but its entries sum to 0.00000000`,
        `account ${c} caches a balance of 0.00000000 but its entries sum to 0.00000002`,
        `account ${SYSTEM_ACCOUNTS.funding} caches a balance of 0.00000000 but its entries sum to -0.00000002`,
        `account ${SYSTEM_ACCOUNTS.payoutFees} caches a balance of 93000000000.00000000 but its entries sum to 0.00000000`,
        // the credits written behind its back are not in the cached totals either
        `account ${a} caches total_received 0.00000000 but its credits sum to 0.00000007`,
        `account ${c} caches total_received 0.00000000 but its credits sum to 0.00000002`,
        `account ${SYSTEM_ACCOUNTS.payoutFees} stores a figure as real, not an exact integer`,
        `account ${SYSTEM_ACCOUNTS.payoutFees} is past the bound of 90000000000.00000000 (balance 93000000000.00000000, total received 0.00000000)`,
        `wallet ${b} is negative (-0.00000003)`,
        'transaction tx-empty has no entries',
        'the PHP trial balance is 0.00000005',
        'the BTC trial balance is 0.00000002',
      ].sort(),
    );
    expect(() => assertLedgerInvariants(db)).toThrow(/^ledger invariants violated:\n/);
  });

  it('reports a sum past int64 instead of throwing', () => {
    const a = wallet('u1');
    tx('tx-huge');
    entry('tx-huge', a, MAX_ACCOUNT_UNITS);
    entry('tx-huge', a, MAX_ACCOUNT_UNITS);
    const { ok, problems } = checkLedgerInvariants(db);
    expect(ok).toBe(false);
    // Each check that cannot run at once says so, then runs one account or transaction at a time and
    // names the one that overflows; the trial balance is summed exactly.
    expect(problems).toEqual([
      'the check "balanced per currency" could not run at once: integer overflow',
      'transaction tx-huge: its entries cannot be summed (integer overflow)',
      'the check "cached balances" could not run at once: integer overflow',
      `account ${a}: its entries cannot be summed (integer overflow)`,
      'the check "cached total received" could not run at once: integer overflow',
      `account ${a}: its entries cannot be summed (integer overflow)`,
      'the PHP trial balance is 180000000000.00000000',
    ]);
    // The error lists them one a line.
    let message = '';
    try {
      assertLedgerInvariants(db);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(['ledger invariants violated:', ...problems].join('\n'));
  });

  it('one overflowing account hides nothing else: the other accounts and currencies are still checked', () => {
    const a = wallet('u1');
    const b = wallet('u2');
    const btc = ledger.systemAccount('funding', 'BTC');
    ledger.post('funding', null, [
      { accountId: SYSTEM_ACCOUNTS.funding, amount: -25n },
      { accountId: b, amount: 25n },
    ]);
    // b and the BTC funding account cache figures their entries do not have; a's entries overflow.
    db.prepare('UPDATE accounts SET balance = 93, total_received = 93 WHERE id = ?').run(b);
    db.prepare('UPDATE accounts SET balance = 5 WHERE id = ?').run(btc);
    tx('tx-huge');
    entry('tx-huge', a, MAX_ACCOUNT_UNITS);
    entry('tx-huge', a, MAX_ACCOUNT_UNITS);
    const report = checkLedgerInvariants(db);
    expect(report.problems).toEqual(
      expect.arrayContaining([
        `account ${a}: its entries cannot be summed (integer overflow)`,
        `account ${b} caches a balance of 0.00000093 but its entries sum to 0.00000025`,
        `account ${btc} caches a balance of 0.00000005 but its entries sum to 0.00000000`,
        `account ${b} caches total_received 0.00000093 but its credits sum to 0.00000025`,
      ]),
    );
    expect(report.currencies.map((c) => c.currency)).toEqual(['BTC', 'PHP']);
  });

  it('writes a figure stored as a fraction as it is stored, and names which figure is not an integer', () => {
    const a = wallet('u1');
    const b = wallet('u2');
    db.prepare('UPDATE accounts SET balance = 2.5 WHERE id = ?').run(a);
    db.prepare('UPDATE accounts SET total_received = 0.5 WHERE id = ?').run(b);
    expect(checkLedgerInvariants(db).problems).toEqual([
      `account ${a} caches a balance of 2.5 but its entries sum to 0.00000000`,
      `account ${b} caches total_received 0.5 but its credits sum to 0.00000000`,
      `account ${a} stores a figure as real, not an exact integer`,
      `account ${b} stores a figure as real, not an exact integer`,
    ]);
  });
});
