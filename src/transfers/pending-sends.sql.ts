import type { Db } from '../db/open.js';
import { dueOnTenantClock, earliestOf } from '../db/tenant-sql.js';
import { usersOfWorkspaceSql, userWorkspaceSql } from '../identities/tenant.sql.js';

/**
 * The statements every table of sends that settle later shares (`transfers`, `crypto_exchanges`,
 * `crypto_payments`: an `owner_id`, a `status` that starts `pending`, a `created_at`, and an index
 * `<table>_pending` of the pending rows): what is due on each owner's tenant clock, the earliest pending
 * creation (the guard of the due work), what is on its way to an account, and the outcome.
 */
export function pendingSendQueries<R, S extends string>(
  db: Db,
  table: string,
  /** The column of what the target receives when the send settles. */
  incomingColumn = 'amount',
) {
  const tenant = userWorkspaceSql('owner_id');
  const due = db
    .prepare(
      `SELECT *, ${tenant} AS tenant FROM ${table} INDEXED BY ${table}_pending
       WHERE status = 'pending' AND ${dueOnTenantClock('created_at', tenant)} ORDER BY created_at, id LIMIT 500`,
    )
    .safeIntegers(true);
  const setStatus = db.prepare(`UPDATE ${table} SET status = ? WHERE id = ?`);
  // Amounts, not a SUM: an old database may hold pending sends that add up past SQLite's integers.
  const incoming = db
    .prepare(
      `SELECT ${incomingColumn} FROM ${table} INDEXED BY ${table}_pending
       WHERE status = 'pending' AND target_account_id = ?`,
    )
    .pluck()
    .safeIntegers(true);
  return {
    /** Pending rows created at or before `createdBy` on their tenant's clock (`createdBy`: sandbox micros), oldest first, a bounded batch. */
    duePending: (createdBy: number) =>
      due.all({ at: createdBy }) as Array<R & { tenant: string | null }>,
    /** The oldest pending row's creation time (of all, or of one workspace). */
    earliestPending: earliestOf(
      db,
      table,
      'created_at',
      "status = 'pending'",
      `owner_id IN (${usersOfWorkspaceSql})`,
    ),
    /** What the pending sends to an account will credit it when they settle (src/ledger `countIncoming`). */
    pendingTo: (accountId: string) =>
      (incoming.all(accountId) as bigint[]).reduce((sum, a) => sum + a, 0n),
    /** Records the outcome of a pending send (which leaves the pending index with it). */
    setStatus: (id: string, status: S) => void setStatus.run(status, id),
  };
}
