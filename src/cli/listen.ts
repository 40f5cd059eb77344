import { buildCallbackRequest, createHttpTransport } from '../callbacks/callback.transport.js';
import type { Merchant } from '../identities/identities.api.js';
import type { CliCommand } from './command.types.js';
import type { AttemptMessage } from '../callbacks/event-stream.js';
import { HELP, parseListenArgs, USAGE } from './listen.args.js';
import { openSse, type SseEnd, type SseMessage } from './sse-client.js';
import { unauthorized } from './control-http.js';

const RECONNECT_MS = 2000;

interface ReadyMessage {
  merchant: Pick<Merchant, 'id' | 'name' | 'callback_url' | 'callback_auth' | 'merchant_api_token'>;
  events: string[];
}
interface ResendMessage {
  delivery_id: string;
  kind: 'redelivery' | 'manual';
  event_id: string;
  event: string;
  invoice_id: string;
  merchant_id: string;
  redelivery_of: string | null;
  created_at: string;
  body: string;
}
interface EventMessage {
  id: string;
  name: string;
  invoice_id: string;
  merchant_id: string;
  created_at: string;
  body: string;
}

const clock = () => new Date().toISOString().slice(11, 23);
/** Most sends remembered as forwarded (a long listen forgets the oldest). */
const REMEMBERED = 10_000;

/** A set of keys that keeps only the latest `REMEMBERED`. */
function recentSet() {
  const keys = new Set<string>();
  return {
    has: (key: string) => keys.has(key),
    add(key: string) {
      keys.add(key);
      if (keys.size > REMEMBERED) keys.delete(keys.values().next().value as string);
    },
  };
}

/** A label per key that keeps only the latest `REMEMBERED`. */
function recentLabels() {
  const labels = new Map<string, string>();
  return {
    get: (key: string) => labels.get(key),
    set(key: string, label: string) {
      labels.set(key, label);
      if (labels.size > REMEMBERED) labels.delete(labels.keys().next().value as string);
    },
  };
}

/** The server's error envelope as one sentence. */
function envelopeText(body: string): string {
  try {
    const e = JSON.parse(body) as { errors?: Record<string, string[]> };
    return Object.entries(e.errors ?? {})
      .map(([field, msgs]) =>
        field === 'non_field_errors' ? msgs.join(' ') : `${field}: ${msgs.join(' ')}`,
      )
      .join('; ');
  } catch {
    return body.slice(0, 200);
  }
}

/** `paysandbox listen`: follow a merchant's events and callback attempts live, and forward them locally. */
export async function runListen(
  args: string[],
  env: Record<string, string | undefined>,
  signal: AbortSignal,
): Promise<number> {
  const o = parseListenArgs(args, env);
  const print = (text: string, obj: Record<string, unknown>) =>
    console.log(
      o.json ? JSON.stringify({ at: new Date().toISOString(), ...obj }) : `${clock()}  ${text}`,
    );
  const transport = createHttpTransport({ nowMs: () => performance.now() });
  let merchant: ReadyMessage['merchant'] | undefined;
  // Forwarded one at a time, in the order the sandbox sent them: each send is forwarded on its `attempt`
  // message (the sandbox has just sent it), never before, so a send queued behind a failing one reaches
  // the local URL after it, as it reached the merchant. What the `event` and `resend` messages tell is
  // only the name of the send: events by id (a first delivery), redeliveries and manual sends by
  // delivery id. A first attempt of neither began before listen did (queued behind a failing delivery).
  let forwarding: Promise<void> = Promise.resolve();
  const seenEvents = recentSet();
  const resends = recentLabels();

  /**
   * POST one send of an event to --forward-to, as the sandbox has just sent it (an `attempt` message):
   * a first delivery, a redelivery or manual send, or a retry (with its attempt number).
   */
  const forward = (
    e: { event_id: string; event: string; invoice_id: string; body: string },
    attempt: number,
    why: string,
  ) => {
    if (!o.forwardTo || !merchant) return;
    const target = o.forwardTo;
    const req = buildCallbackRequest(
      { event_id: e.event_id, body: e.body },
      merchant,
      target,
      attempt,
    );
    req.headers['X-Sandbox-Forwarded'] = '1';
    forwarding = forwarding.then(async () => {
      const out = await transport.send(req, o.forwardTimeoutMs);
      const answer = out.statusCode === null ? `failed: ${out.error}` : `[${out.statusCode}]`;
      print(
        `forward  ${e.event.padEnd(42)} invoice=${e.invoice_id} (${why}) → ${target}  ${answer} ${out.durationMs.toFixed(1)} ms`,
        {
          type: 'forward',
          send: why,
          event_id: e.event_id,
          event: e.event,
          invoice_id: e.invoice_id,
          attempt,
          url: target,
          status_code: out.statusCode,
          error: out.error,
          duration_ms: out.durationMs,
        },
      );
    });
  };

  const onMessage = (m: SseMessage) => {
    let data: unknown;
    try {
      data = JSON.parse(m.data);
    } catch {
      return;
    }
    if (m.event === 'ready') {
      const r = data as ReadyMessage;
      merchant = r.merchant;
      const where = o.forwardTo
        ? `forwarding to ${o.forwardTo}`
        : 'not forwarding (--forward-to URL to forward)';
      print(
        `Ready: ${r.merchant.name} (merchant ${r.merchant.id}), events ${r.events.join(', ')}, on ${o.base}; ${where}. ` +
          `The merchant's own callbacks (${r.merchant.callback_url ?? 'no callback_url'}) go on unchanged. Ctrl-C to stop.`,
        {
          type: 'ready',
          merchant_id: r.merchant.id,
          merchant_name: r.merchant.name,
          events: r.events,
          forward_to: o.forwardTo ?? null,
        },
      );
    } else if (m.event === 'event') {
      const e = data as EventMessage;
      print(`event    ${e.name.padEnd(42)} invoice=${e.invoice_id} event_id=${e.id}`, {
        type: 'event',
        event_id: e.id,
        event: e.name,
        invoice_id: e.invoice_id,
        merchant_id: e.merchant_id,
        created_at: e.created_at,
        body: e.body,
      });
      seenEvents.add(e.id);
    } else if (m.event === 'resend') {
      const r = data as ResendMessage;
      const what = r.kind === 'redelivery' ? `redelivery of ${r.redelivery_of}` : 'manual send';
      print(
        `resend   ${r.event.padEnd(42)} invoice=${r.invoice_id} event_id=${r.event_id} (${what})`,
        { type: 'resend', ...r },
      );
      resends.set(r.delivery_id, r.kind === 'redelivery' ? 'redelivery' : 'manual send');
    } else if (m.event === 'attempt') {
      const a = data as AttemptMessage & { body?: string };
      const answer = a.status_code === null ? 'no answer' : `[${a.status_code}]`;
      const next = a.status === 'pending' ? `retry at ${a.next_attempt_at}` : a.status;
      const { body, ...shown } = a;
      print(
        `attempt  ${a.event.padEnd(42)} invoice=${a.invoice_id} → ${a.url}  #${a.attempt} ${answer} ${a.duration_ms.toFixed(1)} ms ${next}${a.error && a.status !== 'delivered' ? ` (${a.error})` : ''}`,
        {
          type: 'attempt',
          ...shown,
        },
      );
      if (body === undefined) return;
      // Every attempt is a send: forwarded now that the sandbox made it, in the order it made them.
      const why =
        a.attempt > 1
          ? `retry #${a.attempt}`
          : (resends.get(a.delivery_id) ??
            (seenEvents.has(a.event_id)
              ? 'first delivery'
              : 'first attempt, queued before listen started'));
      forward({ ...a, body }, a.attempt, why);
    }
  };

  const headers: Record<string, string> = o.token ? { 'X-Sandbox-Token': o.token } : {};
  const url = `${o.base}/_sandbox/events/stream${o.query.size ? `?${o.query}` : ''}`;
  let connectedOnce = false;
  try {
    while (!signal.aborted) {
      merchant = undefined;
      const stream = openSse(url, headers, onMessage);
      const onAbort = () => stream.stop();
      signal.addEventListener('abort', onAbort, { once: true });
      const end: SseEnd = await stream.ended;
      signal.removeEventListener('abort', onAbort);
      if (end.kind === 'stopped') {
        if (!o.json) console.error('paysandbox listen: stopped');
        break;
      }
      const wasReady = merchant !== undefined;
      connectedOnce ||= wasReady;
      if (end.kind === 'refused') {
        const why = envelopeText(end.body);
        if (end.status === 401) console.error(`paysandbox listen: ${unauthorized(o)}`);
        else
          console.error(
            `paysandbox listen: the sandbox at ${o.base} refused the stream (${end.status}): ${why}`,
          );
        return end.status === 400 ? 2 : 1;
      }
      if (!connectedOnce) {
        console.error(
          `paysandbox listen: cannot reach the sandbox at ${o.base} (${end.kind === 'error' ? (end.code ?? end.message) : 'closed'}); is \`paysandbox start\` running? (--url BASE)`,
        );
        return 1;
      }
      // The sandbox went away (restart, stop): wait for it like `stripe listen` does.
      if (wasReady)
        console.error(
          `paysandbox listen: the sandbox closed the stream; reconnecting every ${RECONNECT_MS / 1000} s (Ctrl-C to stop)`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, RECONNECT_MS);
        signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
      });
    }
    // A forward still running is cut by closing the transport: Ctrl-C means now.
    return 0;
  } finally {
    transport.close();
  }
}

export const listenCommand: CliCommand = {
  name: 'listen',
  usage: USAGE,
  summary: "follow a merchant's events and callbacks live, forward them to a local URL",
  help: HELP,
  async run(args, env) {
    const stop = new AbortController();
    // Ctrl-C (and SIGTERM) end the stream and the process cleanly, exit code 0.
    const onSignal = () => stop.abort();
    process.once('SIGINT', onSignal);
    process.once('SIGTERM', onSignal);
    try {
      return await runListen(args, env, stop.signal);
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    }
  },
};
