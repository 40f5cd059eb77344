import type { Db } from '../db/open.js';
import type { OutboxEventRow } from '../events/outbox.repo.js';
import type { Merchant } from '../identities/identities.api.js';
import type { IdFactory } from '../shared/ids.js';

export const MERCHANT_DISABLED = 'the merchant is disabled (its workspace was deleted)';
export const NO_CALLBACK_URL = 'the merchant has no callback_url; set one, then redeliver';

/**
 * Why no callback can be sent to this merchant at all, or null. Such a delivery fails at once, without
 * an attempt, rather than retrying for days: set a URL (or re-enable the merchant) and redeliver.
 */
export function noTarget(merchant: Merchant | undefined): string | null {
  if (!merchant) return 'the merchant no longer exists';
  // A deleted workspace's merchant: its CI receiver is gone; do not hammer it for two days.
  if (merchant.disabled) return MERCHANT_DISABLED;
  if (!merchant.callback_url) return NO_CALLBACK_URL;
  return null;
}

export interface EventDeliveryDeps {
  db: Db;
  ids: IdFactory;
  merchantById: (id: string) => Merchant | undefined;
}

/**
 * The delivery row of an outbox event (docs/design.md#callbacks). `outbox.append` calls it right after
 * inserting the event, inside the same transaction: no crash can leave an event without the delivery
 * that sends it, and a rollback takes both. A merchant with nowhere to send to gets a delivery that is
 * failed at once with the reason the dispatcher would give, instead of pending and failed in a second
 * write. An event whose merchant row is gone stays pending: the dispatcher says so on its first turn.
 */
export interface EventDeliveryWriter {
  (event: OutboxEventRow): void;
  /**
   * How many pending deliveries (ones the dispatcher will send) were written so far, committed or not:
   * the dispatcher need not look after a commit whose events only got deliveries failed at once.
   */
  pendingWritten(): number;
}

export function createEventDeliveryWriter(d: EventDeliveryDeps): EventDeliveryWriter {
  const insert = d.db.prepare(
    `INSERT INTO deliveries (id, event_id, event, invoice_id, merchant_id, url, body, ordered, status,
       next_attempt_at, last_error, created_at, updated_at)
     VALUES (@id, @event_id, @event, @invoice_id, @merchant_id, @url, @body, 1, @status,
       @next_attempt_at, @last_error, @created_at, @created_at)`,
  );
  let pending = 0;
  const write = (event: OutboxEventRow) => {
    const merchant = d.merchantById(event.merchant_id);
    const reason = merchant ? noTarget(merchant) : null;
    if (!reason) pending++;
    insert.run({
      id: d.ids(),
      event_id: event.id,
      event: event.name,
      invoice_id: event.invoice_id,
      merchant_id: event.merchant_id,
      url: merchant?.callback_url ?? null,
      body: event.payload,
      status: reason ? 'failed' : 'pending',
      next_attempt_at: reason ? null : event.created_at,
      last_error: reason,
      created_at: event.created_at,
    });
  };
  return Object.assign(write, { pendingWritten: () => pending });
}
