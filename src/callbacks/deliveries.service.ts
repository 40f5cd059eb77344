import type { EventName } from '../events/outbox.repo.js';
import { ApiError } from '../shared/api-error.js';
import type { Merchant } from '../identities/identities.api.js';
import { eventBody } from '../invoices/invoice.view.js';
import type { Invoice } from '../invoices/invoices.api.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import type {
  DeliveryFilter,
  DeliveryRepository,
  DeliveryRow,
  NewDelivery,
} from './deliveries.repo.js';
import { TooManyWaiters, type DeliveryNotifier } from './delivery.notifier.js';
import { deliveryResource, type DeliveryKind } from './delivery.view.js';
import { waitingReason } from './waiting-reason.js';

export interface DeliveryServiceDeps {
  repo: DeliveryRepository;
  clock: Clock;
  ids: IdFactory;
  notifier: DeliveryNotifier;
  invoiceById: (id: string) => Invoice | undefined;
  merchantById: (id: string) => Merchant | undefined;
  /** A workspace's time (the sandbox's for the base data): a delivery waits on its merchant's clock. */
  nowOf: (workspaceId: string | null | undefined) => number;
  /** Ask the dispatcher (when it runs) to send what is due. */
  wake: () => void;
  /** The retry delays (seconds): a delivery has `length + 1` attempts. */
  retrySchedule: readonly number[];
  /** The address the sandbox reaches itself at, read when a delivery is shown (the port is known late). */
  internalUrl: () => string;
  /** Told of each delivery sent on demand (redelivery, manual send) once its row is written. */
  onResend?: (delivery: DeliveryRow, kind: Exclude<DeliveryKind, 'event'>) => void;
}

export interface DeliveryListQuery extends DeliveryFilter {
  page?: number;
  per_page?: number;
  /** Seconds to long-poll until at least one delivery matches the filters. */
  wait?: number;
}

/** What a 503 `too_many_waiters` asks the client to wait (its Retry-After). */
export const WAITERS_RETRY_AFTER_SECONDS = 1;

/** The delivery log and the control calls on it (docs/design.md#control-api, tag `sandbox`). */
export function createDeliveryService(d: DeliveryServiceDeps) {
  function kindOf(row: DeliveryRow): DeliveryKind {
    if (row.redelivery_of !== null) return 'redelivery';
    return d.repo.isOutboxEvent(row.event_id) ? 'event' : 'manual';
  }

  function view(row: DeliveryRow, withAttempts = false) {
    const waiting = waitingReason(
      row,
      d.repo.blocker(row),
      // Its merchant's clock, not the caller's: a control call lists the deliveries of every workspace.
      d.nowOf(d.merchantById(row.merchant_id)?.workspace_id),
      d.retrySchedule.length + 1,
    );
    return deliveryResource(
      row,
      { kind: kindOf(row), waiting_reason: waiting, internalUrl: d.internalUrl() },
      withAttempts ? d.repo.attempts(row.id) : undefined,
    );
  }

  function get(id: string) {
    const row = d.repo.byId(id);
    if (!row) throw ApiError.notFound();
    return view(row, true);
  }

  /** A delivery sent on demand, due now (a manual send in per-invoice order, a redelivery out of it). */
  function enqueue(row: NewDelivery, kind: Exclude<DeliveryKind, 'event'>) {
    d.repo.insert(row);
    d.notifier.notify();
    d.wake();
    const stored = d.repo.byId(row.id)!;
    d.onResend?.(stored, kind);
    return get(row.id);
  }

  /** Long-poll until a delivery matches: one shared check per change for every waiter on this filter. */
  async function waitFor(
    filter: DeliveryFilter,
    seconds: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const key = JSON.stringify([
      filter.invoice_id ?? null,
      filter.merchant_id ?? null,
      filter.event ?? null,
      filter.status ?? null,
    ]);
    try {
      await d.notifier.waitUntil(key, () => d.repo.any(filter), seconds * 1000, signal);
    } catch (err) {
      if (!(err instanceof TooManyWaiters)) throw err;
      throw ApiError.general(
        'too_many_waiters',
        `${err.max} long-polls (wait) are already open, the most this sandbox keeps (--max-waiters). ` +
          `Try again after ${WAITERS_RETRY_AFTER_SECONDS} s, or list without wait.`,
      );
    }
  }

  return {
    get,

    /** Newest first; with `wait`, answers as soon as one delivery matches (or after `wait` seconds). */
    async list(query: DeliveryListQuery, signal?: AbortSignal) {
      const filter: DeliveryFilter = {
        invoice_id: query.invoice_id,
        merchant_id: query.merchant_id,
        event: query.event,
        status: query.status,
      };
      if (query.wait) await waitFor(filter, query.wait, signal);
      const req = pageRequest(query);
      const total = d.repo.count(filter);
      return {
        deliveries: d.repo.list(filter, req.limit, req.offset).map((r) => view(r)),
        meta: pageMeta(req, total),
      };
    },

    /**
     * Deliver the same event again now, as a new delivery (same `event_id`, same body, its own attempts
     * and retries, `redelivery_of` the original): the original's log is kept as it was, and the
     * receiver sees a true duplicate, which is what a redelivery is for.
     */
    redeliver(id: string) {
      const original = d.repo.byId(id);
      if (!original) throw ApiError.notFound();
      return enqueue(
        {
          id: d.ids(),
          event_id: original.event_id,
          event: original.event,
          invoice_id: original.invoice_id,
          merchant_id: original.merchant_id,
          url: d.merchantById(original.merchant_id)?.callback_url ?? original.url,
          body: original.body,
          ordered: 0,
          redelivery_of: original.id,
          created_at: d.clock.now(),
        },
        'redelivery',
      );
    },

    /**
     * Send `event` with the invoice's current data; no state changes, no outbox event (a new event id).
     * In per-invoice order: it goes after any earlier delivery of the invoice still pending, and later
     * ones wait for it. An event the invoice's state cannot produce needs `force`, as the real service
     * never sends it: `invoice.fully_paid` before it is fully paid, `invoice.updated` before any payment,
     * `invoice.payment_reference_number_generated` without a reference number.
     */
    fire(invoiceId: string, event: EventName, opts: { force?: boolean } = {}) {
      const invoice = d.invoiceById(invoiceId);
      if (!invoice) throw ApiError.notFound();
      const impossible =
        event === 'invoice.fully_paid' && invoice.status !== 'fully_paid'
          ? `The invoice is ${invoice.status}, not fully_paid: the real service never sends invoice.fully_paid for it. ` +
            'Pay it first (POST /_sandbox/invoices/{id}/payments)'
          : event === 'invoice.updated' && invoice.amount_received === 0n
            ? 'The invoice has received no payment: the real service sends invoice.updated when a payment arrives. ' +
              'Pay part of it first (POST /_sandbox/invoices/{id}/payments)'
            : event === 'invoice.payment_reference_number_generated' &&
                invoice.current_payment_reference_number === null
              ? 'The invoice has no payment reference number: the real service sends this event when one is generated. ' +
                'Generate one first (choose a counter outlet on its payment page)'
              : null;
      if (impossible && opts.force !== true) {
        throw ApiError.general(
          'invalid_state_transition',
          `${impossible}, or send {"force": true} to test how your handler copes.`,
        );
      }
      return enqueue(
        {
          id: d.ids(),
          event_id: d.ids(),
          event,
          invoice_id: invoice.id,
          merchant_id: invoice.merchant_id,
          url: d.merchantById(invoice.merchant_id)?.callback_url ?? null,
          body: JSON.stringify(eventBody(event, invoice)),
          ordered: 1,
          redelivery_of: null,
          created_at: d.clock.now(),
        },
        'manual',
      );
    },
  };
}

export type DeliveryService = ReturnType<typeof createDeliveryService>;
