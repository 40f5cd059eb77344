import { EVENT_NAMES, type EventName, type OutboxEventRow } from '../events/outbox.repo.js';
import { ApiError } from '../shared/api-error.js';
import type { Handlers } from '../http/operation.js';
import type { Merchant } from '../identities/identities.api.js';
import type { ServicesWith } from '../module.types.js';
import { formatTimestamp } from '../shared/clock.js';
import type { DeliveryRow } from './deliveries.repo.js';
import type { AttemptReport } from './delivery.dispatcher.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'invoices'>;

/** Real seconds between heartbeats: proxies and clients drop a stream that stays silent too long. */
export const HEARTBEAT_MS = 15_000;

/** What an attempt report says about its event (the stored body names the event and the invoice). */
export function attemptEvent(r: AttemptReport): { name: string; invoice_id: string } {
  try {
    const body = JSON.parse(r.body) as { event?: { name?: string; data?: { id?: string } } };
    return { name: body.event?.name ?? 'unknown', invoice_id: body.event?.data?.id ?? '' };
  } catch {
    return { name: 'unknown', invoice_id: '' };
  }
}

/** The `attempt` message of the stream (also what `paysandbox start --log-format json` prints). */
export function attemptMessage(r: AttemptReport) {
  const e = attemptEvent(r);
  return {
    delivery_id: r.delivery_id,
    event_id: r.event_id,
    event: e.name,
    invoice_id: e.invoice_id,
    merchant_id: r.merchant_id,
    url: r.url,
    attempt: r.attempt,
    status_code: r.status_code,
    error: r.error,
    duration_ms: r.duration_ms,
    status: r.status,
    next_attempt_at: r.next_attempt_at === null ? null : formatTimestamp(r.next_attempt_at),
  };
}

/** One `attempt` message as a client reads it (`paysandbox listen` and `trigger` alike). */
export type AttemptMessage = ReturnType<typeof attemptMessage>;

function eventMessage(e: OutboxEventRow) {
  return {
    id: e.id,
    name: e.name,
    invoice_id: e.invoice_id,
    merchant_id: e.merchant_id,
    created_at: formatTimestamp(e.created_at),
    body: e.payload,
  };
}

function merchantMessage(m: Merchant) {
  return {
    id: m.id,
    name: m.name,
    callback_url: m.callback_url,
    callback_auth: m.callback_auth,
    // Control callers may read tokens anyway (listMerchants); `listen` needs it to forward as the sandbox sends.
    merchant_api_token: m.merchant_api_token,
  };
}

export interface EventStreamDeps {
  services: ModuleServices;
  /** Subscribe to recorded delivery attempts; returns the unsubscribe function. */
  onAttempt: (listener: (r: AttemptReport) => void) => () => void;
  /** Subscribe to redeliveries and manual sends (committed); returns the unsubscribe function. */
  onResend: (listener: (d: DeliveryRow, kind: 'redelivery' | 'manual') => void) => () => void;
}

/** The `resend` message: a delivery sent on demand, with the body it sends (so `listen` can forward it). */
function resendMessage(d: DeliveryRow, kind: 'redelivery' | 'manual') {
  return {
    delivery_id: d.id,
    kind,
    event_id: d.event_id,
    event: d.event,
    invoice_id: d.invoice_id,
    merchant_id: d.merchant_id,
    redelivery_of: d.redelivery_of,
    created_at: formatTimestamp(d.created_at),
    body: d.body,
  };
}

/** Open streams, so a closing sandbox can end them with a last message rather than a cut connection. */
export function createStreamRegistry() {
  const open = new Set<() => void>();
  return {
    add: (end: () => void) => open.add(end),
    delete: (end: () => void) => open.delete(end),
    closeAll(): void {
      for (const end of [...open]) end();
    },
  };
}

export type StreamRegistry = ReturnType<typeof createStreamRegistry>;

function chooseMerchant(s: ModuleServices, query: Record<string, unknown>): Merchant {
  const merchantId = query.merchant_id as string | undefined;
  const workspaceId = query.workspace_id as string | undefined;
  const invoiceId = query.invoice_id as string | undefined;
  if ([merchantId, workspaceId, invoiceId].filter(Boolean).length > 1) {
    throw ApiError.general(
      'validation_error',
      'Give one of merchant_id, workspace_id and invoice_id.',
    );
  }
  if (invoiceId) {
    const inv = s.invoices.byId(invoiceId);
    const m = inv && s.identities.merchantById(inv.merchant_id);
    if (!m) throw new ApiError('validation_error', { invoice_id: ['No invoice with this id.'] });
    return m;
  }
  if (workspaceId) {
    const m = s.identities.merchantOfWorkspace(workspaceId);
    if (!m)
      throw new ApiError('validation_error', { workspace_id: ['No live workspace with this id.'] });
    return m;
  }
  if (merchantId) {
    const m = s.identities.merchantById(merchantId);
    if (!m) throw new ApiError('validation_error', { merchant_id: ['No merchant with this id.'] });
    return m;
  }
  const first = s.identities.firstMerchant();
  if (!first)
    throw ApiError.general('validation_error', 'There is no merchant to stream the events of.');
  return first;
}

function chooseEvents(query: Record<string, unknown>): Set<string> {
  const raw = query.events as string | undefined;
  if (!raw) return new Set(EVENT_NAMES);
  const names = raw
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !EVENT_NAMES.includes(n as EventName));
  if (unknown.length)
    throw new ApiError('validation_error', {
      events: [
        `Unknown event ${unknown.map((u) => `"${u}"`).join(', ')}; known: ${EVENT_NAMES.join(', ')}.`,
      ],
    });
  return new Set(names);
}

/**
 * `GET /_sandbox/events/stream` (streamEvents): server-sent events for one merchant (or one invoice) — `ready` first,
 * then one `event` per outbox event as it commits, one `resend` per redelivery or manual send as it
 * commits, and one `attempt` per callback attempt as it is recorded, a comment line every 15 s, and `close` when the sandbox stops. Nothing is replayed: a
 * client sees what happens while it listens (the delivery log has the past).
 */
export function eventStreamHandlers(d: EventStreamDeps, registry: StreamRegistry): Handlers {
  const s = d.services;
  return {
    streamEvents: ({ c, query }) => {
      if (!(c.req.header('accept') ?? '').includes('text/event-stream')) {
        throw ApiError.general(
          'not_acceptable',
          'This is a server-sent event stream: send Accept: text/event-stream.',
        );
      }
      const merchant = chooseMerchant(s, query);
      const events = chooseEvents(query);
      const invoiceId = (query.invoice_id as string | undefined) ?? null;
      const encoder = new TextEncoder();
      let end: () => void = () => undefined;
      let stop: () => void = () => undefined;

      const stream = new ReadableStream<Uint8Array>({
        start(controller) {
          let ended = false;
          const write = (text: string) => {
            if (ended) return;
            try {
              controller.enqueue(encoder.encode(text));
            } catch {
              stop(); // the client is gone
            }
          };
          const send = (type: string, data: unknown, id?: string) =>
            write(`${id ? `id: ${id}\n` : ''}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
          const offEvent = s.outbox.onAppend((e) => {
            if (e.merchant_id !== merchant.id || !events.has(e.name)) return;
            if (invoiceId === null || e.invoice_id === invoiceId)
              send('event', eventMessage(e), e.id);
          });
          const offAttempt = d.onAttempt((r) => {
            if (r.merchant_id !== merchant.id) return;
            const m = attemptMessage(r);
            // The body too: a client forwards a retry (attempt 2 and later) as the sandbox sent it.
            if (events.has(m.event) && (invoiceId === null || m.invoice_id === invoiceId))
              send('attempt', { ...m, body: r.body });
          });
          const offResend = d.onResend((row, kind) => {
            if (row.merchant_id !== merchant.id || !events.has(row.event)) return;
            if (invoiceId === null || row.invoice_id === invoiceId)
              send('resend', resendMessage(row, kind), row.event_id);
          });
          const heartbeat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
          heartbeat.unref();
          stop = () => {
            if (ended) return;
            ended = true;
            clearInterval(heartbeat);
            offEvent();
            offAttempt();
            offResend();
            registry.delete(end);
            c.req.raw.signal.removeEventListener('abort', stop);
          };
          end = () => {
            send('close', { reason: 'the sandbox is stopping' });
            stop();
            try {
              controller.close();
            } catch {
              // already closed by the client
            }
          };
          registry.add(end);
          c.req.raw.signal.addEventListener('abort', stop, { once: true });
          write('retry: 2000\n\n');
          send('ready', {
            merchant: merchantMessage(merchant),
            events: [...events],
            invoice_id: invoiceId,
          });
        },
        // The client went away (the server cancels the body): the same clean-up as an abort.
        cancel() {
          stop();
        },
      });
      return new Response(stream, {
        status: 200,
        headers: {
          'Content-Type': 'text/event-stream; charset=utf-8',
          'Cache-Control': 'no-cache',
          'X-Accel-Buffering': 'no',
        },
      });
    },
  };
}
