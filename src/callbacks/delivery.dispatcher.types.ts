import type { AppConfig } from '../config.js';
import type { Merchant } from '../identities/identities.api.js';
import type { Clock } from '../shared/clock.js';
import type { CallbackTransport } from './callback.request.js';
import type { Lookup } from './callback-target.guard.js';
import type { DeliveryQueue } from './delivery-queue.repo.js';

// What the callback dispatcher (delivery.dispatcher.ts) is given and what it tells of each attempt.

export const DEFAULT_CONCURRENCY = 8;
export const INTERRUPTED =
  'interrupted: the sandbox stopped during this attempt; the outcome is unknown, so it is sent again';

export interface DispatcherDeps {
  repo: DeliveryQueue;
  /** The sandbox clock (not a tenant's): the dispatcher works for every merchant. */
  clock: Clock;
  /**
   * A tenant's time (src/clock/tenant-clocks.ts): a retry is scheduled on its merchant's workspace clock
   * (docs/design.md#the-clock). Without it, the sandbox clock.
   */
  nowOf?: (workspaceId: string | null | undefined) => number;
  config: Pick<
    AppConfig,
    'retrySchedule' | 'callbackTimeoutMs' | 'blockPrivateCallbacks' | 'internalUrl'
  >;
  merchantById: (id: string) => Merchant | undefined;
  /** Outbound HTTP (node:http with keep-alive in the sandbox, an injected fetch in some tests); closed by `stop`. */
  transport: CallbackTransport;
  lookup: Lookup;
  /** Tell long-polls that deliveries changed. */
  onChange: () => void;
  /**
   * When the writes made so far are in a group commit still open (src/db/unit-of-work.ts): a promise
   * of whether that commit succeeded; null when they are committed already. A claim is sent only once
   * committed, so no callback goes out for an event or a claim that a failed commit took back.
   */
  committed?: () => Promise<boolean> | null;
  /**
   * Told of each retry once it is recorded: its time, on the clock of its merchant's workspace (the due
   * work's guard is lowered to it, src/clock/due-work.ts).
   */
  onRetry?: (workspaceId: string | null | undefined, at: number) => void;
  concurrency?: number;
  log?: (message: string, err?: unknown) => void;
  /**
   * Told of every attempt once it is recorded (the server's log, `GET /_sandbox/events/stream`).
   * Read per batch, so listeners can come and go; null costs nothing per attempt.
   */
  onAttempt?: () => ((report: AttemptReport) => void) | null;
}

/** One recorded attempt, with what a reader needs to tell which callback it was. */
export interface AttemptReport {
  delivery_id: string;
  event_id: string;
  merchant_id: string;
  /** The delivery's stored body (the event), to name the event and invoice without a query. */
  body: string;
  url: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  /** Where the delivery stands after this attempt. */
  status: 'pending' | 'delivered' | 'failed';
  next_attempt_at: number | null;
}
