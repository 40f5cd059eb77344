import type { SandboxExtension } from '../sandbox.js';
import type { Services } from '../services.js';
import { createHttpTransport, fetchTransport } from './callback.transport.js';
import { systemLookup } from './callback-target.guard.js';
import { createDeliveryRepository } from './deliveries.repo.js';
import { deliveryHandlers } from './deliveries.routes.js';
import { createDeliveryService } from './deliveries.service.js';
import { createDispatcher, type AttemptReport, type Dispatcher } from './delivery.dispatcher.js';
import { createDeliveryNotifier } from './delivery.notifier.js';
import { createStreamRegistry, eventStreamHandlers } from './event-stream.js';

type AttemptListener = (r: AttemptReport) => void;

function createCallbacksState(s: Services) {
  const repo = createDeliveryRepository(s.db);
  const notifier = createDeliveryNotifier();
  const attemptListeners = new Set<AttemptListener>();
  const tellAll: AttemptListener = (r) => {
    for (const l of attemptListeners) l(r);
  };
  const state = {
    repo,
    notifier,
    /** Open event streams (`GET /_sandbox/events/stream`), ended when the sandbox stops. */
    streams: createStreamRegistry(),
    /** Hear of every recorded callback attempt (the server's log, the event stream); returns the unsubscribe. */
    onAttempt(listener: AttemptListener): () => void {
      attemptListeners.add(listener);
      return () => attemptListeners.delete(listener);
    },
    /** For the dispatcher: null while nobody listens, so an attempt then costs nothing more. */
    attemptListener: (): AttemptListener | null => (attemptListeners.size ? tellAll : null),
    /** Present while background work runs (`startBackground`); handlers work without it. */
    dispatcher: undefined as Dispatcher | undefined,
    service: createDeliveryService({
      repo,
      clock: s.clock,
      ids: s.ids,
      notifier,
      invoiceById: s.invoiceRepo.byId,
      merchantById: s.identities.merchantById,
      wake: () => state.dispatcher?.wake(),
    }),
  };
  // Each committed outbox event already has its delivery row (written by `outbox.append` in the same
  // transaction); this only makes the dispatcher and the long-polls look now rather than later.
  s.outbox.onAppend(() => {
    notifier.notify();
    state.dispatcher?.wake();
  });
  return state;
}

// One state per sandbox (tests build many in one process), shared by its handlers, start and tick.
const states = new WeakMap<Services, ReturnType<typeof createCallbacksState>>();

/** The callbacks state of a sandbox (its delivery log, and its dispatcher while it runs). */
export function callbacksOf(s: Services) {
  let state = states.get(s);
  if (!state) states.set(s, (state = createCallbacksState(s)));
  return state;
}

/** Callback delivery (docs/design.md#callbacks) and the delivery rows of the control API (docs/design.md#control-api). */
export const callbacksExtension: SandboxExtension = {
  handlers: (s) => {
    const state = callbacksOf(s);
    return { ...deliveryHandlers(state.service), ...eventStreamHandlers({ services: s, onAttempt: state.onAttempt }, state.streams) };
  },
  start: (s, ctx) => {
    const state = callbacksOf(s);
    const nowMs = () => performance.now(); // real milliseconds, for attempt durations only
    const dispatcher = createDispatcher({
      repo: state.repo,
      clock: s.clock,
      config: s.config,
      merchantById: s.identities.merchantById,
      // node:http with keep-alive agents, unless a test injected a fetch (used as given).
      transport: ctx.injectedFetch ? fetchTransport(() => ctx.injectedFetch!, nowMs) : createHttpTransport({ nowMs }),
      lookup: systemLookup,
      onChange: state.notifier.notify,
      onAttempt: state.attemptListener,
      committed: () => {
        const batch = s.writeBatch;
        const settled = batch.settled();
        if (!settled) return null;
        const generation = batch.generation();
        return settled.then(() => batch.failedGeneration() < generation);
      },
    });
    state.dispatcher = dispatcher;
    dispatcher.start();
    return async () => {
      state.dispatcher = undefined;
      state.streams.closeAll();
      state.notifier.close();
      await dispatcher.stop();
    };
  },
  // Due retries run as soon as the sandbox clock says so (every second, and right after an advance).
  tick: (s) => callbacksOf(s).dispatcher?.pump(),
};
