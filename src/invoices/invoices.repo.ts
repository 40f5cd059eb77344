import type { Db } from '../db/open.js';
import { ANCHOR_EVERY, createInvoiceAnchors } from './invoice-anchors.repo.js';

export type InvoiceStatus = 'pending' | 'fully_paid' | 'expired' | 'canceled';

export interface InvoiceRow {
  id: string;
  merchant_id: string;
  status: InvoiceStatus;
  amount: bigint;
  amount_received: bigint;
  currency: string;
  external_transaction_id: string;
  description: string;
  metadata: string;
  supported_payment_collectors: string;
  current_payment_reference_number: string | null;
  /** The counter collector the reference was issued for. */
  current_payment_collector: string | null;
  created_at: bigint;
  updated_at: bigint;
  expires_at: bigint;
}

export interface PaymentRow {
  id: string;
  invoice_id: string;
  amount: bigint;
  payment_collector: string;
  reference_number: string | null;
  payer_account_id: string | null;
  ledger_transaction_id: string | null;
  created_at: bigint;
}

export interface InvoiceFilter {
  merchantId: string;
  status?: InvoiceStatus;
  externalTransactionId?: string;
}

/** What a create writes; the rest of the row is the insert's defaults (`inserted`). */
export interface InsertRow {
  id: string;
  merchant_id: string;
  amount: bigint;
  currency: string;
  external_transaction_id: string;
  description: string;
  metadata: string;
  supported_payment_collectors: string;
  created_at: number;
  expires_at: number;
}

/** Invoices and their payments. Money and times come back as BigInt (exact). */
export function createInvoiceRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO invoices (id, merchant_id, status, amount, amount_received, currency, external_transaction_id, description,
       metadata, supported_payment_collectors, current_payment_reference_number, created_at, updated_at, expires_at)
     VALUES (@id, @merchant_id, 'pending', @amount, 0, @currency, @external_transaction_id, @description, @metadata,
       @supported_payment_collectors, NULL, @created_at, @created_at, @expires_at)`,
  );
  const byId = db.prepare('SELECT * FROM invoices WHERE id = ?').safeIntegers(true);
  const byMerchantAndId = db.prepare('SELECT * FROM invoices WHERE id = ? AND merchant_id = ?').safeIntegers(true);
  const byExternalId = db.prepare('SELECT id FROM invoices WHERE merchant_id = ? AND external_transaction_id = ?');
  const byReference = db.prepare('SELECT * FROM invoices WHERE current_payment_reference_number = ?').safeIntegers(true);
  const paymentsOf = db.prepare('SELECT * FROM payments WHERE invoice_id = ? ORDER BY created_at, id').safeIntegers(true);
  const countAll = db.prepare('SELECT COALESCE(SUM(n), 0) AS n FROM invoice_counts WHERE merchant_id = ?');
  const countStatus = db.prepare('SELECT COALESCE(SUM(n), 0) AS n FROM invoice_counts WHERE merchant_id = ? AND status = ?');
  // A page walks the covering index for rowids (depth costs an index walk, not row reads), then reads
  // just its rows, in one statement: ten row lookups from JavaScript cost ~35% more.
  const rowsOf = (pageSql: string, order: 'ASC' | 'DESC') =>
    db
      .prepare(
        `SELECT i.* FROM (${pageSql}) AS p CROSS JOIN invoices AS i ON i.rowid = p.r
         ORDER BY i.created_at ${order}, i.id ${order}`,
      )
      .safeIntegers(true);
  const pageAll = rowsOf('SELECT rowid AS r FROM invoices WHERE merchant_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?', 'DESC');
  const pageStatus = rowsOf(
    'SELECT rowid AS r FROM invoices WHERE merchant_id = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
    'DESC',
  );
  // Deep pages: seek to a remembered key, then skip fewer than ANCHOR_EVERY rows (invoice-anchors.repo.ts).
  const anchors = createInvoiceAnchors(db);
  const pageAllFrom = rowsOf(
    `SELECT rowid AS r FROM invoices WHERE merchant_id = ? AND (created_at, id) <= (?, ?)
     ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
    'DESC',
  );
  // A deep page of one status is walked from the nearer end of that status's list (its count is exact).
  const pageStatusOldestFirst = rowsOf(
    'SELECT rowid AS r FROM invoices WHERE merchant_id = ? AND status = ? ORDER BY created_at ASC, id ASC LIMIT ? OFFSET ?',
    'ASC',
  );
  const dueExpiry = db.prepare("SELECT id FROM invoices WHERE status = 'pending' AND expires_at <= ? ORDER BY expires_at LIMIT 500");
  const expire = db.prepare("UPDATE invoices SET status = 'expired', updated_at = expires_at WHERE id = ? AND status = 'pending'");
  const nextExpiry = db.prepare("SELECT MIN(expires_at) AS t FROM invoices WHERE status = 'pending'");
  const setStatus = db.prepare('UPDATE invoices SET status = ?, updated_at = ? WHERE id = ?');
  const addReceived = db.prepare(
    'UPDATE invoices SET amount_received = amount_received + @amount, status = @status, updated_at = @now WHERE id = @id',
  );
  const setReference = db.prepare(
    'UPDATE invoices SET current_payment_reference_number = ?, current_payment_collector = ?, updated_at = ? WHERE id = ?',
  );
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  const insertPayment = db.prepare(
    `INSERT INTO payments (id, invoice_id, amount, payment_collector, reference_number, payer_account_id, ledger_transaction_id, created_at)
     VALUES (@id, @invoice_id, @amount, @payment_collector, @reference_number, @payer_account_id, @ledger_transaction_id, @created_at)`,
  );

  return {
    insert(row: InsertRow): void {
      insert.run(row);
    },
    /** The row `insert(row)` writes, as `byId` would read it back (same defaults, BigInt money and times). */
    inserted: (row: InsertRow): InvoiceRow => ({
      id: row.id,
      merchant_id: row.merchant_id,
      status: 'pending',
      amount: row.amount,
      amount_received: 0n,
      currency: row.currency,
      external_transaction_id: row.external_transaction_id,
      description: row.description,
      metadata: row.metadata,
      supported_payment_collectors: row.supported_payment_collectors,
      current_payment_reference_number: null,
      created_at: BigInt(row.created_at),
      updated_at: BigInt(row.created_at),
      expires_at: BigInt(row.expires_at),
      current_payment_collector: null,
    }),
    /** Rows inserted, updated or deleted on this connection so far, in any table (invoice-pages.cache.ts). */
    totalChanges: () => totalChanges.get() as number,
    byId: (id: string) => byId.get(id) as InvoiceRow | undefined,
    forMerchant: (id: string, merchantId: string) => byMerchantAndId.get(id, merchantId) as InvoiceRow | undefined,
    externalIdTaken: (merchantId: string, ext: string) => byExternalId.get(merchantId, ext) !== undefined,
    byReference: (ref: string) => byReference.get(ref) as InvoiceRow | undefined,
    payments: (invoiceId: string) => paymentsOf.all(invoiceId) as PaymentRow[],
    count(f: InvoiceFilter): number {
      if (f.externalTransactionId !== undefined) {
        const row = byExternalId.get(f.merchantId, f.externalTransactionId) as { id: string } | undefined;
        if (!row) return 0;
        if (f.status === undefined) return 1;
        return (byMerchantAndId.get(row.id, f.merchantId) as InvoiceRow).status === f.status ? 1 : 0;
      }
      const r = (f.status ? countStatus.get(f.merchantId, f.status) : countAll.get(f.merchantId)) as { n: number };
      return r.n;
    },
    page(f: InvoiceFilter, limit: number, offset: number): InvoiceRow[] {
      if (f.externalTransactionId !== undefined) {
        const row = byExternalId.get(f.merchantId, f.externalTransactionId) as { id: string } | undefined;
        const found = row && offset === 0 ? (byId.get(row.id) as InvoiceRow) : undefined;
        return found && (!f.status || found.status === f.status) ? [found] : [];
      }
      if (!f.status) {
        const at = offset >= ANCHOR_EVERY ? anchors.seek(f.merchantId, offset) : { key: null, skip: offset };
        if (!at) return [];
        return (at.key ? pageAllFrom.all(f.merchantId, at.key.created_at, at.key.id, limit, at.skip) : pageAll.all(f.merchantId, limit, offset)) as InvoiceRow[];
      }
      const total = offset >= ANCHOR_EVERY ? (countStatus.get(f.merchantId, f.status) as { n: number }).n : Infinity;
      if (offset >= total) return [];
      // Oldest-first position of the page's last row: when it is nearer than `offset`, walk from that end.
      const fromOldest = total - offset - limit;
      if (fromOldest < offset) {
        const rows = pageStatusOldestFirst.all(f.merchantId, f.status, Math.min(limit, total - offset), Math.max(0, fromOldest)) as InvoiceRow[];
        return rows.reverse();
      }
      return pageStatus.all(f.merchantId, f.status, limit, offset) as InvoiceRow[];
    },
    dueForExpiry: (now: number) => (dueExpiry.all(now) as Array<{ id: string }>).map((r) => r.id),
    expire: (id: string) => expire.run(id).changes === 1,
    nextExpiry: () => (nextExpiry.get() as { t: number | null }).t,
    setStatus: (id: string, status: InvoiceStatus, now: number) => void setStatus.run(status, now, id),
    addReceived: (id: string, amount: bigint, status: InvoiceStatus, now: number) => void addReceived.run({ id, amount, status, now }),
    setReference: (id: string, ref: string, collector: string, now: number) => void setReference.run(ref, collector, now, id),
    insertPayment: (p: Omit<PaymentRow, 'created_at'> & { created_at: number }) => void insertPayment.run(p),
  };
}

export type InvoiceRepository = ReturnType<typeof createInvoiceRepository>;
