import type { Db } from '../db/open.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { MAX_ACCOUNT_UNITS } from '../shared/money.js';
import {
  BalanceLimitError,
  LedgerImbalanceError,
  type Account,
  type LedgerApi,
  type NewAccount,
} from './ledger.api.js';
import { SYSTEM_ACCOUNTS, systemAccountId, type SystemAccount } from './system-accounts.js';

/** The payout-fee system accounts of every currency (`system-payout-fees`, `system-payout-fees-btc`, …). */
const PAYOUT_FEE_ACCOUNTS = `SELECT id FROM accounts WHERE owner_type = 'system'
  AND (id = '${SYSTEM_ACCOUNTS.payoutFees}' OR id LIKE '${SYSTEM_ACCOUNTS.payoutFees}-%')`;

export { BalanceLimitError, LedgerImbalanceError };

// An account row is the api's Account column for column (balances read as BigInt).
type AccountRow = Account;

/**
 * Accounts and double-entry postings. Entries are append-only (a trigger refuses UPDATE/DELETE);
 * the cached balance on each account moves in the same statement batch as its entries.
 */
export function createLedgerRepository(db: Db, clock: Clock, ids: IdFactory): LedgerApi {
  const insertAccount = db.prepare(
    `INSERT INTO accounts (id, owner_type, owner_id, name, currency, balance, pending_balance, default_address, allow_negative, created_at)
     VALUES (@id, @owner_type, @owner_id, @name, @currency, 0, 0, @default_address, @allow_negative, @created_at)`,
  );
  const getAccount = db.prepare('SELECT * FROM accounts WHERE id = ?').safeIntegers(true);
  const byOwner = db
    .prepare(
      'SELECT * FROM accounts WHERE owner_type = ? AND owner_id = ? ORDER BY created_at DESC, id DESC',
    )
    .safeIntegers(true);
  const insertTx = db.prepare(
    'INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES (?, ?, ?, ?)',
  );
  const insertEntry = db.prepare(
    'INSERT INTO ledger_entries (transaction_id, account_id, amount, created_at) VALUES (?, ?, ?, ?)',
  );
  // One conditional update per entry: it moves the cached figures only while they stay inside the bound
  // (past int64 SQLite computes `balance + @amount` in floating point, which the bound still refuses), and
  // names the account's currency so that the transaction can be checked to hold one currency only. A
  // system account's `total_received` is not kept: it would only grow, and nothing shows it.
  const moveBalance = db
    .prepare(
      `UPDATE accounts SET balance = balance + @amount,
         total_received = CASE WHEN owner_type = 'system' THEN 0 ELSE total_received + max(@amount, 0) END
       WHERE id = @id AND abs(balance + @amount) <= @limit
         AND (owner_type = 'system' OR total_received + max(@amount, 0) <= @limit)
       RETURNING currency`,
    )
    .pluck();

  const statementEntries = db
    .prepare(
      `SELECT e.transaction_id, t.kind, t.reference, e.amount, e.created_at,
         (SELECT abs(COALESCE(SUM(f.amount), 0)) FROM ledger_entries f
            WHERE f.transaction_id = e.transaction_id AND f.account_id IN (${PAYOUT_FEE_ACCOUNTS})) AS fee
       FROM ledger_entries e JOIN ledger_transactions t ON t.id = e.transaction_id
       WHERE e.account_id = ? AND e.created_at >= ? AND e.created_at < ? ORDER BY e.created_at, e.id`,
    )
    .safeIntegers(true);
  const balanceBefore = db
    .prepare(
      'SELECT COALESCE(SUM(amount), 0) AS b FROM ledger_entries WHERE account_id = ? AND created_at < ?',
    )
    .safeIntegers(true);

  const normalize = (row: Record<string, unknown> | undefined): AccountRow | undefined =>
    row
      ? ({
          ...row,
          created_at: Number(row.created_at),
          allow_negative: Number(row.allow_negative),
        } as AccountRow)
      : undefined;

  const get = (id: string) => normalize(getAccount.get(id) as Record<string, unknown> | undefined);

  function createAccount(a: NewAccount): string {
    const id = a.id ?? ids();
    insertAccount.run({
      id,
      owner_type: a.ownerType,
      owner_id: a.ownerId,
      name: a.name,
      currency: a.currency,
      default_address: id,
      allow_negative: a.allowNegative ? 1 : 0,
      created_at: clock.now(),
    });
    return id;
  }

  /**
   * The system account of a purpose in one currency (the funding account of BTC, …), made on first use:
   * every ledger transaction holds one currency, so the world outside has an account per currency.
   */
  function systemAccount(purpose: SystemAccount, currency: string): string {
    const id = systemAccountId(purpose, currency);
    if (!getAccount.get(id)) {
      const name = currency === 'PHP' ? purpose : `${purpose} (${currency})`;
      createAccount({
        id,
        ownerType: 'system',
        ownerId: 'sandbox',
        name,
        currency,
        allowNegative: true,
      });
    }
    return id;
  }

  const incomingSources: Array<(accountId: string) => bigint> = [];
  const incoming = (accountId: string) =>
    incomingSources.reduce((sum, source) => sum + source(accountId), 0n);

  return {
    createAccount,
    ensureSystemAccounts(): void {
      for (const purpose of Object.keys(SYSTEM_ACCOUNTS) as SystemAccount[])
        systemAccount(purpose, 'PHP');
    },
    /** An account's entries in [from, to) (sandbox microseconds), oldest first, with their transaction's kind and reference. */
    entriesBetween: (accountId: string, from: number, to: number) =>
      statementEntries.all(accountId, from, to) as Array<{
        transaction_id: string;
        kind: string;
        reference: string | null;
        amount: bigint;
        created_at: bigint;
        fee: bigint;
      }>,
    /** An account's balance from its entries before `at`. */
    balanceAt: (accountId: string, at: number) =>
      (balanceBefore.get(accountId, at) as { b: bigint }).b,
    systemAccount,
    /**
     * Refuse, before anything is written, a send whose destination could not be credited `amount` when it
     * settles (its balance or total received would pass MAX_ACCOUNT_UNITS), with what is already on its
     * way to a wallet counted as received.
     */
    requireRoom(accountId, amount) {
      const a = get(accountId);
      if (!a) return;
      const coming = a.owner_type === 'system' ? 0n : incoming(accountId);
      const past = (v: bigint) => v + coming + amount > MAX_ACCOUNT_UNITS;
      if (past(a.balance)) throw new BalanceLimitError(a);
      if (a.owner_type !== 'system' && past(a.total_received))
        throw new BalanceLimitError(a, 'total_received');
    },
    countIncoming: (source) => void incomingSources.push(source),
    get,
    byOwner: (ownerType, ownerId) =>
      (byOwner.all(ownerType, ownerId) as Record<string, unknown>[]).map((r) => normalize(r)!),
    /**
     * Record one balanced transaction in one currency. Must run inside the caller's transaction (a
     * throw rolls back what it moved): throws when it does not balance, mixes currencies, takes an
     * account past MAX_ACCOUNT_UNITS (a 400 on `amount`) or a wallet below zero.
     */
    post(kind, reference, postings) {
      const sum = postings.reduce((s, p) => s + p.amount, 0n);
      if (sum !== 0n || postings.length < 2)
        throw new LedgerImbalanceError(`unbalanced ${kind}: ${sum}`);
      const txId = ids();
      const now = clock.now();
      insertTx.run(txId, kind, reference, now);
      let currency: string | undefined;
      for (const p of postings) {
        if (p.amount === 0n) continue;
        const account = () => get(p.accountId);
        // Checked before binding: better-sqlite3 refuses a bigint past int64 with a RangeError.
        if (p.amount > MAX_ACCOUNT_UNITS || -p.amount > MAX_ACCOUNT_UNITS)
          throw new BalanceLimitError(account());
        const moved = moveBalance.get({
          amount: p.amount,
          id: p.accountId,
          limit: MAX_ACCOUNT_UNITS,
        }) as string | undefined;
        if (moved === undefined) {
          const found = account();
          if (!found) throw new LedgerImbalanceError(`${kind}: no account ${p.accountId}`);
          const balancePast =
            found.balance + p.amount > MAX_ACCOUNT_UNITS ||
            found.balance + p.amount < -MAX_ACCOUNT_UNITS;
          throw new BalanceLimitError(found, balancePast ? 'balance' : 'total_received');
        }
        if (currency !== undefined && moved !== currency)
          throw new LedgerImbalanceError(`${kind} mixes ${currency} and ${moved}`);
        currency = moved;
        insertEntry.run(txId, p.accountId, p.amount, now);
      }
      return txId;
    },
  };
}
