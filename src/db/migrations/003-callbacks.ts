/**
 * Callback deliveries and their attempts (docs/design.md#callbacks).
 *
 * A delivery row is created by a trigger on `outbox_events`, so it is written in the same transaction
 * as the event itself: there is no moment (crash, kill -9) at which an event exists without the
 * delivery that will send it. The dispatcher is driven only by these rows.
 */
export const sql = /* sql */ `
CREATE TABLE deliveries (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  event_id TEXT NOT NULL,
  event TEXT NOT NULL,
  invoice_id TEXT NOT NULL,
  merchant_id TEXT NOT NULL,
  url TEXT,
  body TEXT NOT NULL,
  -- 1: an outbox event, sent in order per invoice; 0: fired or redelivered on demand, sent at once.
  ordered INTEGER NOT NULL DEFAULT 1 CHECK (ordered IN (0, 1)),
  redelivery_of TEXT,
  status TEXT NOT NULL CHECK (status IN ('pending', 'delivering', 'delivered', 'failed')),
  attempts_count INTEGER NOT NULL DEFAULT 0,
  next_attempt_at INTEGER,
  last_error TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  delivered_at INTEGER
);
CREATE INDEX deliveries_due ON deliveries(next_attempt_at, seq) WHERE status = 'pending';
CREATE INDEX deliveries_invoice ON deliveries(invoice_id, seq);
CREATE INDEX deliveries_event_id ON deliveries(event_id);
CREATE INDEX deliveries_status ON deliveries(status, seq);
CREATE INDEX deliveries_event ON deliveries(event, seq);

CREATE TABLE delivery_attempts (
  delivery_id TEXT NOT NULL REFERENCES deliveries(id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  started_at INTEGER NOT NULL,
  url TEXT NOT NULL,
  request_headers TEXT NOT NULL,
  request_body TEXT NOT NULL,
  -- Both NULL while the attempt is in flight; one of them is set when it ends.
  status_code INTEGER,
  error TEXT,
  response_excerpt TEXT,
  duration_ms REAL NOT NULL DEFAULT 0,
  PRIMARY KEY (delivery_id, attempt)
) WITHOUT ROWID;

-- The id is random rather than from the app's IdFactory because the trigger runs inside SQLite;
-- it has the same shape (32 lowercase hex characters, docs/design.md#wire-conventions).
CREATE TRIGGER outbox_events_delivery AFTER INSERT ON outbox_events BEGIN
  INSERT INTO deliveries (id, event_id, event, invoice_id, merchant_id, url, body, ordered, status,
    next_attempt_at, created_at, updated_at)
  VALUES (lower(hex(randomblob(16))), NEW.id, NEW.name, NEW.invoice_id, NEW.merchant_id,
    (SELECT callback_url FROM merchants WHERE id = NEW.merchant_id), NEW.payload, 1, 'pending',
    NEW.created_at, NEW.created_at, NEW.created_at);
END;

-- Events written before this migration get their deliveries now: nothing in the outbox is lost.
INSERT INTO deliveries (id, event_id, event, invoice_id, merchant_id, url, body, ordered, status,
  next_attempt_at, created_at, updated_at)
SELECT lower(hex(randomblob(16))), o.id, o.name, o.invoice_id, o.merchant_id,
  (SELECT callback_url FROM merchants WHERE id = o.merchant_id), o.payload, 1, 'pending',
  o.created_at, o.created_at, o.created_at
FROM outbox_events o ORDER BY o.seq;
`;
