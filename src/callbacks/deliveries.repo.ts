import type { Db } from '../db/open.js';
import type { EventName } from '../events/outbox.repo.js';
import type { DeliveryFilter, DeliveryStatus } from './callbacks.api.js';

export type { DeliveryFilter, DeliveryStatus };

export interface DeliveryRow {
  seq: number;
  id: string;
  event_id: string;
  event: EventName;
  invoice_id: string;
  merchant_id: string;
  url: string | null;
  body: string;
  ordered: 0 | 1;
  redelivery_of: string | null;
  status: DeliveryStatus;
  attempts_count: number;
  next_attempt_at: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
  delivered_at: number | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  started_at: number;
  url: string;
  request_headers: string;
  request_body: string;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  duration_ms: number;
}

export type NewDelivery = Pick<
  DeliveryRow,
  | 'id'
  | 'event_id'
  | 'event'
  | 'invoice_id'
  | 'merchant_id'
  | 'url'
  | 'body'
  | 'ordered'
  | 'redelivery_of'
  | 'created_at'
>;

/** The earlier delivery of the same invoice a pending one waits for (per-invoice order). */
export type Blocker = Pick<
  DeliveryRow,
  'id' | 'event' | 'status' | 'attempts_count' | 'last_error' | 'next_attempt_at'
>;

const FILTER_KEYS = ['invoice_id', 'merchant_id', 'event', 'status'] as const;

/**
 * Deliveries and their attempts as the delivery log writes and reads them (docs/design.md#callbacks);
 * the dispatcher's statements are in delivery-queue.repo.ts. SQL only.
 */
export function createDeliveryRepository(db: Db) {
  const byId = db.prepare('SELECT * FROM deliveries WHERE id = ?');
  const attemptsOf = db.prepare(
    'SELECT * FROM delivery_attempts WHERE delivery_id = ? ORDER BY attempt',
  );
  const insert = db.prepare(
    `INSERT INTO deliveries (id, event_id, event, invoice_id, merchant_id, url, body, ordered, redelivery_of, status,
       next_attempt_at, created_at, updated_at)
     VALUES (@id, @event_id, @event, @invoice_id, @merchant_id, @url, @body, @ordered, @redelivery_of, 'pending',
       @created_at, @created_at, @created_at)`,
  );
  const blockerOf = db.prepare(
    `SELECT id, event, status, attempts_count, last_error, next_attempt_at FROM deliveries
     WHERE invoice_id = ? AND seq < ? AND ordered = 1 AND status IN ('pending', 'delivering') ORDER BY seq LIMIT 1`,
  );
  // Through the invoice's index: there is no index on event_id alone.
  const hasEvent = db
    .prepare('SELECT 1 FROM deliveries WHERE invoice_id = ? AND event_id = ? LIMIT 1')
    .pluck();
  const fromOutbox = db.prepare('SELECT 1 FROM outbox_events WHERE id = ?').pluck();

  // One statement per combination of filters, each built once on first use; the SQL is assembled only
  // from the fixed column names above, values are always parameters.
  const listStatements = new Map<
    string,
    Record<'page' | 'count' | 'exists', ReturnType<Db['prepare']>>
  >();
  function listStatement(f: DeliveryFilter) {
    const used = FILTER_KEYS.filter((k) => f[k] !== undefined);
    const key = used.join(',');
    let st = listStatements.get(key);
    if (!st) {
      const where = used.length ? `WHERE ${used.map((k) => `${k} = @${k}`).join(' AND ')}` : '';
      st = {
        page: db.prepare(
          `SELECT * FROM deliveries ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset`,
        ),
        count: db.prepare(`SELECT COUNT(*) AS n FROM deliveries ${where}`),
        exists: db.prepare(`SELECT EXISTS (SELECT 1 FROM deliveries ${where}) AS n`),
      };
      listStatements.set(key, st);
    }
    return { st, params: Object.fromEntries(used.map((k) => [k, f[k]])) };
  }

  return {
    byId: (id: string) => byId.get(id) as DeliveryRow | undefined,
    attempts: (deliveryId: string) => attemptsOf.all(deliveryId) as AttemptRow[],
    insert: (d: NewDelivery) => void insert.run(d),
    /** The earlier delivery an ordered pending one waits for, or undefined when it waits for none. */
    blocker: (row: Pick<DeliveryRow, 'invoice_id' | 'seq' | 'ordered'>) =>
      row.ordered ? (blockerOf.get(row.invoice_id, row.seq) as Blocker | undefined) : undefined,
    /** Whether `eventId` is an outbox event's (an event that happened), rather than a manual send's. */
    isOutboxEvent: (eventId: string) => fromOutbox.get(eventId) !== undefined,
    /** Whether this sandbox has any delivery of the event id (the example receiver's provenance check). */
    hasEvent: (invoiceId: string, eventId: string) =>
      hasEvent.get(invoiceId, eventId) !== undefined,
    list(f: DeliveryFilter, limit: number, offset: number): DeliveryRow[] {
      const { st, params } = listStatement(f);
      return st.page.all({ ...params, limit, offset }) as DeliveryRow[];
    },
    count(f: DeliveryFilter): number {
      const { st, params } = listStatement(f);
      return (st.count.get(params) as { n: number }).n;
    },
    /** Whether any delivery matches (stops at the first: what a long-poll asks). */
    any(f: DeliveryFilter): boolean {
      const { st, params } = listStatement(f);
      return (st.exists.get(params) as { n: number }).n === 1;
    },
  };
}

export type DeliveryRepository = ReturnType<typeof createDeliveryRepository>;
