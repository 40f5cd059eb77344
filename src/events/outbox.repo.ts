import type { Db } from '../db/open.js';
import type { Clock } from '../shared/clock.js';
import type { IdFactory } from '../shared/ids.js';

export type EventName =
  | 'invoice.created'
  | 'invoice.updated'
  | 'invoice.fully_paid'
  | 'invoice.payment_reference_number_generated';

export const EVENT_NAMES: readonly EventName[] = [
  'invoice.created',
  'invoice.updated',
  'invoice.fully_paid',
  'invoice.payment_reference_number_generated',
];

/** The callback body (docs/design.md#invoice-lifecycle-and-events): amounts as 8-digit decimal strings. */
export interface EventBody {
  event: {
    name: EventName;
    data: {
      id: string;
      currency: string;
      amount: string;
      amount_received: string;
      external_transaction_id: string;
    };
  };
}

export interface OutboxEventRow {
  id: string;
  seq: number;
  name: EventName;
  invoice_id: string;
  merchant_id: string;
  payload: string;
  created_at: number;
}

type Listener = (event: OutboxEventRow) => void;

/**
 * The persisted outbox. `append` must run inside the transaction of the change that causes the event;
 * it writes the event and, through `writeDelivery`, the delivery row that will send it as a callback
 * (src/callbacks/event-delivery.writer.ts), so both commit or roll back together. Listeners hear of
 * the event only after that transaction commits.
 */
export function createOutbox(
  db: Db,
  clock: Clock,
  ids: IdFactory,
  writeDelivery: (event: OutboxEventRow) => void,
) {
  const insert = db.prepare(
    `INSERT INTO outbox_events (id, seq, name, invoice_id, merchant_id, payload, created_at)
     VALUES (@id, (SELECT COALESCE(MAX(seq), 0) + 1 FROM outbox_events), @name, @invoice_id, @merchant_id, @payload, @created_at)
     RETURNING *`,
  );
  const byInvoice = db.prepare('SELECT * FROM outbox_events WHERE invoice_id = ? ORDER BY seq');
  const listeners = new Set<Listener>();
  let pending: OutboxEventRow[] = [];

  return {
    append(name: EventName, merchantId: string, body: EventBody): OutboxEventRow {
      const row = insert.get({
        id: ids(),
        name,
        invoice_id: body.event.data.id,
        merchant_id: merchantId,
        payload: JSON.stringify(body),
        created_at: clock.now(),
      }) as OutboxEventRow;
      writeDelivery(row);
      pending.push(row);
      return row;
    },
    /** How many events are waiting for the open transaction to commit (see `discard`). */
    mark: () => pending.length,
    /** Called by the write batch after a commit: tell listeners (the dispatcher) about new events. */
    flush(): void {
      const out = pending;
      pending = [];
      for (const e of out) for (const l of listeners) l(e);
    },
    /** Called after a rollback: forget the events appended since `mark` (all of them by default). */
    discard(mark = 0): void {
      pending.length = Math.min(pending.length, mark);
    },
    onAppend(listener: Listener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    byInvoice: (invoiceId: string) => byInvoice.all(invoiceId) as OutboxEventRow[],
  };
}

export type Outbox = ReturnType<typeof createOutbox>;
