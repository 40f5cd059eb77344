import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open.js';
import { createClock } from '../shared/clock.js';
import { accountSummary, createAccountService, cryptoAccountResource, sandboxAccount } from './accounts.service.js';
import { createLedgerRepository, SYSTEM_ACCOUNTS, type LedgerRepository } from './ledger.repo.js';

let db: Db;
let ledger: LedgerRepository;
let seq = 0;
beforeEach(() => {
  db = openDatabase(':memory:');
  seq = 0;
  ledger = createLedgerRepository(db, createClock(), () => `acct-${++seq}`);
  ledger.ensureSystemAccounts();
});
afterEach(() => db.close());

function fundedWallet(ownerId: string, currency: string, units: bigint, name = `${currency} wallet`) {
  const id = ledger.createAccount({ ownerType: 'user', ownerId, name, currency });
  ledger.post('funding', null, [
    { accountId: SYSTEM_ACCOUNTS.funding, amount: -units },
    { accountId: id, amount: units },
  ]);
  return id;
}

describe('account views', () => {
  it('shows balances as 8-decimal strings in the three shapes', () => {
    const id = fundedWallet('u1', 'PHP', 150_000_000n, 'Peso');
    const row = ledger.get(id)!;
    // The developer API names the peso wallet PBTC; the control API says PHP.
    expect(cryptoAccountResource(row)).toEqual({
      id,
      name: 'Peso',
      currency: 'PBTC',
      balance: '1.50000000',
      pending_balance: '0.00000000',
      default_address: id,
    });
    expect(accountSummary(row)).toEqual({ id, name: 'Peso', currency: 'PHP', balance: '1.50000000' });
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
      expect(res['crypto-accounts'].map((a) => a.id), currency).toEqual([php]);
      expect(res.meta.total_count).toBe(1);
    }
    expect(accounts.listForUser('u1', { currency: 'PBTC,BTC' })['crypto-accounts'].map((a) => a.id)).toEqual([btc, php]);
    expect(accounts.listForUser('u1', { currency: 'btc, pbtc,XRP' }).meta.total_count).toBe(2);
    // The ledger's own name for the peso wallet is not a developer-API currency.
    expect(accounts.listForUser('u1', { currency: 'PHP' })['crypto-accounts']).toEqual([]);
    expect(accounts.listForUser('u1', { currency: 'EUR' })['crypto-accounts']).toEqual([]);
  });
});
