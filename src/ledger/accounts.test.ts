import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open.js';
import { createClock } from '../shared/clock.js';
import { createAccountService } from './accounts.service.js';
import { accountSummary, cryptoAccountResource, sandboxAccount } from './accounts.view.js';
import type { LedgerApi } from './ledger.api.js';
import { createLedgerRepository } from './ledger.repo.js';

let db: Db;
let ledger: LedgerApi;
let seq = 0;
beforeEach(() => {
  db = openDatabase(':memory:');
  seq = 0;
  ledger = createLedgerRepository(db, createClock(), () => `acct-${++seq}`);
  ledger.ensureSystemAccounts();
});
afterEach(() => db.close());

function fundedWallet(
  ownerId: string,
  currency: string,
  units: bigint,
  name = `${currency} wallet`,
) {
  const id = ledger.createAccount({ ownerType: 'user', ownerId, name, currency });
  ledger.post('funding', null, [
    { accountId: ledger.systemAccount('funding', currency), amount: -units },
    { accountId: id, amount: units },
  ]);
  return id;
}

describe('account views', () => {
  it('shows balances as 8-decimal strings in the three shapes', () => {
    const id = fundedWallet('u1', 'PHP', 150_000_000n, 'Peso');
    const row = ledger.get(id)!;
    // The developer API names the peso wallet PBTC; the control API says PHP.
    expect(cryptoAccountResource(row, true)).toEqual({
      id,
      name: 'Peso',
      currency: 'PBTC',
      balance: '1.50000000',
      pending_balance: '0.00000000',
      total_received: '1.50000000',
      default_address: id,
      is_default: true,
    });
    expect(accountSummary(row)).toEqual({
      id,
      name: 'Peso',
      currency: 'PHP',
      balance: '1.50000000',
    });
    expect(sandboxAccount(row)).toEqual({
      id,
      name: 'Peso',
      currency: 'PHP',
      balance: '1.50000000',
      pending_balance: '0.00000000',
      owner: { type: 'user', id: 'u1' },
    });
  });
});

describe('total_received and is_default', () => {
  it('counts every credit, never a debit, and marks the oldest account of each currency as the default', () => {
    const accounts = createAccountService({ ledger });
    const first = fundedWallet('u1', 'PHP', 500n);
    const second = fundedWallet('u1', 'PHP', 100n);
    ledger.post('transfer', null, [
      { accountId: first, amount: -200n },
      { accountId: second, amount: 200n },
    ]);
    const btc = fundedWallet('u1', 'BTC', 7n);
    const listed = accounts.listForUser('u1', {})['crypto-accounts'];
    expect(listed.map((a) => [a.id, a.balance, a.total_received, a.is_default])).toEqual([
      [btc, '0.00000007', '0.00000007', true],
      [second, '0.00000300', '0.00000300', false],
      [first, '0.00000300', '0.00000500', true],
    ]);
  });
});

describe('listForUser', () => {
  it('lists a user’s wallets newest first, one page at a time, with page metas', () => {
    const accounts = createAccountService({ ledger });
    const php = fundedWallet('u1', 'PHP', 1n);
    const btc = fundedWallet('u1', 'BTC', 2n);
    const usd = fundedWallet('u1', 'USD', 3n);
    fundedWallet('u2', 'PHP', 4n);
    const all = accounts.listForUser('u1', {});
    expect(all['crypto-accounts'].map((a) => a.id)).toEqual([usd, btc, php]);
    expect(all.meta).toEqual({ total_count: 3, next_page: null, previous_page: null });
    const second = accounts.listForUser('u1', { page: 2, per_page: 1 });
    expect(second['crypto-accounts'].map((a) => a.id)).toEqual([btc]);
    expect(second.meta).toEqual({ total_count: 3, next_page: 3, previous_page: 1 });
    expect(accounts.listForUser('u1', { page: 4, per_page: 1 })['crypto-accounts']).toEqual([]);
  });

  it('filters by currency in any case, the peso wallet as PBTC, one code or a comma-separated list', () => {
    const accounts = createAccountService({ ledger });
    const php = fundedWallet('u1', 'PHP', 1n);
    const btc = fundedWallet('u1', 'BTC', 2n);
    fundedWallet('u1', 'ETH', 3n);
    for (const currency of ['PBTC', 'pbtc', 'Pbtc', ' PBTC ']) {
      const res = accounts.listForUser('u1', { currency });
      expect(
        res['crypto-accounts'].map((a) => a.id),
        currency,
      ).toEqual([php]);
      expect(res.meta.total_count).toBe(1);
    }
    expect(
      accounts.listForUser('u1', { currency: 'PBTC,BTC' })['crypto-accounts'].map((a) => a.id),
    ).toEqual([btc, php]);
    expect(accounts.listForUser('u1', { currency: 'btc, pbtc,XRP' }).meta.total_count).toBe(2);
    // The ledger's own name for the peso wallet is not a developer-API currency.
    expect(accounts.listForUser('u1', { currency: 'PHP' })['crypto-accounts']).toEqual([]);
    expect(accounts.listForUser('u1', { currency: 'EUR' })['crypto-accounts']).toEqual([]);
  });
});

describe('kept pages', () => {
  const changes = () => db.prepare('SELECT total_changes()').pluck().get() as number;

  it('answers from the kept page while nothing changed, and renders again after any write', () => {
    const id = fundedWallet('u1', 'PHP', 100_000_000n);
    const accounts = createAccountService({ ledger, version: changes });
    const first = accounts.listForUser('u1', {});
    expect(accounts.listForUser('u1', {})).toBe(first); // the same page: nothing was read again
    expect(accounts.listForUser('u1', { per_page: 1 })).not.toBe(first); // another query, its own page
    ledger.post('funding', null, [
      { accountId: ledger.systemAccount('funding', 'PHP'), amount: -50_000_000n },
      { accountId: id, amount: 50_000_000n },
    ]);
    const after = accounts.listForUser('u1', {});
    expect(after).not.toBe(first);
    expect(after['crypto-accounts'][0]?.balance).toBe('1.50000000');
  });

  it('renders again after `forget` (a rollback) even when the version did not move', () => {
    let version = 7;
    fundedWallet('u1', 'PHP', 100_000_000n);
    const accounts = createAccountService({ ledger, version: () => version });
    const first = accounts.listForUser('u1', {});
    expect(accounts.listForUser('u1', {})).toBe(first);
    accounts.forget();
    expect(accounts.listForUser('u1', {})).not.toBe(first);
    version = 8;
    const third = accounts.listForUser('u1', {});
    expect(accounts.listForUser('u1', {})).toBe(third);
  });

  it('keeps a page per page number and page size: another one is never answered from it', () => {
    for (const c of ['PHP', 'BTC', 'ETH', 'USDT']) fundedWallet('u1', c, 1n);
    const accounts = createAccountService({ ledger, version: () => 1 });
    const ids = (q: { page?: number; per_page?: number }) =>
      accounts.listForUser('u1', q)['crypto-accounts'].map((a) => a.currency);
    expect(ids({ per_page: 1, page: 2 })).toEqual(['ETH']);
    expect(ids({ per_page: 1, page: 3 })).toEqual(['BTC']);
    expect(ids({ per_page: 2 })).toEqual(['USDT', 'ETH']);
    expect(ids({ per_page: 3 })).toEqual(['USDT', 'ETH', 'BTC']);
  });

  it('keeps up to 1000 pages, each answered from the cache, and starts over past them', () => {
    fundedWallet('u1', 'PHP', 1n);
    const accounts = createAccountService({ ledger, version: () => 1 });
    // 1000 distinct queries (a currency that matches nothing is a query of its own).
    const query = (i: number) => ({ currency: `X${i}` });
    const first = accounts.listForUser('u1', query(0));
    const second = accounts.listForUser('u1', query(1));
    expect(accounts.listForUser('u1', query(0))).toBe(first); // two pages kept side by side
    for (let i = 2; i < 1000; i++) accounts.listForUser('u1', query(i));
    expect(accounts.listForUser('u1', query(0))).toBe(first);
    expect(accounts.listForUser('u1', query(1))).toBe(second);
    accounts.listForUser('u1', query(1000)); // the 1001st: the cache starts over
    const again = accounts.listForUser('u1', query(0));
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
  });
});
