import type { Db } from '../db/open.js';
import { pendingSendQueries } from './pending-sends.sql.js';

export type TransferStatus = 'pending' | 'success' | 'failed';

export interface TransferRecord {
  id: string;
  owner_id: string;
  account_id: string;
  target_account_id: string | null;
  target_address: string;
  amount: bigint;
  currency: string;
  status: TransferStatus;
  ledger_transaction_id: string | null;
  created_at: number;
}

export interface TransferRow extends Omit<TransferRecord, 'created_at'> {
  created_at: bigint;
}

/** Transfers. SQL only; lists are one owner's, newest first, ties broken by id. */
export function createTransferRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO transfers (id, owner_id, account_id, target_account_id, target_address, amount, currency, status, ledger_transaction_id, created_at)
     VALUES (@id, @owner_id, @account_id, @target_account_id, @target_address, @amount, @currency, @status, @ledger_transaction_id, @created_at)`,
  );
  const forOwner = db
    .prepare('SELECT * FROM transfers WHERE id = ? AND owner_id = ?')
    .safeIntegers(true);
  const byId = db.prepare('SELECT * FROM transfers WHERE id = ?').safeIntegers(true);
  const count = db.prepare('SELECT COUNT(*) AS n FROM transfers WHERE owner_id = ?');
  const page = db
    .prepare(
      'SELECT * FROM transfers WHERE owner_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
    )
    .safeIntegers(true);

  return {
    insert: (r: TransferRecord) => void insert.run(r),
    forOwner: (id: string, ownerId: string) => forOwner.get(id, ownerId) as TransferRow | undefined,
    byId: (id: string) => byId.get(id) as TransferRow | undefined,
    ...pendingSendQueries<TransferRow, TransferStatus>(db, 'transfers'),
    count: (ownerId: string) => (count.get(ownerId) as { n: number }).n,
    page: (ownerId: string, limit: number, offset: number) =>
      page.all(ownerId, limit, offset) as TransferRow[],
  };
}

export type TransferRepository = ReturnType<typeof createTransferRepository>;
