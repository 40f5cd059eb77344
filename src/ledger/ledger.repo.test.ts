import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open.js';
import { createClock } from '../shared/clock.js';
import { assertLedgerInvariants } from './invariants.js';
import type { LedgerApi } from './ledger.api.js';
import { SYSTEM_ACCOUNTS } from './system-accounts.js';
import { createLedgerRepository, LedgerImbalanceError } from './ledger.repo.js';

let db: Db;
let ledger: LedgerApi;
let seq = 0;
// A fixed real time, so created_at values are known; the clock still makes every reading strictly larger.
const T0_MS = 1_763_800_000_000;

beforeEach(() => {
  db = openDatabase(':memory:');
  seq = 0;
  ledger = createLedgerRepository(db, createClock({ realNowMs: () => T0_MS }), () => `id-${++seq}`);
  ledger.ensureSystemAccounts();
});
afterEach(() => db.close());

const count = (table: 'ledger_transactions' | 'ledger_entries') =>
  (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
const balance = (id: string) => ledger.get(id)!.balance;

function wallet(ownerId = 'u1', name = 'PHP wallet'): string {
  return ledger.createAccount({ ownerType: 'user', ownerId, name, currency: 'PHP' });
}

describe('ledger repository: post()', () => {
  it('records a balanced transaction: one row, one entry per non-zero posting, cached balances moved', () => {
    const a = wallet();
    const txId = ledger.post('funding', 'ref-1', [
      { accountId: SYSTEM_ACCOUNTS.funding, amount: -500n },
      { accountId: a, amount: 500n },
      { accountId: SYSTEM_ACCOUNTS.payoutFees, amount: 0n },
    ]);
    expect(db.prepare('SELECT id, kind, reference FROM ledger_transactions').all()).toEqual([
      { id: txId, kind: 'funding', reference: 'ref-1' },
    ]);
    const entries = db
      .prepare('SELECT transaction_id, account_id, amount FROM ledger_entries ORDER BY id')
      .all();
    expect(entries).toEqual([
      { transaction_id: txId, account_id: SYSTEM_ACCOUNTS.funding, amount: -500 },
      { transaction_id: txId, account_id: a, amount: 500 },
    ]);
    expect(balance(a)).toBe(500n);
    expect(balance(SYSTEM_ACCOUNTS.funding)).toBe(-500n);
    expect(balance(SYSTEM_ACCOUNTS.payoutFees)).toBe(0n);
    assertLedgerInvariants(db);
  });

  it.each([
    ['credits more than it debits', [-500n, 501n], 'unbalanced transfer: 1'],
    ['debits more than it credits', [-501n, 500n], 'unbalanced transfer: -1'],
    ['has one posting only', [0n], 'unbalanced transfer: 0'],
    ['has no postings', [], 'unbalanced transfer: 0'],
  ])(
    'refuses a transaction that %s with LedgerImbalanceError and writes nothing',
    (_what, amounts, message) => {
      const a = wallet();
      const b = wallet('u2');
      ledger.post('funding', null, [
        { accountId: SYSTEM_ACCOUNTS.funding, amount: -1000n },
        { accountId: a, amount: 1000n },
      ]);
      const before = {
        tx: count('ledger_transactions'),
        entries: count('ledger_entries'),
        a: balance(a),
        b: balance(b),
      };
      const accounts = [a, b];
      const postings = amounts.map((amount, i) => ({ accountId: accounts[i]!, amount }));
      // Outside any transaction: the guard must refuse before the first write, not rely on a rollback.
      let thrown: unknown;
      try {
        ledger.post('transfer', 'ref-x', postings);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(LedgerImbalanceError);
      expect((thrown as Error).message).toBe(message);
      expect({
        tx: count('ledger_transactions'),
        entries: count('ledger_entries'),
        a: balance(a),
        b: balance(b),
      }).toEqual(before);
      assertLedgerInvariants(db);
    },
  );

  it('refuses (and, inside a transaction, rolls back) a posting that would make a wallet negative', () => {
    const a = wallet();
    const b = wallet('u2');
    const move = db.transaction(() =>
      ledger.post('transfer', null, [
        { accountId: a, amount: -1n },
        { accountId: b, amount: 1n },
      ]),
    );
    expect(() => move()).toThrow(/CHECK constraint failed/);
    expect(count('ledger_transactions')).toBe(0);
    expect(count('ledger_entries')).toBe(0);
    expect([balance(a), balance(b)]).toEqual([0n, 0n]);
  });

  it('lets system accounts go negative: they stand for the world outside', () => {
    const a = wallet();
    ledger.post('counter_payment', null, [
      { accountId: SYSTEM_ACCOUNTS.counterClearing, amount: -7n },
      { accountId: a, amount: 7n },
    ]);
    expect(balance(SYSTEM_ACCOUNTS.counterClearing)).toBe(-7n);
    assertLedgerInvariants(db);
  });
});

describe('ledger repository: accounts', () => {
  it('creates an account with its id as default address, zero balances and the clock time', () => {
    const id = wallet('u1', 'Peso');
    expect(ledger.get(id)).toEqual({
      id,
      owner_type: 'user',
      owner_id: 'u1',
      name: 'Peso',
      currency: 'PHP',
      balance: 0n,
      pending_balance: 0n,
      total_received: 0n,
      default_address: id,
      allow_negative: 0,
      created_at: expect.any(Number),
    });
    expect(ledger.get(id)!.created_at).toBeGreaterThanOrEqual(T0_MS * 1000);
    expect(ledger.get('nope')).toBeUndefined();
  });

  it('takes a given id, and allowNegative only when asked', () => {
    const id = ledger.createAccount({
      id: 'acct-x',
      ownerType: 'merchant',
      ownerId: 'm1',
      name: 'M',
      currency: 'USD',
      allowNegative: true,
    });
    expect(id).toBe('acct-x');
    expect(ledger.get('acct-x')).toMatchObject({
      owner_type: 'merchant',
      currency: 'USD',
      allow_negative: 1,
    });
  });

  it('creates the system accounts once, as negative-allowed PHP accounts of the sandbox', () => {
    ledger.ensureSystemAccounts();
    const rows = db
      .prepare(
        "SELECT id, name, currency, allow_negative FROM accounts WHERE owner_type = 'system' ORDER BY id",
      )
      .all();
    expect(rows).toEqual(
      Object.entries(SYSTEM_ACCOUNTS)
        .map(([name, id]) => ({ id, name, currency: 'PHP', allow_negative: 1 }))
        .sort((x, y) => x.id.localeCompare(y.id)),
    );
    expect(ledger.get(SYSTEM_ACCOUNTS.funding)!.owner_id).toBe('sandbox');
  });

  it('lists an owner’s accounts newest first, and only theirs', () => {
    const first = wallet('u1', 'first');
    const second = wallet('u1', 'second');
    wallet('u2', 'other');
    expect(ledger.byOwner('user', 'u1').map((a) => a.id)).toEqual([second, first]);
    expect(ledger.byOwner('user', 'u1')[0]).toMatchObject({
      balance: 0n,
      allow_negative: 0,
      created_at: expect.any(Number),
    });
    expect(ledger.byOwner('merchant', 'u1')).toEqual([]);
  });
});
