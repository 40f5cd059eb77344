import type { AppConfig } from '../config.js';
import type { MerchantRow } from '../identities/identities.repo.js';
import type { Clock } from '../shared/clock.js';
import { buildCallbackRequest, sendCallback, type CallbackOutcome, type CallbackRequest } from './callback.request.js';
import { callbackTargetProblem, type Lookup } from './callback-target.guard.js';
import type { AttemptEnd, DeliveryRepository, DeliveryRow } from './deliveries.repo.js';

export const DEFAULT_CONCURRENCY = 8;
export const INTERRUPTED = 'interrupted: the sandbox stopped during this attempt; the outcome is unknown, so it is sent again';
// setTimeout cannot wait longer than 2^31-1 ms; a far retry is simply re-armed when this one fires.
const MAX_TIMER_MS = 3_600_000;

export interface DispatcherDeps {
  repo: DeliveryRepository;
  clock: Clock;
  config: Pick<AppConfig, 'retrySchedule' | 'callbackTimeoutMs' | 'blockPrivateCallbacks'>;
  merchantById: (id: string) => MerchantRow | undefined;
  /** Outbound HTTP; read on every attempt because the sandbox context is filled in after start-up. */
  fetch: () => typeof fetch;
  lookup: Lookup;
  /** Tell long-polls that deliveries changed. */
  onChange: () => void;
  concurrency?: number;
  /** Real milliseconds, for attempt durations only. */
  nowMs?: () => number;
  log?: (message: string, err?: unknown) => void;
}

type Begin = 'started' | 'failed' | 'skipped';

/**
 * Why no callback can be sent to this merchant at all, or null. Such a delivery fails at once, without
 * an attempt, rather than retrying for days: set a URL (or re-enable the merchant) and redeliver.
 */
function noTarget(merchant: MerchantRow | undefined): string | null {
  if (!merchant) return 'the merchant no longer exists';
  // A deleted workspace's merchant: its CI receiver is gone; do not hammer it for two days.
  if (merchant.disabled) return 'the merchant is disabled (its workspace was deleted)';
  if (!merchant.callback_url) return 'the merchant has no callback_url; set one, then redeliver';
  return null;
}

/**
 * Sends callbacks from the persisted `deliveries` rows (sandbox.md §7): at least once, per-invoice
 * order, at most `concurrency` requests at a time, retries on the sandbox clock.
 *
 * It holds no queue of its own: every decision is a query on the rows, so a restart (or a crash)
 * resumes exactly where the database says. It is woken by new events, by `tick` (every second and
 * after a clock advance), and by a real timer set for the next due retry.
 */
export function createDispatcher(d: DispatcherDeps) {
  const limit = d.concurrency ?? DEFAULT_CONCURRENCY;
  const nowMs = d.nowMs ?? (() => performance.now());
  const log = d.log ?? ((m: string, err?: unknown) => console.error(`[paysandbox] ${m}`, err ?? ''));
  const inFlight = new Map<string, Promise<void>>();
  const stopping = new AbortController();
  let running = false;
  let scheduled = false;
  let timer: NodeJS.Timeout | undefined;
  let timerAt: number | null = null;

  function nextStep(attempt: number, outcome: CallbackOutcome, now: number): AttemptEnd['next'] {
    if (outcome.delivered) return { status: 'delivered', next_attempt_at: null, at: now };
    const delay = d.config.retrySchedule[attempt - 1];
    if (delay === undefined) return { status: 'failed', next_attempt_at: null, at: now };
    return { status: 'pending', next_attempt_at: now + Math.round(delay * 1_000_000), at: now };
  }

  async function attempt(row: DeliveryRow, n: number, req: CallbackRequest): Promise<void> {
    const problem = await callbackTargetProblem(req.url, { blockPrivate: d.config.blockPrivateCallbacks, lookup: d.lookup });
    const outcome: CallbackOutcome = problem
      ? { delivered: false, statusCode: null, excerpt: null, error: problem, durationMs: 0 }
      : await sendCallback(d.fetch(), req, { timeoutMs: d.config.callbackTimeoutMs, stop: stopping.signal, nowMs });
    // Stopping: leave the row in flight; stop() closes the attempt as interrupted and requeues it.
    if (stopping.signal.aborted) return;
    const now = d.clock.now();
    d.repo.end(row.id, n, {
      status_code: outcome.statusCode,
      error: outcome.error,
      response_excerpt: outcome.excerpt,
      duration_ms: outcome.durationMs,
      next: nextStep(n, outcome, now),
    });
    d.onChange();
  }

  function begin(row: DeliveryRow, now: number): Begin {
    const merchant = d.merchantById(row.merchant_id);
    const reason = noTarget(merchant);
    if (reason !== null) {
      const failed = d.repo.failWithoutAttempt(row.id, merchant?.callback_url ?? row.url, reason, now);
      if (failed) d.onChange();
      return failed ? 'failed' : 'skipped';
    }
    const m = merchant!;
    // The merchant's current URL and auth mode: a fixed setting takes effect on the next retry.
    const n = row.attempts_count + 1;
    const req = buildCallbackRequest(row, m, m.callback_url!, n);
    const claimed = d.repo.claim({
      delivery_id: row.id,
      attempt: n,
      started_at: now,
      url: req.url,
      request_headers: JSON.stringify(req.headers),
      request_body: req.body,
    });
    if (!claimed) return 'skipped';
    d.onChange();
    const done = attempt(row, n, req)
      .catch((err) => log(`callback delivery ${row.id} failed unexpectedly:`, err))
      .finally(() => {
        inFlight.delete(row.id);
        wake();
      });
    inFlight.set(row.id, done);
    return 'started';
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

  /** Start every due delivery there is room for, then arm the timer for the next one. Synchronous. */
  function pump(): void {
    if (!running) return;
    try {
      let now = d.clock.now();
      while (inFlight.size < limit) {
        const batch = d.repo.due(now, limit - inFlight.size);
        const results = batch.map((row) => begin(row, now));
        if (!results.some((r) => r !== 'skipped')) break;
        now = d.clock.now();
      }
      armTimer(now);
    } catch (err) {
      log('callback dispatch failed:', err);
    }
  }

  function wake(): void {
    if (!running || scheduled) return;
    scheduled = true;
    queueMicrotask(() => {
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
      stopping.abort();
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
