import type { Db } from '../db/open.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import type { Account, LedgerApi, NewAccount } from './ledger.api.js';
import { SYSTEM_ACCOUNTS } from './system-accounts.js';

// An account row is the api's Account column for column (balances read as BigInt).
type AccountRow = Account;

export class LedgerImbalanceError extends Error {}

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
    .prepare('SELECT * FROM accounts WHERE owner_type = ? AND owner_id = ? ORDER BY created_at DESC, id DESC')
    .safeIntegers(true);
  const insertTx = db.prepare('INSERT INTO ledger_transactions (id, kind, reference, created_at) VALUES (?, ?, ?, ?)');
  const insertEntry = db.prepare(
    'INSERT INTO ledger_entries (transaction_id, account_id, amount, created_at) VALUES (?, ?, ?, ?)',
  );
  const moveBalance = db.prepare(
    'UPDATE accounts SET balance = balance + @amount, total_received = total_received + max(@amount, 0) WHERE id = @id',
  );

  const normalize = (row: Record<string, unknown> | undefined): AccountRow | undefined =>
    row ? ({ ...row, created_at: Number(row.created_at), allow_negative: Number(row.allow_negative) } as AccountRow) : undefined;

  return {
    createAccount(a: NewAccount): string {
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
    },
    ensureSystemAccounts(): void {
      for (const [name, id] of Object.entries(SYSTEM_ACCOUNTS)) {
        if (!getAccount.get(id)) {
          this.createAccount({ id, ownerType: 'system', ownerId: 'sandbox', name, currency: 'PHP', allowNegative: true });
        }
      }
    },
    get: (id) => normalize(getAccount.get(id) as Record<string, unknown> | undefined),
    byOwner: (ownerType, ownerId) =>
      (byOwner.all(ownerType, ownerId) as Record<string, unknown>[]).map((r) => normalize(r)!),
    /**
     * Record one balanced transaction. Must run inside the caller's transaction when other writes
     * belong with it; throws (and so rolls back) when it does not balance or a wallet would go negative.
     */
    post(kind, reference, postings) {
      const sum = postings.reduce((s, p) => s + p.amount, 0n);
      if (sum !== 0n || postings.length < 2) throw new LedgerImbalanceError(`unbalanced ${kind}: ${sum}`);
      const txId = ids();
      const now = clock.now();
      insertTx.run(txId, kind, reference, now);
      for (const p of postings) {
        if (p.amount === 0n) continue;
        insertEntry.run(txId, p.accountId, p.amount, now);
        moveBalance.run({ amount: p.amount, id: p.accountId });
      }
      return txId;
    },
  };
}
