import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open.js';
import { createClock } from '../shared/clock.js';
import { assertLedgerInvariants } from './invariants.js';
import type { LedgerApi } from './ledger.api.js';
import { createLedgerRepository } from './ledger.repo.js';
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

const wallet = (ownerId: string) => ledger.createAccount({ ownerType: 'user', ownerId, name: 'w', currency: 'PHP' });
function entry(tx: string, account: string, amount: number) {
  db.prepare('INSERT INTO ledger_entries (transaction_id, account_id, amount, created_at) VALUES (?, ?, ?, 0)').run(tx, account, amount);
}

describe('assertLedgerInvariants', () => {
  it('passes on a ledger written only through post()', () => {
    const a = wallet('u1');
    ledger.post('funding', null, [
      { accountId: SYSTEM_ACCOUNTS.funding, amount: -10n },
      { accountId: a, amount: 10n },
    ]);
    expect(() => assertLedgerInvariants(db)).not.toThrow();
  });

  it('names every violation written behind its back: unbalanced, trial balance, drift, negative wallet, empty transaction', () => {
    const a = wallet('u1');
    const b = wallet('u2');
    // an unbalanced transaction (which also puts the trial balance off) whose cached balances were not moved
    db.prepare("INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES ('tx-bad', 'test', NULL, 0)").run();
    entry('tx-bad', a, 7);
    // a wallet below zero: the CHECK constraint forbids it, so switch it off to write one
    db.pragma('ignore_check_constraints = ON');
    db.prepare('UPDATE accounts SET balance = -3 WHERE id = ?').run(b);
    db.pragma('ignore_check_constraints = OFF');
    db.prepare("INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES ('tx-empty', 'test', NULL, 0)").run();

    expect(() => assertLedgerInvariants(db)).toThrow(
      new Error(
        [
          'ledger invariants violated:',
          'transaction tx-bad sums to 7',
          'trial balance is 7',
          ...[`account ${a} caches 0 but its entries sum to 7`, `account ${b} caches -3 but its entries sum to 0`].sort(),
          // the credit written behind its back is not in the cached total either
          `account ${a} caches total_received 0 but its credits sum to 7`,
          `wallet ${b} is negative (-3)`,
          'transaction tx-empty has no entries',
        ].join('\n'),
      ),
    );
  });
});
