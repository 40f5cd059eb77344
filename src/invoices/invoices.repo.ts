import type { Db } from '../db/open.js';
import { merchantsOfWorkspaceSql, merchantWorkspaceSql } from '../identities/tenant.sql.js';
import { ANCHOR_EVERY, createInvoiceAnchors } from './invoice-anchors.repo.js';
import { parseCollectors } from './invoice.model.js';
import type { Invoice, InvoiceStatus, Payment } from './invoices.api.js';

// The invoices module's own files use these names for its domain types (invoices.api.ts). A stored
// invoice differs in one column: its collectors are a JSON list, parsed as the row is read.
export type InvoiceRow = Invoice;
export type PaymentRow = Payment;
type StoredInvoice = Omit<Invoice, 'supported_payment_collectors'> & {
  supported_payment_collectors: string | readonly string[];
};

/** The invoice of a stored row: the row itself, its collector list parsed in place (no copy). */
function toInvoice(row: StoredInvoice | undefined): Invoice | undefined {
  if (row && typeof row.supported_payment_collectors === 'string')
    row.supported_payment_collectors = parseCollectors(row.supported_payment_collectors);
  return row as Invoice | undefined;
}
const toInvoices = (rows: unknown[]) =>
  (rows as StoredInvoice[]).map((r) => toInvoice(r) as Invoice);

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

/** The unique key (merchant_id, external_transaction_id) refused an insert. */
function isDuplicateExternalId(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  return (
    e.code === 'SQLITE_CONSTRAINT_UNIQUE' &&
    typeof e.message === 'string' &&
    e.message.includes('invoices.external_transaction_id')
  );
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
  const byMerchantAndId = db
    .prepare('SELECT * FROM invoices WHERE id = ? AND merchant_id = ?')
    .safeIntegers(true);
  const byExternalId = db.prepare(
    'SELECT id FROM invoices WHERE merchant_id = ? AND external_transaction_id = ?',
  );
  const byReference = db
    .prepare('SELECT * FROM invoices WHERE current_payment_reference_number = ?')
    .safeIntegers(true);
  const paymentsOf = db
    .prepare('SELECT * FROM payments WHERE invoice_id = ? ORDER BY created_at, id')
    .safeIntegers(true);
  const countAll = db.prepare(
    'SELECT COALESCE(SUM(n), 0) AS n FROM invoice_counts WHERE merchant_id = ?',
  );
  const countStatus = db.prepare(
    'SELECT COALESCE(SUM(n), 0) AS n FROM invoice_counts WHERE merchant_id = ? AND status = ?',
  );
  // A page walks the covering index for rowids (depth costs an index walk, not row reads), then reads
  // just its rows, in one statement: ten row lookups from JavaScript cost ~35% more.
  const rowsOf = (pageSql: string, order: 'ASC' | 'DESC') =>
    db
      .prepare(
        `SELECT i.* FROM (${pageSql}) AS p CROSS JOIN invoices AS i ON i.rowid = p.r
         ORDER BY i.created_at ${order}, i.id ${order}`,
      )
      .safeIntegers(true);
  const pageAll = rowsOf(
    'SELECT rowid AS r FROM invoices WHERE merchant_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
    'DESC',
  );
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
  // Each invoice expires on its merchant's tenant clock: the index bounds the range by the largest offset.
  const dueExpiry = db.prepare(
    `SELECT id FROM invoices WHERE status = 'pending' AND expires_at <= @now + ws_max_offset()
       AND expires_at <= @now + ws_offset(${merchantWorkspaceSql('invoices.merchant_id')})
     ORDER BY expires_at LIMIT 500`,
  );
  const expire = db.prepare(
    "UPDATE invoices SET status = 'expired', updated_at = expires_at WHERE id = ? AND status = 'pending'",
  );
  // Across merchants, for the dashboard: newest first, like every list.
  const recent = db
    .prepare('SELECT id FROM invoices ORDER BY created_at DESC, id DESC LIMIT ?')
    .pluck();
  const nextExpiry = db.prepare(
    "SELECT MIN(expires_at) AS t FROM invoices WHERE status = 'pending'",
  );
  const nextExpiryOf = db.prepare(
    `SELECT MIN(expires_at) AS t FROM invoices WHERE status = 'pending' AND merchant_id IN (${merchantsOfWorkspaceSql})`,
  );
  const setStatus = db.prepare('UPDATE invoices SET status = ?, updated_at = ? WHERE id = ?');
  // What a state change (invoice.model.ts) may change; the rest of an invoice is written once.
  const save = db.prepare(
    `UPDATE invoices SET status = @status, amount_received = @amount_received, updated_at = @updated_at,
       current_payment_reference_number = @current_payment_reference_number, current_payment_collector = @current_payment_collector
     WHERE id = @id`,
  );
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  const insertPayment = db.prepare(
    `INSERT INTO payments (id, invoice_id, amount, payment_collector, reference_number, payer_account_id, ledger_transaction_id, created_at)
     VALUES (@id, @invoice_id, @amount, @payment_collector, @reference_number, @payer_account_id, @ledger_transaction_id, @created_at)`,
  );

  return {
    /**
     * Insert a new invoice; false (nothing written) when its merchant already used its
     * `external_transaction_id`. The unique key says so in the insert itself: no lookup before it.
     */
    insert(row: InsertRow): boolean {
      try {
        insert.run(row);
        return true;
      } catch (err) {
        if (isDuplicateExternalId(err)) return false;
        throw err;
      }
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
      supported_payment_collectors: parseCollectors(row.supported_payment_collectors),
      current_payment_reference_number: null,
      created_at: BigInt(row.created_at),
      updated_at: BigInt(row.created_at),
      expires_at: BigInt(row.expires_at),
      current_payment_collector: null,
    }),
    /** Rows inserted, updated or deleted on this connection so far, in any table (invoice-pages.cache.ts). */
    totalChanges: () => totalChanges.get() as number,
    byId: (id: string) => toInvoice(byId.get(id) as StoredInvoice | undefined),
    forMerchant: (id: string, merchantId: string) =>
      toInvoice(byMerchantAndId.get(id, merchantId) as StoredInvoice | undefined),
    byReference: (ref: string) => toInvoice(byReference.get(ref) as StoredInvoice | undefined),
    payments: (invoiceId: string) => paymentsOf.all(invoiceId) as PaymentRow[],
    count(f: InvoiceFilter): number {
      if (f.externalTransactionId !== undefined) {
        const row = byExternalId.get(f.merchantId, f.externalTransactionId) as
          { id: string } | undefined;
        if (!row) return 0;
        if (f.status === undefined) return 1;
        return (byMerchantAndId.get(row.id, f.merchantId) as InvoiceRow).status === f.status
          ? 1
          : 0;
      }
      const r = (
        f.status ? countStatus.get(f.merchantId, f.status) : countAll.get(f.merchantId)
      ) as { n: number };
      return r.n;
    },
    page(f: InvoiceFilter, limit: number, offset: number): InvoiceRow[] {
      if (f.externalTransactionId !== undefined) {
        const row = byExternalId.get(f.merchantId, f.externalTransactionId) as
          { id: string } | undefined;
        const found =
          row && offset === 0 ? toInvoice(byId.get(row.id) as StoredInvoice) : undefined;
        return found && (!f.status || found.status === f.status) ? [found] : [];
      }
      if (!f.status) {
        const at =
          offset >= ANCHOR_EVERY ? anchors.seek(f.merchantId, offset) : { key: null, skip: offset };
        if (!at) return [];
        return toInvoices(
          at.key
            ? pageAllFrom.all(f.merchantId, at.key.created_at, at.key.id, limit, at.skip)
            : pageAll.all(f.merchantId, limit, offset),
        );
      }
      const total =
        offset >= ANCHOR_EVERY
          ? (countStatus.get(f.merchantId, f.status) as { n: number }).n
          : Infinity;
      if (offset >= total) return [];
      // Oldest-first position of the page's last row: when it is nearer than `offset`, walk from that end.
      const fromOldest = total - offset - limit;
      if (fromOldest < offset) {
        const rows = toInvoices(
          pageStatusOldestFirst.all(
            f.merchantId,
            f.status,
            Math.min(limit, total - offset),
            Math.max(0, fromOldest),
          ),
        );
        return rows.reverse();
      }
      return toInvoices(pageStatus.all(f.merchantId, f.status, limit, offset));
    },
    /** Pending invoices past their expiry on their own tenant's clock; `now` is the sandbox time. */
    dueForExpiry: (now: number) =>
      (dueExpiry.all({ now }) as Array<{ id: string }>).map((r) => r.id),
    /** The earliest expiry of a pending invoice (on its tenant's clock): of all, or of one workspace's. */
    nextExpiry: (workspaceId: string | null) => {
      const r = (
        workspaceId === null ? nextExpiry.get() : nextExpiryOf.get({ ws: workspaceId })
      ) as { t: number | bigint | null };
      return r.t === null ? null : Number(r.t);
    },
    expire: (id: string) => expire.run(id).changes === 1,
    recentIds: (limit: number) => recent.all(limit) as string[],
    setStatus: (id: string, status: InvoiceStatus, now: number) =>
      void setStatus.run(status, now, id),
    /** Write the changeable columns of an invoice as a state change left them. */
    save: (inv: InvoiceRow) =>
      void save.run({
        id: inv.id,
        status: inv.status,
        amount_received: inv.amount_received,
        updated_at: inv.updated_at,
        current_payment_reference_number: inv.current_payment_reference_number,
        current_payment_collector: inv.current_payment_collector,
      }),
    insertPayment: (p: PaymentRow) => void insertPayment.run(p),
  };
}

export type InvoiceRepository = ReturnType<typeof createInvoiceRepository>;
