import { parseDuration } from '../config-flags.js';
import { EVENT_NAMES, type EventName } from '../events/outbox.repo.js';
import { parseCommandArgs, UsageError } from './args.js';
import type { CliCommand } from './command.types.js';
import { ControlError, controlTarget, unauthorized } from './control-http.js';
import type { AttemptMessage } from '../callbacks/event-stream.js';
import { openSse } from './sse-client.js';
import { attemptLine, describeDelivery, waitingForLine, type Delivery } from './trigger.report.js';

const USAGE = 'trigger <event> [--invoice ID] [--url BASE] [--control-token T] [--timeout 30s]';
const HELP = `Usage: paysandbox ${USAGE}

Make an invoice event happen for real on a running sandbox (POST /_sandbox/trigger), print each
callback attempt of the invoice as it happens, and the delivery's outcome.

Events: ${EVENT_NAMES.join(', ')}

Options:
  --invoice ID    an existing invoice (default: a new invoice of the first fixture merchant)
  --url BASE      the sandbox (default http://127.0.0.1:7070, or PAYSANDBOX_URL)
  --control-token T  X-Sandbox-Token, when the sandbox requires one (or SANDBOX_CONTROL_TOKEN; --token too)
  --timeout 30s   how long to wait for the delivery

Exit code 0 when delivered; 1 when it failed, is still retrying at the timeout, or the receiver refuses
connections (it stops at once then), or when the sandbox cannot be reached or refuses; 2 on bad usage.`;
const LONG_POLL_SECONDS = 5;

function control(base: string, token: string | undefined, signal?: AbortSignal) {
  return async <T>(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers['x-sandbox-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal,
      });
    } catch (err) {
      if (signal?.aborted) throw err;
      const cause =
        (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new ControlError(
        `cannot reach the sandbox at ${base} (${cause}); is \`paysandbox start\` running? (--url BASE)`,
      );
    }
    if (res.status === 401) throw new ControlError(unauthorized({ base, token }), 401);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: shown as is
    }
    return { status: res.status, body: parsed as T };
  };
}

/** The receiver is not there at all: waiting for retries will not help (ECONNREFUSED, no such host). */
const UNREACHABLE = /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)\b/;

/**
 * `paysandbox trigger <event>`: make the event happen on a running sandbox (POST /_sandbox/trigger),
 * print each callback attempt of its invoice as it happens (the event stream), wait for its delivery
 * and print the outcome. Exit code 0 when delivered, 1 when it failed, is still retrying at the
 * timeout or the receiver refuses connections, 2 on bad usage.
 */
export const triggerCommand: CliCommand = {
  name: 'trigger',
  usage: USAGE,
  summary: 'make an invoice event happen on a running sandbox and wait for its callback',
  help: HELP,
  async run(args, env) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        invoice: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        'control-token': { type: 'string' },
        timeout: { type: 'string' },
      },
      { positionals: true },
    );
    const v = values as {
      invoice?: string;
      url?: string;
      token?: string;
      'control-token'?: string;
      timeout?: string;
    };
    const given = positionals[0] as EventName | undefined;
    if (!given) throw new UsageError(`which event? one of: ${EVENT_NAMES.join(', ')}`);
    if (!EVENT_NAMES.includes(given))
      throw new UsageError(`unknown event "${given}"; known events: ${EVENT_NAMES.join(', ')}`);
    const event: EventName = given;
    if (positionals.length > 1)
      throw new UsageError(`one event at a time (got ${positionals.join(' ')})`);
    let timeoutS: number;
    try {
      timeoutS = parseDuration(v.timeout ?? '30s');
    } catch (err) {
      throw new UsageError(`--timeout: ${(err as Error).message}`);
    }
    const { base, token } = controlTarget(v, env);
    const stopWaiting = new AbortController();
    const call = control(base, token);
    const poll = control(base, token, stopWaiting.signal);
    const deadline = performance.now() + timeoutS * 1000;
    const remaining = () => Math.max(0, deadline - performance.now());

    const list = async (query: string, via = call) => {
      const res = await via<{ deliveries: Delivery[] }>('GET', `/_sandbox/deliveries?${query}`);
      if (res.status !== 200)
        throw new Error(
          `GET /_sandbox/deliveries answered ${res.status}: ${JSON.stringify(res.body)}`,
        );
      return res.body.deliveries;
    };
    // Deliveries of this event that existed before (e.g. an earlier partial payment): not ours.
    const known = new Set<string>();
    if (v.invoice) {
      for (const d of await list(
        new URLSearchParams({ invoice_id: v.invoice, event, per_page: '100' }).toString(),
      ))
        known.add(d.id);
    }

    // Attempts as they happen: the invoice's stream (or the first merchant's, filtered once the new
    // invoice's id is known). Without it (an older sandbox) the outcome still comes from the log.
    let invoiceId: string | undefined = v.invoice;
    const early: AttemptMessage[] = [];
    /** The first attempt that found nobody listening: where, and why (ECONNREFUSED …). */
    let unreachable: { url: string; code: string } | undefined;
    const show = (a: AttemptMessage) => {
      if (a.invoice_id !== invoiceId) return;
      console.log(attemptLine(a));
      // Our delivery ended: the long-poll (which waits for `delivered` only) need not run to its end.
      if (
        a.event === event &&
        !known.has(a.delivery_id) &&
        (a.status === 'delivered' || a.status === 'failed')
      )
        stopWaiting.abort();
      const refused = a.status_code === null && a.error ? UNREACHABLE.exec(a.error) : null;
      if (refused?.[1] && !unreachable) {
        unreachable = { url: a.url, code: refused[1] };
        stopWaiting.abort();
      }
    };
    const streamQuery = v.invoice ? `?${new URLSearchParams({ invoice_id: v.invoice })}` : '';
    const headers: Record<string, string> = token ? { 'X-Sandbox-Token': token } : {};
    let ready!: () => void;
    const isReady = new Promise<void>((r) => (ready = r));
    const stream = openSse(`${base}/_sandbox/events/stream${streamQuery}`, headers, (m) => {
      if (m.event === 'ready') ready();
      if (m.event !== 'attempt') return;
      const a = JSON.parse(m.data) as AttemptMessage;
      if (invoiceId === undefined) early.push(a);
      else show(a);
    });
    void stream.ended.then(() => ready());
    await Promise.race([isReady, new Promise((r) => setTimeout(r, 2000))]);

    try {
      return await outcome();
    } finally {
      stream.stop();
    }

    async function outcome(): Promise<number> {
      const trig = await call<{ invoice: { id: string; status: string; amount_received: string } }>(
        'POST',
        '/_sandbox/trigger',
        {
          event,
          ...(v.invoice ? { invoice_id: v.invoice } : {}),
        },
      );
      if (trig.status !== 201) {
        console.error(`trigger refused (${trig.status}): ${JSON.stringify(trig.body)}`);
        return 1;
      }
      const invoice = trig.body.invoice;
      console.log(
        `${event} on invoice ${invoice.id} (status ${invoice.status}, amount_received ${invoice.amount_received})`,
      );
      invoiceId = invoice.id;
      for (const a of early.splice(0)) show(a);

      const filter = new URLSearchParams({ invoice_id: invoice.id, event, per_page: '100' });
      const delivered = new URLSearchParams({
        invoice_id: invoice.id,
        event,
        status: 'delivered',
        per_page: '100',
      });
      let ours: Delivery | undefined;
      for (;;) {
        ours = (await list(filter.toString())).find((d) => !known.has(d.id));
        if (ours && (ours.status === 'delivered' || ours.status === 'failed')) break;
        if (remaining() <= 0 || unreachable) break;
        const wait = Math.max(1, Math.min(LONG_POLL_SECONDS, Math.floor(remaining() / 1000)));
        const before = performance.now();
        delivered.set('wait', String(wait));
        try {
          await list(delivered.toString(), poll);
        } catch (err) {
          if (!stopWaiting.signal.aborted) throw err;
        }
        // An older delivered one of the same event answers the long-poll at once: pace the loop then.
        if (performance.now() - before < 200 && !unreachable)
          await new Promise((r) => setTimeout(r, 200));
      }
      if (!ours) {
        console.error('no delivery was created for this event (is the callbacks module running?)');
        return 1;
      }
      const full = await call<{ delivery: Delivery }>('GET', `/_sandbox/deliveries/${ours.id}`);
      const d = full.status === 200 ? full.body.delivery : ours;
      console.log(describeDelivery(d));
      if (d.status === 'delivered') return 0;
      if (d.status === 'failed') return 1;
      if (unreachable) {
        console.log(
          `stopped waiting: the receiver at ${unreachable.url} refuses connections (${unreachable.code}); ` +
            `is it running? The sandbox keeps retrying (GET ${base}/_sandbox/deliveries/${d.id})`,
        );
        return 1;
      }
      // Callbacks of one invoice go out in order: name the earlier ones this one is waiting for.
      const earlier = (
        await list(new URLSearchParams({ invoice_id: invoice.id, per_page: '100' }).toString())
      ).filter(
        (x) =>
          x.id !== d.id &&
          (x.status === 'pending' || x.status === 'delivering') &&
          x.created_at < d.created_at,
      );
      for (const x of earlier) console.log(waitingForLine(x));
      console.log(
        `still ${d.status} at the timeout; it keeps retrying in the sandbox (GET ${base}/_sandbox/deliveries/${d.id})`,
      );
      return 1;
    }
  },
};
