import type { Merchant } from '../identities/identities.api.js';
import {
  buildCallbackRequest,
  type CallbackOutcome,
  type CallbackRequest,
} from './callback.request.js';
import type { TargetCheck } from './callback-target.guard.js';
import { noTarget } from './event-delivery.writer.js';
import type { Claim, DueRow, Ended, FailNow } from './delivery-queue.repo.js';
import {
  DEFAULT_CONCURRENCY,
  INTERRUPTED,
  type AttemptReport,
  type DispatcherDeps,
} from './delivery.dispatcher.types.js';
import { createDeliveryTargeting } from './delivery.targeting.js';

export {
  DEFAULT_CONCURRENCY,
  INTERRUPTED,
  type AttemptReport,
  type DispatcherDeps,
} from './delivery.dispatcher.types.js';

// setTimeout cannot wait longer than 2^31-1 ms; a far retry is simply re-armed when this one fires.
const MAX_TIMER_MS = 3_600_000;

/**
 * Sends callbacks from the persisted `deliveries` rows (docs/design.md#callbacks): at least once, per-invoice
 * order, at most `concurrency` requests at a time, retries on the sandbox clock.
 *
 * It holds no queue of its own: every decision is a query on the rows, so a restart (or a crash)
 * resumes exactly where the database says. It is woken by new events, by the due work of the clock
 * (src/clock/due-work.ts: before the first request once a retry is due, every second and after each
 * clock move), and by a real timer set for the next due retry.
 *
 * The database work is batched per turn of the event loop (bench/scenarios/callbacks.ts measures it):
 * answers that arrive together are recorded in one transaction, and the slots they free are filled by
 * one due query and one claim transaction. A delivery counts as in flight (and holds the later events
 * of its invoice) until its answer is recorded; a crash before that sends it again (at least once).
 */
export function createDispatcher(d: DispatcherDeps) {
  const limit = d.concurrency ?? DEFAULT_CONCURRENCY;
  const log =
    d.log ?? ((m: string, err?: unknown) => console.error(`[paysandbox] ${m}`, err ?? ''));
  const { nextStep, targetCheck, targetOf } = createDeliveryTargeting(d);
  const inFlight = new Map<string, Promise<void>>();
  // Attempts that ended and are not recorded yet (recorded by the next pump, in one transaction).
  let ended: Ended[] = [];
  // What listeners are told of those attempts (filled only while someone listens).
  let reports: AttemptReport[] = [];
  // The retries those attempts scheduled (told to `onRetry` once recorded).
  let retries: Array<{ workspaceId: string | null | undefined; at: number }> = [];
  let running = false;
  let stopping = false;
  let scheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt: number | null = null;

  async function attempt(
    row: DueRow,
    n: number,
    req: CallbackRequest,
    own: boolean,
  ): Promise<void> {
    // The sandbox's own example receiver is always allowed: it is the sandbox itself, not a URL a
    // merchant could point at a private address (--block-private-callbacks still refuses those).
    const pending: TargetCheck | Promise<TargetCheck> = own
      ? { problem: null }
      : targetCheck(req.url);
    const check = pending instanceof Promise ? await pending : pending;
    const outcome: CallbackOutcome =
      check.problem !== null
        ? { delivered: false, statusCode: null, excerpt: null, error: check.problem, durationMs: 0 }
        : await d.transport.send(req, d.config.callbackTimeoutMs, check.pinned);
    // Stopping: leave the row in flight; stop() closes the attempt as interrupted and requeues it.
    if (stopping) return;
    const workspaceId = d.merchantById(row.merchant_id)?.workspace_id;
    const next = nextStep(n, outcome, d.nowOf ? d.nowOf(workspaceId) : d.clock.now());
    ended.push({
      seq: row.seq,
      delivery_id: row.id,
      attempt: n,
      status_code: outcome.statusCode,
      error: outcome.error,
      response_excerpt: outcome.excerpt,
      duration_ms: outcome.durationMs,
      next,
    });
    if (next.next_attempt_at !== null && d.onRetry)
      retries.push({ workspaceId, at: next.next_attempt_at });
    if (d.onAttempt?.()) {
      reports.push({
        delivery_id: row.id,
        event_id: row.event_id,
        merchant_id: row.merchant_id,
        body: row.body,
        url: req.url,
        attempt: n,
        status_code: outcome.statusCode,
        error: outcome.error,
        duration_ms: outcome.durationMs,
        status: next.status,
        next_attempt_at: next.next_attempt_at,
      });
    }
    wake();
  }

  /** Record every attempt that ended since the last pump, in one transaction, and free their slots. */
  function recordEnded(): void {
    if (!ended.length) return;
    const batch = ended;
    const told = reports;
    const scheduled = retries;
    ended = [];
    reports = [];
    retries = [];
    try {
      d.repo.end(batch);
    } finally {
      for (const e of batch) inFlight.delete(e.delivery_id);
      d.onChange();
    }
    for (const r of scheduled) d.onRetry?.(r.workspaceId, r.at);
    const listener = told.length ? d.onAttempt?.() : null;
    if (!listener) return;
    for (const r of told) {
      try {
        listener(r);
      } catch (err) {
        log('an attempt listener failed:', err);
      }
    }
  }

  function send(claim: Claim, row: DueRow, req: CallbackRequest, own: boolean): void {
    const commit = d.committed?.() ?? null;
    const started = commit
      ? commit.then((ok) => {
          if (ok) return attempt(row, claim.attempt, req, own);
          // The claim (or the event itself) was rolled back with its batch: nothing to send; the row,
          // if it exists, is still pending and is claimed again.
          inFlight.delete(row.id);
          wake();
        })
      : attempt(row, claim.attempt, req, own);
    const done = started.catch((err) => {
      log(`callback delivery ${row.id} failed unexpectedly:`, err);
      inFlight.delete(row.id);
      wake();
    });
    inFlight.set(row.id, done);
  }

  /**
   * Claim up to `room` due deliveries in one transaction (failing at once those with nowhere to go)
   * and start their requests. Returns false when there was nothing to do.
   */
  function claimDue(
    now: number,
    room: number,
    merchants: Map<string, Merchant | undefined>,
  ): boolean {
    const rows = d.repo.due(now, room);
    if (!rows.length) return false;
    const claims: Claim[] = [];
    const requests: CallbackRequest[] = [];
    const own: boolean[] = [];
    const claimedRows: DueRow[] = [];
    const fails: FailNow[] = [];
    for (const row of rows) {
      let merchant = merchants.get(row.merchant_id);
      if (merchant === undefined && !merchants.has(row.merchant_id))
        merchants.set(row.merchant_id, (merchant = d.merchantById(row.merchant_id)));
      const reason = noTarget(merchant);
      const url = merchant?.callback_url;
      // noTarget names a reason whenever there is no merchant or no URL; the checks narrow the types.
      if (reason !== null || !merchant || !url) {
        fails.push({ seq: row.seq, url: url ?? row.url, error: reason ?? 'no callback URL' });
        continue;
      }
      const m = merchant;
      // The merchant's current URL and auth mode: a fixed setting takes effect on the next retry.
      const n = row.attempts_count + 1;
      const target = targetOf(url);
      const req = buildCallbackRequest(row, m, target.url, n);
      own.push(target.own);
      claims.push({
        seq: row.seq,
        delivery_id: row.id,
        attempt: n,
        started_at: now,
        url: req.url,
        request_headers: JSON.stringify(req.headers),
        request_body: req.body,
      });
      requests.push(req);
      claimedRows.push(row);
    }
    const { claimed, failed } = d.repo.claim(claims, fails, now);
    let started = 0;
    for (let i = 0; i < claims.length; i++) {
      if (!claimed[i]) continue;
      send(claims[i]!, claimedRows[i]!, requests[i]!, own[i]!);
      started += 1;
    }
    if (started + failed === 0) return false;
    d.onChange();
    return true;
  }

  function armTimer(now: number): void {
    const at = d.repo.nextDueAfter(now);
    if (at === timerAt) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    timerAt = at;
    if (at === null) return;
    const delayMs = Math.min(Math.ceil((at - now) / 1000) + 1, MAX_TIMER_MS);
    // The one real timer of the module (house style: business code otherwise runs on the sandbox clock).
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = null;
      pump();
    }, delayMs);
    timer.unref();
  }

  /** Record ended attempts, start every due delivery there is room for, arm the timer. Synchronous. */
  function pump(): void {
    if (!running) return;
    try {
      recordEnded();
      let now = d.clock.now();
      const merchants = new Map<string, Merchant | undefined>();
      while (inFlight.size < limit && claimDue(now, limit - inFlight.size, merchants))
        now = d.clock.now();
      armTimer(now);
    } catch (err) {
      log('callback dispatch failed:', err);
    }
  }

  /**
   * Pump once the current turn of the event loop is done (setImmediate, after the poll phase): every
   * answer and every new event of the turn is handled by one pump rather than one pump each.
   */
  function wake(): void {
    if (!running || scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      pump();
    });
  }

  return {
    /** Resume: deliveries a crash left in flight are sent again (at least once), then dispatch. */
    start(): void {
      if (running) return;
      running = true;
      if (d.repo.requeueInFlight(d.clock.now(), INTERRUPTED) > 0) d.onChange();
      pump();
    },
    /** Run what is due now (after a clock advance); synchronous so callers can observe the claim. */
    pump,
    /** Run what is due soon (new events): coalesces a burst of wake-ups into one pump. */
    wake,
    inFlight: () => inFlight.size,
    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      if (timer) clearTimeout(timer);
      timer = undefined;
      // Answers already in are real outcomes: record them; the rest is interrupted and sent again.
      try {
        recordEnded();
      } catch (err) {
        log('could not record ended callbacks on stop:', err);
      }
      stopping = true;
      d.transport.close();
      await Promise.allSettled([...inFlight.values()]);
      try {
        d.repo.requeueInFlight(d.clock.now(), INTERRUPTED);
      } catch (err) {
        log('could not requeue in-flight callbacks on stop:', err);
      }
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
