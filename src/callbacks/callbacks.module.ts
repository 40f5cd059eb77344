import type { SandboxModule } from '../module.types.js';
import type { ServicesWith } from '../module.types.js';
import { createHttpTransport, fetchTransport } from './callback.transport.js';
import { systemLookup } from './callback-target.guard.js';
import { createDeliveryRepository, type DeliveryRow } from './deliveries.repo.js';
import { createDeliveryQueue } from './delivery-queue.repo.js';
import { createInbox, inboxHandlers } from './inbox.js';
import { registerThankYouPage } from './thank-you.page.js';
import { deliveryHandlers } from './deliveries.routes.js';
import { createDeliveryService } from './deliveries.service.js';
import { createDispatcher, type AttemptReport, type Dispatcher } from './delivery.dispatcher.js';
import { createDeliveryNotifier } from './delivery.notifier.js';
import { createStreamRegistry, eventStreamHandlers } from './event-stream.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'invoices'>;

type AttemptListener = (r: AttemptReport) => void;
/** Told of a delivery sent on demand (a redelivery or a manual send), after its row is committed. */
export type ResendListener = (delivery: DeliveryRow, kind: 'redelivery' | 'manual') => void;

export interface CallbacksDeps {
  services: ModuleServices;
  /** The fetch a test injected (`SandboxOptions.fetch`); without it callbacks go out over node:http. */
  injectedFetch?: typeof fetch;
  /** Pending deliveries written with events so far (event-delivery.writer.ts); without it every commit wakes the dispatcher. */
  pendingWritten?: () => number;
}

/** Callback delivery (docs/design.md#callbacks) and the delivery rows of the control API (docs/design.md#control-api). */
export function createCallbacksModule({
  services: s,
  injectedFetch,
  pendingWritten,
}: CallbacksDeps) {
  const repo = createDeliveryRepository(s.db);
  const queue = createDeliveryQueue(s.db);
  const notifier = createDeliveryNotifier({ maxWaiters: s.config.maxWaiters });
  const attemptListeners = new Set<AttemptListener>();
  const resendListeners = new Set<ResendListener>();
  const tellResend: ResendListener = (row, kind) => {
    for (const l of resendListeners) l(row, kind);
  };
  /** Run `fn` once the writes made so far are committed (never when their commit failed). */
  const afterCommit = (fn: () => void) => {
    const batch = s.writeBatch;
    const settled = batch.settled();
    if (!settled) return fn();
    const generation = batch.generation();
    void settled.then(() => {
      if (batch.failedGeneration() < generation) fn();
    });
  };
  const tellAll: AttemptListener = (r) => {
    for (const l of attemptListeners) l(r);
  };
  /** Present while background work runs (`start`); handlers work without it. */
  let dispatcher: Dispatcher | undefined;
  const service = createDeliveryService({
    repo,
    clock: s.clock,
    ids: s.ids,
    notifier,
    invoiceById: s.invoices.find,
    merchantById: s.identities.merchantById,
    nowOf: s.tenants.nowOf,
    wake: () => dispatcher?.wake(),
    retrySchedule: s.config.retrySchedule,
    internalUrl: () => s.config.internalUrl,
    onResend: (row, kind) => afterCommit(() => tellResend(row, kind)),
  });
  const inbox = createInbox({
    nowOf: s.tenants.nowOf,
    merchantById: s.identities.merchantById,
    knownEvent: repo.hasEvent,
    invoiceMerchantOf: (id) => s.invoices.find(id)?.merchant_id,
  });
  const api = {
    service,
    /** Open event streams (`GET /_sandbox/events/stream`), ended when the sandbox stops. */
    streams: createStreamRegistry(),
    /** Hear of every recorded callback attempt (the server's log, the event stream); returns the unsubscribe. */
    onAttempt(listener: AttemptListener): () => void {
      attemptListeners.add(listener);
      return () => attemptListeners.delete(listener);
    },
    /** Hear of every redelivery and manual send once committed (the event stream); returns the unsubscribe. */
    onResend(listener: ResendListener): () => void {
      resendListeners.add(listener);
      return () => resendListeners.delete(listener);
    },
    /** The built-in example receiver (`/_sandbox/inbox`). */
    inbox,
    /** For the dispatcher: null while nobody listens, so an attempt then costs nothing more. */
    attemptListener: (): AttemptListener | null => (attemptListeners.size ? tellAll : null),
    /** Open long-polls of the delivery list, the change version, and how many shared checks ran. */
    waiters: () => notifier.stats(),
    /** Callbacks being sent right now (0 while background work is stopped). */
    inFlight: (): number => dispatcher?.inFlight() ?? 0,
  };
  // Each committed outbox event already has its delivery row (written by `outbox.append` in the same
  // transaction); this only makes the dispatcher and the long-polls look now rather than later.
  // Events whose deliveries were all failed at once (a merchant with no callback URL) give the
  // dispatcher nothing to send: it is not woken for them (its due query costs ~4% of such a create).
  let pendingSeen = -1;
  s.outbox.onAppend(() => {
    notifier.notify();
    if (pendingWritten) {
      const written = pendingWritten();
      if (written === pendingSeen) return;
      pendingSeen = written;
    }
    dispatcher?.wake();
  });

  // Callback retries as due work (src/clock/due-work.ts): sent as soon as their merchant's clock says so,
  // before the first request after that, every second, right after a clock move (and on the
  // dispatcher's own timer). The job only wakes the dispatcher: `pump` claims what is due and starts
  // its requests, synchronously; their answers come later and wake it again.
  // A delivery already due when the job last pumped is the dispatcher's (claimed, or waiting for a slot
  // or for an earlier delivery of its invoice, whose end wakes it): the guard counts only later ones.
  let pumpedAt = 0;
  s.dueWork.register({
    name: 'callbacks.retries',
    run() {
      if (!dispatcher) return;
      pumpedAt = s.tenants.sandbox.now();
      dispatcher.pump();
    },
    earliest: (ws) =>
      dispatcher ? queue.nextPendingAfter(pumpedAt + s.tenants.offsetOf(ws), ws) : null,
  });

  return {
    handlers: {
      ...deliveryHandlers(service),
      ...inboxHandlers(inbox),
      ...eventStreamHandlers(
        { services: s, onAttempt: api.onAttempt, onResend: api.onResend },
        api.streams,
      ),
    },
    routes: (app) =>
      registerThankYouPage(app, {
        merchantById: s.identities.merchantById,
        invoiceById: s.invoices.find,
        inbox,
      }),
    start: () => {
      const nowMs = () => performance.now(); // real milliseconds, for attempt durations only
      const running = createDispatcher({
        repo: queue,
        // Background work of every merchant: the sandbox clock, each retry on its merchant's workspace clock.
        clock: s.tenants.sandbox,
        nowOf: s.tenants.nowOf,
        config: s.config,
        merchantById: s.identities.merchantById,
        // node:http with keep-alive agents, unless a test injected a fetch (used as given).
        transport: injectedFetch
          ? fetchTransport(() => injectedFetch, nowMs)
          : createHttpTransport({ nowMs }),
        lookup: systemLookup,
        onChange: notifier.notify,
        onAttempt: api.attemptListener,
        // A retry is due at its time on its merchant's workspace clock: the due work's guard learns of it.
        onRetry: (workspaceId, at) => s.tenants.within(workspaceId, () => s.dueWork.expect(at)),
        committed: () => {
          const batch = s.writeBatch;
          const settled = batch.settled();
          if (!settled) return null;
          const generation = batch.generation();
          return settled.then(() => batch.failedGeneration() < generation);
        },
      });
      dispatcher = running;
      running.start();
      // Retries already waiting count for the guard from now on.
      s.dueWork.invalidate();
      return async () => {
        dispatcher = undefined;
        api.streams.closeAll();
        notifier.close();
        await running.stop();
      };
    },
    api,
  } satisfies SandboxModule<unknown>;
}

export type CallbacksApi = ReturnType<typeof createCallbacksModule>['api'];
