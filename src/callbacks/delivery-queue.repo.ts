import type { Db } from '../db/open.js';
import { merchantsOfWorkspaceSql, merchantWorkspaceSql } from '../identities/tenant.sql.js';
import type { AttemptRow, DeliveryRow } from './deliveries.repo.js';

/** What the dispatcher needs of a due delivery (not the whole row: fewer columns to read and copy). */
export type DueRow = Pick<
  DeliveryRow,
  'seq' | 'id' | 'event_id' | 'merchant_id' | 'url' | 'body' | 'attempts_count'
>;

/** One attempt to start: the delivery goes in flight and the attempt is logged as started. */
export interface Claim extends NewAttempt {
  seq: number;
}

/** How one attempt ended (see `AttemptEnd`). */
export interface Ended extends AttemptEnd {
  seq: number;
  delivery_id: string;
  attempt: number;
}

/** A delivery that fails at once, without an attempt (nothing to send to). */
export interface FailNow {
  seq: number;
  url: string | null;
  error: string;
}

export type NewAttempt = Omit<
  AttemptRow,
  'status_code' | 'error' | 'response_excerpt' | 'duration_ms'
>;

/** What happens to a delivery when an attempt ends. */
export interface AttemptEnd {
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  duration_ms: number;
  next: { status: 'pending' | 'delivered' | 'failed'; next_attempt_at: number | null; at: number };
}

/**
 * The dispatcher's side of the deliveries (docs/design.md#callbacks): which are due, claiming them,
 * recording how their attempts ended, and putting back those a stop left in flight. SQL only; the
 * rules live in the dispatcher.
 */
export function createDeliveryQueue(db: Db) {
  // Per-invoice order: an ordered delivery (an outbox event's, or a manual send) waits while an earlier
  // ordered delivery of the same invoice is still pending or in flight. Redeliveries (ordered = 0)
  // neither wait nor hold others.
  // INDEXED BY: left alone, the planner picks the (status, seq) index and sorts every pending row on
  // each call (measured ~20x slower with 2,000 pending); the partial index walks due rows in order.
  const due = db.prepare(
    `SELECT d.seq, d.id, d.event_id, d.merchant_id, d.url, d.body, d.attempts_count FROM deliveries d INDEXED BY deliveries_due
     WHERE d.status = 'pending' AND d.next_attempt_at <= @now + ws_max_offset()
       AND d.next_attempt_at <= @now + ws_offset(${merchantWorkspaceSql('d.merchant_id')})
       AND (d.ordered = 0 OR NOT EXISTS (
         SELECT 1 FROM deliveries e
         WHERE e.invoice_id = d.invoice_id AND e.seq < d.seq AND e.ordered = 1 AND e.status IN ('pending', 'delivering')))
     ORDER BY d.next_attempt_at, d.seq LIMIT @limit`,
  );
  const nextDue = db.prepare(
    "SELECT MIN(next_attempt_at) AS at FROM deliveries INDEXED BY deliveries_due WHERE status = 'pending' AND next_attempt_at > ?",
  );
  const nextDueOf = db.prepare(
    `SELECT MIN(next_attempt_at) AS at FROM deliveries INDEXED BY deliveries_due
     WHERE status = 'pending' AND next_attempt_at > @after AND merchant_id IN (${merchantsOfWorkspaceSql})`,
  );
  // By seq (the rowid), not id: one b-tree search less per statement.
  const claim = db.prepare(
    `UPDATE deliveries SET status = 'delivering', attempts_count = attempts_count + 1, url = @url, updated_at = @now
     WHERE seq = @seq AND status = 'pending'`,
  );
  const insertAttempt = db.prepare(
    `INSERT INTO delivery_attempts (delivery_id, attempt, started_at, url, request_headers, request_body)
     VALUES (@delivery_id, @attempt, @started_at, @url, @request_headers, @request_body)`,
  );
  const endAttempt = db.prepare(
    `UPDATE delivery_attempts SET status_code = @status_code, error = @error, response_excerpt = @response_excerpt,
       duration_ms = @duration_ms
     WHERE delivery_id = @delivery_id AND attempt = @attempt`,
  );
  const endDelivery = db.prepare(
    `UPDATE deliveries SET status = @status, next_attempt_at = @next_attempt_at, last_error = @error, updated_at = @at,
       delivered_at = CASE WHEN @status = 'delivered' THEN @at ELSE delivered_at END
     WHERE seq = @seq AND status = 'delivering'`,
  );
  const failNow = db.prepare(
    `UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = @error, url = @url, updated_at = @now
     WHERE seq = @seq AND status = 'pending'`,
  );
  const interruptAttempts = db.prepare(
    `UPDATE delivery_attempts SET error = @error
     WHERE status_code IS NULL AND error IS NULL
       AND delivery_id IN (SELECT id FROM deliveries WHERE status = 'delivering')`,
  );
  const requeueInFlight = db.prepare(
    "UPDATE deliveries SET status = 'pending', next_attempt_at = @now, updated_at = @now WHERE status = 'delivering'",
  );

  /**
   * Start a batch of attempts and fail a batch of deliveries that have nowhere to go, in one
   * transaction; returns which claims took (a delivery no longer pending is left alone).
   */
  const claimTx = db.transaction(
    (
      claims: readonly Claim[],
      fails: readonly FailNow[],
      now: number,
    ): { claimed: boolean[]; failed: number } => {
      const claimed = claims.map((a) => {
        if (claim.run({ seq: a.seq, url: a.url, now: a.started_at }).changes !== 1) return false;
        insertAttempt.run({
          delivery_id: a.delivery_id,
          attempt: a.attempt,
          started_at: a.started_at,
          url: a.url,
          request_headers: a.request_headers,
          request_body: a.request_body,
        });
        return true;
      });
      let failed = 0;
      for (const f of fails)
        failed += failNow.run({ seq: f.seq, url: f.url, error: f.error, now }).changes;
      return { claimed, failed };
    },
  );
  /** Record a batch of ended attempts in one transaction; returns how many deliveries moved. */
  const endTx = db.transaction((ended: readonly Ended[]): number => {
    let moved = 0;
    for (const e of ended) {
      const r = endDelivery.run({
        seq: e.seq,
        status: e.next.status,
        next_attempt_at: e.next.next_attempt_at,
        error: e.error,
        at: e.next.at,
      });
      if (r.changes !== 1) continue; // gone (a reset) or requeued meanwhile
      moved += 1;
      endAttempt.run({
        delivery_id: e.delivery_id,
        attempt: e.attempt,
        status_code: e.status_code,
        error: e.error,
        response_excerpt: e.response_excerpt,
        duration_ms: e.duration_ms,
      });
    }
    return moved;
  });
  const requeueTx = db.transaction((now: number, error: string): number => {
    interruptAttempts.run({ error });
    return requeueInFlight.run({ now }).changes;
  });

  return {
    /** Due deliveries in dispatch order (per-invoice order respected), at most `limit`. */
    due: (now: number, limit: number) => due.all({ now, limit }) as DueRow[],
    /** The next time (sandbox micros) a pending delivery becomes due after `now`, or null. */
    nextDueAfter: (now: number) => (nextDue.get(now) as { at: number | null }).at,
    /**
     * The earliest next attempt after `after` of a pending delivery (the guard of the due work): of every
     * delivery (`null`), or of one workspace's merchants' (`after` is then on that workspace's clock).
     */
    nextPendingAfter: (after: number, workspaceId: string | null) =>
      (
        (workspaceId === null ? nextDue.get(after) : nextDueOf.get({ after, ws: workspaceId })) as {
          at: number | null;
        }
      ).at,
    /**
     * Mark deliveries in flight and log their attempts as started, and fail those with nowhere to go
     * (without an attempt), all in one transaction.
     */
    claim: (claims: readonly Claim[], fails: readonly FailNow[], now: number) =>
      claimTx(claims, fails, now),
    /** Record how attempts ended and where each delivery goes next; a delivery gone meanwhile is skipped. */
    end: (ended: readonly Ended[]): number => (ended.length ? endTx(ended) : 0),
    /**
     * Deliveries left in flight by a crash or a stop go back to pending, due now; their open attempt is
     * closed with `error` (its outcome is unknown: the receiver may have seen it).
     */
    requeueInFlight: (now: number, error: string): number => requeueTx(now, error),
  };
}

export type DeliveryQueue = ReturnType<typeof createDeliveryQueue>;
