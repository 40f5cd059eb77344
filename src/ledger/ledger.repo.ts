import type { Db } from '../db/open.js';
import type { Clock } from '../shared/clock.js';
import { ApiError } from '../http/api-error.js';
import type { IdFactory } from '../shared/ids.js';
import { formatMoneyShort, MAX_ACCOUNT_UNITS } from '../shared/money.js';
import { SYSTEM_ACCOUNTS, systemAccountId, type SystemAccount } from './system-accounts.js';

// Re-exported for older imports; other modules import them from ./system-accounts.js.
export { SYSTEM_ACCOUNTS };

export type OwnerType = 'merchant' | 'user' | 'system';

export interface AccountRow {
  id: string;
  owner_type: OwnerType;
  owner_id: string;
  name: string;
  currency: string;
  balance: bigint;
  pending_balance: bigint;
  /** Everything ever credited to the account (cached like `balance`). */
  total_received: bigint;
  default_address: string;
  allow_negative: number;
  created_at: number;
}

export interface Posting {
  accountId: string;
  /** Signed units: positive credits the account, negative debits it. */
  amount: bigint;
}


/** A programming error: a transaction that does not balance, or that mixes currencies. */
export class LedgerImbalanceError extends Error {}

/**
 * The 400 of a posting that would take an account's figures past MAX_ACCOUNT_UNITS
 * (docs/design.md#money-bounds). The clock's own work catches it: a send that cannot be credited fails
 * and gives the money back, a buy order that cannot be released is canceled.
 */
export class BalanceLimitError extends ApiError {
  constructor(account: Pick<AccountRow, 'owner_type' | 'currency'> | undefined) {
    const whose = account?.owner_type === 'system' ? `the sandbox's ${account.currency} system account` : 'the account';
    const limit = `${formatMoneyShort(MAX_ACCOUNT_UNITS)}${account ? ` ${account.currency}` : ''}`;
    super('validation_error', { amount: [`This would take ${whose} past ${limit}, the most the sandbox keeps exact.`] });
  }
}

/**
 * Accounts and double-entry postings. Entries are append-only (a trigger refuses UPDATE/DELETE);
 * the cached balance on each account moves in the same statement batch as its entries.
 */
export function createLedgerRepository(db: Db, clock: Clock, ids: IdFactory) {
  const insertAccount = db.prepare(
    `INSERT INTO accounts (id, owner_type, owner_id, name, currency, balance, pending_balance, default_address, allow_negative, created_at)
     VALUES (@id, @owner_type, @owner_id, @name, @currency, 0, 0, @default_address, @allow_negative, @created_at)`,
  );
  const getAccount = db.prepare('SELECT * FROM accounts WHERE id = ?').safeIntegers(true);
  const byOwner = db
    .prepare('SELECT * FROM accounts WHERE owner_type = ? AND owner_id = ? ORDER BY created_at DESC, id DESC')
    .safeIntegers(true);
  const insertTx = db.prepare('INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES (?, ?, ?, ?)');
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

  const normalize = (row: Record<string, unknown> | undefined): AccountRow | undefined =>
    row ? ({ ...row, created_at: Number(row.created_at), allow_negative: Number(row.allow_negative) } as AccountRow) : undefined;

  const get = (id: string) => normalize(getAccount.get(id) as Record<string, unknown> | undefined);

  function createAccount(a: { ownerType: OwnerType; ownerId: string; name: string; currency: string; id?: string; allowNegative?: boolean }): string {
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
      createAccount({ id, ownerType: 'system', ownerId: 'sandbox', name, currency, allowNegative: true });
    }
    return id;
  }

  return {
    createAccount,
    ensureSystemAccounts(): void {
      for (const purpose of Object.keys(SYSTEM_ACCOUNTS) as SystemAccount[]) systemAccount(purpose, 'PHP');
    },
    systemAccount,
    /**
     * Refuse, before anything is written, a send whose destination could not be credited `amount` when it
     * settles (its balance or total received would pass MAX_ACCOUNT_UNITS).
     */
    requireRoom(accountId: string, amount: bigint): void {
      const a = get(accountId);
      if (!a) return;
      const past = (v: bigint) => v + amount > MAX_ACCOUNT_UNITS;
      if (past(a.balance) || (a.owner_type !== 'system' && past(a.total_received))) throw new BalanceLimitError(a);
    },
    get,
    byOwner: (ownerType: OwnerType, ownerId: string) =>
      (byOwner.all(ownerType, ownerId) as Record<string, unknown>[]).map((r) => normalize(r)!),
    /**
     * Record one balanced transaction in one currency. Must run inside the caller's transaction (a
     * throw rolls back what it moved): throws when it does not balance, mixes currencies, takes an
     * account past MAX_ACCOUNT_UNITS (a 400 on `amount`) or a wallet below zero.
     */
    post(kind: string, reference: string | null, postings: Posting[]): string {
      const sum = postings.reduce((s, p) => s + p.amount, 0n);
      if (sum !== 0n || postings.length < 2) throw new LedgerImbalanceError(`unbalanced ${kind}: ${sum}`);
      const txId = ids();
      const now = clock.now();
      insertTx.run(txId, kind, reference, now);
      let currency: string | undefined;
      for (const p of postings) {
        if (p.amount === 0n) continue;
        const account = () => get(p.accountId);
        // Checked before binding: better-sqlite3 refuses a bigint past int64 with a RangeError.
        if (p.amount > MAX_ACCOUNT_UNITS || -p.amount > MAX_ACCOUNT_UNITS) throw new BalanceLimitError(account());
        const moved = moveBalance.get({ amount: p.amount, id: p.accountId, limit: MAX_ACCOUNT_UNITS }) as string | undefined;
        if (moved === undefined) {
          const found = account();
          if (!found) throw new LedgerImbalanceError(`${kind}: no account ${p.accountId}`);
          throw new BalanceLimitError(found);
        }
        if (currency !== undefined && moved !== currency) throw new LedgerImbalanceError(`${kind} mixes ${currency} and ${moved}`);
        currency = moved;
        insertEntry.run(txId, p.accountId, p.amount, now);
      }
      return txId;
    },
  };
}

export type LedgerRepository = ReturnType<typeof createLedgerRepository>;
