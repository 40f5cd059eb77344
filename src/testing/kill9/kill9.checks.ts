import Database from 'better-sqlite3';
import { assertLedgerInvariants } from '../../ledger/invariants.js';
import type { Ack, WriteLog } from './kill9.writes.js';

export interface FileCheck {
  /** Every acknowledged write that is not in the file (must be empty). */
  missing: string[];
  /** Acknowledged invoices and payments whose outbox event is not in the file (must be empty). */
  missingEvents: string[];
  /** Keys whose stored last nonce is below a nonce the sandbox accepted (must be empty). */
  nonceRegressions: string[];
  /** Ledger invariant violations: unbalanced transactions, cached balance ≠ entries (null when none). */
  ledger: string | null;
  checked: number;
}

/**
 * Open the database file the killed sandbox left (SQLite recovers its WAL on open, exactly as the
 * restart will) and check that everything it acknowledged is there.
 */
export function checkFile(file: string, log: WriteLog): FileCheck {
  const db = new Database(file);
  try {
    const has = (sql: string) => {
      const stmt = db.prepare(sql);
      return (id: string) => stmt.get(id) !== undefined;
    };
    const present: Record<Exclude<Ack['kind'], 'funding'>, (id: string) => boolean> = {
      invoice: has('SELECT 1 FROM invoices WHERE id = ?'),
      payment: has('SELECT 1 FROM payments WHERE id = ?'),
      sellOrder: has('SELECT 1 FROM sell_orders WHERE id = ?'),
      transfer: has('SELECT 1 FROM transfers WHERE id = ?'),
    };
    const missing: string[] = [];
    const fundings = new Map<string, number>();
    for (const a of log.acks) {
      if (a.kind === 'funding') fundings.set(a.accountId, (fundings.get(a.accountId) ?? 0) + 1);
      else if (!present[a.kind](a.id)) missing.push(`${a.kind} ${a.id}`);
    }
    const fundingsIn = db.prepare(
      `SELECT COUNT(DISTINCT t.id) AS n FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
       WHERE t.kind = 'sandbox_funding' AND e.account_id = ?`,
    );
    for (const [account, n] of fundings) {
      const found = (fundingsIn.get(account) as { n: number }).n;
      if (found < n) missing.push(`${n - found} of ${n} fundings of ${account}`);
    }

    // The outbox: an `invoice.created` per invoice, and one more event per payment of the invoice.
    const events = db.prepare('SELECT name FROM outbox_events WHERE invoice_id = ?');
    const payments = new Map<string, number>();
    for (const a of log.acks)
      if (a.kind === 'payment') payments.set(a.invoiceId, (payments.get(a.invoiceId) ?? 0) + 1);
    const missingEvents: string[] = [];
    for (const a of log.acks) {
      if (a.kind !== 'invoice') continue;
      const names = (events.all(a.id) as Array<{ name: string }>).map((e) => e.name);
      if (!names.includes('invoice.created')) missingEvents.push(`invoice.created of ${a.id}`);
      const paid = payments.get(a.id) ?? 0;
      if (names.length - 1 < paid)
        missingEvents.push(`${paid - (names.length - 1)} payment events of ${a.id}`);
    }

    const nonceRegressions: string[] = [];
    const lastNonce = db.prepare('SELECT last_nonce FROM apps WHERE api_key = ?');
    for (const [key, nonce] of log.signedNonces) {
      const row = lastNonce.get(key) as { last_nonce: string | null } | undefined;
      if (!row?.last_nonce || BigInt(row.last_nonce) < nonce)
        nonceRegressions.push(`${key}: stored ${row?.last_nonce}, accepted ${nonce}`);
    }

    let ledger: string | null = null;
    try {
      assertLedgerInvariants(db);
    } catch (err) {
      ledger = (err as Error).message;
    }
    return { missing, missingEvents, nonceRegressions, ledger, checked: log.acks.length };
  } finally {
    db.close();
  }
}
