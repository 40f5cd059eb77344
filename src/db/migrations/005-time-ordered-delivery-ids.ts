/**
 * The outbox trigger, rewritten (docs/design.md#callbacks):
 * - Delivery ids become time-ordered like every other id (a UUID version 7 without dashes,
 *   src/shared/ids.ts): 48 bits of milliseconds from the event's time, the version nibble, 12 random
 *   bits, the variant, 62 random bits. New deliveries land at the right edge of the `id` index instead
 *   of on a random page, which a burst of creates then writes once per group commit.
 * - A delivery with nowhere to go (the merchant has no callback URL, or is disabled) is written as
 *   failed at once, with the reason the dispatcher would give (src/callbacks/delivery.dispatcher.ts,
 *   `noTarget`), instead of pending and then failed by the dispatcher in a second write.
 * - `deliveries_event_id` goes: no query looks deliveries up by event id, and every create paid for it.
 */
export const sql = /* sql */ `
DROP INDEX deliveries_event_id;
DROP TRIGGER outbox_events_delivery;
CREATE TRIGGER outbox_events_delivery AFTER INSERT ON outbox_events BEGIN
  INSERT INTO deliveries (id, event_id, event, invoice_id, merchant_id, url, body, ordered, status,
    next_attempt_at, last_error, created_at, updated_at)
  SELECT
    printf('%012x', NEW.created_at / 1000) || '7' || substr(lower(hex(randomblob(2))), 2)
      || substr('89ab', 1 + abs(random() % 4), 1) || substr(lower(hex(randomblob(8))), 2),
    NEW.id, NEW.name, NEW.invoice_id, NEW.merchant_id, m.callback_url, NEW.payload, 1,
    CASE WHEN m.id IS NULL OR (m.disabled = 0 AND m.callback_url IS NOT NULL) THEN 'pending' ELSE 'failed' END,
    CASE WHEN m.id IS NULL OR (m.disabled = 0 AND m.callback_url IS NOT NULL) THEN NEW.created_at END,
    CASE
      WHEN m.id IS NULL THEN NULL
      WHEN m.disabled <> 0 THEN 'the merchant is disabled (its workspace was deleted)'
      WHEN m.callback_url IS NULL THEN 'the merchant has no callback_url; set one, then redeliver'
    END,
    NEW.created_at, NEW.created_at
  FROM (SELECT 1) LEFT JOIN merchants AS m ON m.id = NEW.merchant_id;
END;
`;
