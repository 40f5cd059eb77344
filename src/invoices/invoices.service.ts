import { ApiError } from '../shared/api-error.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import type { Outbox } from '../events/outbox.repo.js';
import type { Merchant } from '../identities/identities.api.js';
import type { DueWork } from '../clock/due-work.js';
import type { TenantClocks } from '../clock/tenant-clocks.js';
import type { Clock } from '../shared/clock.js';
import { parseExpiry } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { AmountError, formatMoneyShort, parseAmount } from '../shared/money.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import { withJsonText } from '../http/json-text.js';
import { createInvoicePageCache, type InvoicePageCache } from './invoice-pages.cache.js';
import type { InvoiceChange } from './invoice.model.js';
import { eventBody, invoiceResource } from './invoice.view.js';
import type { InvoiceStatus } from './invoices.api.js';
import type { InvoiceRepository, InvoiceRow, PaymentRow } from './invoices.repo.js';

export interface CreateInvoiceInput {
  amount: unknown;
  currency: string;
  external_transaction_id: string;
  supported_payment_collectors?: string[];
  expires_at?: string;
  description?: string;
  metadata?: Record<string, unknown>;
}

export interface InvoiceServiceDeps {
  invoices: InvoiceRepository;
  outbox: Outbox;
  unitOfWork: UnitOfWork;
  clock: Clock;
  ids: IdFactory;
  /** Read on every use: the listening port is known only after start-up. */
  publicUrl: () => string;
  merchantById: (id: string) => Merchant | undefined;
  /** The registry of due work, told when a new invoice will expire. */
  dueWork: Pick<DueWork, 'expect'>;
  /** A request that loads an invoice is on its merchant's clock (a control call, the hosted page). */
  tenants: Pick<TenantClocks, 'enter'>;
  /** Emit `invoice.updated` when an invoice expires (off by default: the real service sends none). */
  expiryEvents: () => boolean;
  /** Rendered list pages, kept while the database is unchanged (none kept without it). */
  pages?: InvoicePageCache;
}

/** Maps an amount problem to the field error the API answers with. */
export function amountFieldError(err: unknown, field = 'amount'): ApiError {
  if (err instanceof AmountError) return ApiError.field(field, err.message);
  throw err;
}

/** Merchant invoices: create, retrieve, list, and expiry on the sandbox clock (docs/design.md#public-api, #invoice-lifecycle-and-events). */
export function createInvoiceService(d: InvoiceServiceDeps) {
  let never = 0;
  const pages = d.pages ?? createInvoicePageCache(() => never++); // a new count each time: nothing kept
  /** `merchant` is passed by callers that already hold it (a list page looks it up once, not per row). */
  function view(row: InvoiceRow, merchant = d.merchantById(row.merchant_id), known?: PaymentRow[]) {
    // Every payment adds a positive amount to amount_received: nothing received, no payments to read.
    // `known`: the invoice's payments, when the caller has just written them (no read back).
    const payments = known ?? (row.amount_received > 0n ? d.invoices.payments(row.id) : []);
    return invoiceResource(row, payments, {
      receiver: merchant?.wallet_account_id ?? '',
      publicUrl: d.publicUrl(),
      nowMicros: d.clock.now(),
    });
  }

  /**
   * Expire every pending invoice whose `expires_at` has passed on its merchant's clock: the due work
   * registered with src/clock/due-work.ts, which runs it before every request and in the tick; all of
   * them, a batch (the repository's limit) per unit of work until none is due.
   */
  function expireDue(): string[] {
    const now = d.clock.now();
    const expired: string[] = [];
    for (let due = d.invoices.dueForExpiry(now); due.length; due = d.invoices.dueForExpiry(now)) {
      const batch = d.unitOfWork(() =>
        due.filter((id) => {
          if (!d.invoices.expire(id)) return false;
          if (d.expiryEvents()) {
            const row = d.invoices.byId(id)!;
            d.outbox.append('invoice.updated', row.merchant_id, eventBody('invoice.updated', row));
          }
          return true;
        }),
      );
      expired.push(...batch);
      // A due row this batch could not expire (moved on meanwhile) would be selected again: stop.
      if (batch.length < due.length) break;
    }
    return expired;
  }

  /** The invoice (expired already if its time has come): the one read every other module starts from. 404 when unknown. */
  function load(id: string): InvoiceRow {
    const row = find(id);
    if (!row) throw ApiError.notFound();
    return row;
  }

  /** The invoice or undefined; the request is on its merchant's clock from here on. */
  function find(id: string): InvoiceRow | undefined {
    const row = d.invoices.byId(id);
    if (row) d.tenants.enter(d.merchantById(row.merchant_id)?.workspace_id ?? null);
    return row;
  }

  return {
    view,
    expireDue,
    load,
    /** `load`, or undefined when there is no such invoice (the hosted page shows its own 404). */
    find,
    /** The stored row, without entering its merchant's clock (a caller inside the invoice's own work). */
    byId: (id: string) => d.invoices.byId(id),
    /** The earliest expiry still waiting, on its tenant's clock (the guard of the due work). */
    nextExpiry: (workspaceId: string | null) => d.invoices.nextExpiry(workspaceId),
    /** The ids of the newest invoices of every merchant (the dashboard's list). */
    recentIds: (limit: number) => d.invoices.recentIds(limit),
    /** The invoice with this over-the-counter reference number, or undefined. */
    byReference: (reference: string) => d.invoices.byReference(reference),
    /**
     * Apply a state change computed by invoice.model.ts (`receivePayment`, `issueReference`, `close`):
     * the payment it records, the invoice as it becomes and the event it raises, in one unit of work
     * (the caller's, when it has one). Returns the invoice as written, without reading it back. The
     * payments module changes invoices only through this.
     */
    apply(change: InvoiceChange): InvoiceRow {
      return d.unitOfWork(() => {
        if (change.payment) d.invoices.insertPayment(change.payment);
        d.invoices.save(change.invoice);
        if (change.event)
          d.outbox.append(
            change.event,
            change.invoice.merchant_id,
            eventBody(change.event, change.invoice),
          );
        return change.invoice;
      });
    },
    create(merchant: Merchant, input: CreateInvoiceInput) {
      const errors: Record<string, string[]> = {};
      let amount = 0n;
      try {
        amount = parseAmount(input.amount);
        if (amount > BigInt(merchant.max_invoice_amount)) {
          throw ApiError.field(
            'amount',
            `Amount should be at most ${formatMoneyShort(merchant.max_invoice_amount)} ${input.currency}.`,
            'amount_above_maximum',
          );
        }
      } catch (err) {
        if (err instanceof ApiError) throw err;
        errors.amount = [amountFieldError(err).errors.amount![0]!];
      }
      const enabled = JSON.parse(merchant.enabled_payment_collectors) as string[];
      const collectors = input.supported_payment_collectors ?? enabled;
      const notEnabled = collectors.filter((c) => !enabled.includes(c));
      if (notEnabled.length) {
        errors.supported_payment_collectors = notEnabled.map(
          (c) => `"${c}" is not enabled for this merchant.`,
        );
      }
      const now = d.clock.now();
      let expiresAt = now + merchant.invoice_lifetime_seconds * 1_000_000;
      if (input.expires_at !== undefined) {
        const parsed = parseExpiry(input.expires_at, now);
        if (parsed === null)
          errors.expires_at = [
            'Enter a valid date/time (ISO 8601) or a delta such as "1w 3d 2h 32m 5s".',
          ];
        else if (parsed <= now) errors.expires_at = ['Expiry must be in the future.'];
        else expiresAt = parsed;
      }
      if (Object.keys(errors).length) throw new ApiError('validation_error', errors);

      const id = d.ids();
      const row = d.unitOfWork(() => {
        const fields = {
          id,
          merchant_id: merchant.id,
          amount,
          currency: input.currency,
          external_transaction_id: input.external_transaction_id,
          description: input.description ?? '',
          metadata: JSON.stringify(input.metadata ?? {}),
          supported_payment_collectors: JSON.stringify(collectors),
          created_at: now,
          expires_at: expiresAt,
        };
        if (!d.invoices.insert(fields)) {
          throw ApiError.field(
            'external_transaction_id',
            'External transaction ID has already been used for an invoice.',
            'duplicate_external_transaction_id',
          );
        }
        d.dueWork.expect(expiresAt);
        // The row as the insert wrote it (the repository's defaults), without reading it back.
        const created = d.invoices.inserted(fields);
        d.outbox.append('invoice.created', merchant.id, eventBody('invoice.created', created));
        return created;
      });
      return view(row, merchant);
    },
    /** Another merchant's invoice is a 404, never its data. */
    get(merchant: Merchant, id: string) {
      const row = d.invoices.forMerchant(id, merchant.id);
      if (!row) throw ApiError.notFound();
      return view(row, merchant);
    },
    /**
     * The read without credentials (`GET /v1/invoices/{id}` with no Authorization header): the id is 128
     * random bits and the hosted page shows the same invoice publicly anyway.
     */
    getPublic(id: string) {
      return view(load(id));
    },
    list(
      merchant: Merchant,
      query: {
        page?: number;
        per_page?: number;
        status?: InvoiceStatus;
        external_transaction_id?: string;
      },
    ) {
      const req = pageRequest(query);
      const filter = {
        merchantId: merchant.id,
        status: query.status,
        externalTransactionId: query.external_transaction_id,
      };
      const now = d.clock.now();
      const publicUrl = d.publicUrl();
      const key = JSON.stringify([
        merchant.id,
        merchant.wallet_account_id,
        publicUrl,
        filter.status,
        filter.externalTransactionId,
        req.limit,
        req.offset,
      ]);
      const cached = pages.get(key, now);
      if (cached) {
        const answer = { invoices: cached.invoices.slice(), meta: pageMeta(req, cached.total) };
        cached.json ??= JSON.stringify(answer);
        return withJsonText(answer, cached.json);
      }
      // One connection, synchronous calls: the count and the page read the same snapshot, so they
      // agree even while other requests insert.
      const total = d.invoices.count(filter);
      const rows = d.invoices.page(filter, req.limit, req.offset);
      const invoices = rows.map((row) => view(row, merchant));
      const expiresAt = rows.map((r) => (r.status === 'pending' ? Number(r.expires_at) : null));
      pages.set(key, { total, invoices: invoices.slice(), expiresAt });
      return { invoices, meta: pageMeta(req, total) };
    },
  };
}

export type InvoiceService = ReturnType<typeof createInvoiceService>;
