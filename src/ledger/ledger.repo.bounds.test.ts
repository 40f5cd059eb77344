import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open.js';
import { createClock } from '../shared/clock.js';
import { MAX_ACCOUNT_UNITS } from '../shared/money.js';
import { assertLedgerInvariants } from './invariants.js';
import type { LedgerApi } from './ledger.api.js';
import { BalanceLimitError, createLedgerRepository, LedgerImbalanceError } from './ledger.repo.js';
import { SYSTEM_ACCOUNTS } from './system-accounts.js';

// The ledger repository at its edges: postings at and past MAX_ACCOUNT_UNITS (and past what SQLite can
// bind), an account that does not exist, and the system accounts made per currency.
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

const wallet = (ownerId = 'u1') =>
  ledger.createAccount({ ownerType: 'user', ownerId, name: 'w', currency: 'PHP' });
const count = () => db.prepare('SELECT COUNT(*) FROM ledger_entries').pluck().get() as number;

/** What `fn` threw (it must throw). */
function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

const LIMIT = '90000000000';
const WALLET_PAST = `This would take the account past ${LIMIT} PHP, the most the sandbox keeps exact.`;
const TOTAL_PAST = `This would take the account's total received past ${LIMIT} PHP, the most the sandbox keeps exact.`;
const SYSTEM_PAST = `This would take the sandbox's PHP system account past ${LIMIT} PHP, the most the sandbox keeps exact.`;

describe('post() at the bounds', () => {
  it('takes a posting of exactly MAX_ACCOUNT_UNITS either way', () => {
    const a = wallet();
    ledger.post('funding', null, [
      { accountId: SYSTEM_ACCOUNTS.funding, amount: -MAX_ACCOUNT_UNITS },
      { accountId: a, amount: MAX_ACCOUNT_UNITS },
    ]);
    expect(ledger.get(a)?.balance).toBe(MAX_ACCOUNT_UNITS);
    expect(ledger.get(SYSTEM_ACCOUNTS.funding)?.balance).toBe(-MAX_ACCOUNT_UNITS);
    assertLedgerInvariants(db);
  });

  // Past int64 better-sqlite3 cannot bind the amount at all (a RangeError): the bound is checked first,
  // whichever posting comes first and whichever its sign.
  it.each([
    ['a credit past int64 first', 1],
    ['a debit past int64 first', -1],
  ])('refuses %s with the 400 of the account it names, before binding it', (_what, firstSign) => {
    const a = wallet();
    const huge = 2n ** 64n;
    const postings = [
      { accountId: a, amount: huge },
      { accountId: SYSTEM_ACCOUNTS.funding, amount: -huge },
    ];
    if (firstSign < 0) postings.reverse();
    const err = thrownBy(() => db.transaction(() => ledger.post('funding', null, postings))());
    expect(err).toBeInstanceOf(BalanceLimitError);
    expect((err as BalanceLimitError).errors).toEqual({
      amount: [firstSign > 0 ? WALLET_PAST : SYSTEM_PAST],
    });
    expect(count()).toBe(0);
  });

  it('names an account that does not exist (a programming error, not a 400)', () => {
    const a = wallet();
    const err = thrownBy(() =>
      db.transaction(() =>
        ledger.post('transfer', null, [
          { accountId: 'no-such-account', amount: -5n },
          { accountId: a, amount: 5n },
        ]),
      )(),
    );
    expect(err).toBeInstanceOf(LedgerImbalanceError);
    expect((err as Error).message).toBe('transfer: no account no-such-account');
    expect(count()).toBe(0);
  });
});

describe('requireRoom()', () => {
  it('lets a system account take any amount its balance has room for: its total received is not kept', () => {
    const a = wallet();
    ledger.post('funding', null, [
      { accountId: SYSTEM_ACCOUNTS.funding, amount: -500n },
      { accountId: a, amount: 500n },
    ]);
    // -500 + (MAX + 1) is inside the bound; a wallet's total received would not be.
    expect(() => ledger.requireRoom(SYSTEM_ACCOUNTS.funding, MAX_ACCOUNT_UNITS + 1n)).not.toThrow();
    expect(
      thrownBy(() => ledger.requireRoom(SYSTEM_ACCOUNTS.funding, MAX_ACCOUNT_UNITS + 501n)),
    ).toEqual(expect.objectContaining({ errors: { amount: [SYSTEM_PAST] } }));
  });

  it('refuses a wallet whose total received would pass the bound even when its balance would not', () => {
    const a = wallet();
    const b = wallet('u2');
    ledger.post('funding', null, [
      { accountId: SYSTEM_ACCOUNTS.funding, amount: -MAX_ACCOUNT_UNITS },
      { accountId: a, amount: MAX_ACCOUNT_UNITS },
    ]);
    ledger.post('transfer', null, [
      { accountId: a, amount: -MAX_ACCOUNT_UNITS },
      { accountId: b, amount: MAX_ACCOUNT_UNITS },
    ]);
    expect(ledger.get(a)?.balance).toBe(0n);
    // The message names what is full: the total received, not the balance.
    expect(thrownBy(() => ledger.requireRoom(a, 1n))).toEqual(
      expect.objectContaining({ errors: { amount: [TOTAL_PAST] } }),
    );
    expect(
      thrownBy(() =>
        ledger.post('transfer', null, [
          { accountId: b, amount: -1n },
          { accountId: a, amount: 1n },
        ]),
      ),
    ).toEqual(expect.objectContaining({ errors: { amount: [TOTAL_PAST] } }));
  });

  it('says nothing of an account that does not exist (post() names it)', () => {
    expect(() => ledger.requireRoom('no-such-account', 1n)).not.toThrow();
  });
});

describe('systemAccount()', () => {
  it('makes the account of a purpose in another currency once, named with its currency', () => {
    const btc = ledger.systemAccount('funding', 'BTC');
    expect(ledger.systemAccount('funding', 'BTC')).toBe(btc);
    expect(ledger.get(btc)).toMatchObject({
      name: 'funding (BTC)',
      currency: 'BTC',
      owner_type: 'system',
      owner_id: 'sandbox',
      allow_negative: 1,
    });
    // The peso one is the purpose alone.
    expect(ledger.get(ledger.systemAccount('funding', 'PHP'))?.name).toBe('funding');
  });
});
