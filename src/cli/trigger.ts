import { parseArgs } from 'node:util';
import { parseDuration } from '../config.js';
import { EVENT_NAMES, type EventName } from '../events/outbox.repo.js';
import type { CliCommand } from './commands.js';

interface Delivery {
  id: string;
  event: EventName;
  created_at: string;
  status: 'pending' | 'delivering' | 'delivered' | 'failed';
  url: string | null;
  attempts_count: number;
  next_attempt_at: string | null;
  last_error: string | null;
  attempts?: Array<{ attempt: number; status_code: number | null; duration_ms: number; response_excerpt: string | null; error: string | null }>;
}

const USAGE = 'trigger <event> [--invoice ID] [--url BASE] [--token T] [--timeout 30s]';
const LONG_POLL_SECONDS = 5;

function control(base: string, token: string | undefined) {
  return async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers['x-sandbox-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (err) {
      const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new Error(`cannot reach the sandbox at ${base} (${cause}); is \`paysandbox start\` running? (--url BASE)`);
    }
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

function describe(d: Delivery): string {
  const lines = [`delivery ${d.id} ${d.status} after ${d.attempts_count} attempt(s) to ${d.url ?? '(no callback_url)'}`];
  for (const a of d.attempts ?? []) {
    const answer = a.status_code !== null ? `${a.status_code}` : 'no answer';
    const said = a.response_excerpt ? `  receiver answered: ${a.response_excerpt.replace(/\s+/g, ' ').slice(0, 200)}` : '';
    lines.push(`  attempt ${a.attempt}  ${answer}  ${a.duration_ms.toFixed(1)} ms${a.error ? `  ${a.error}` : ''}${said}`);
  }
  if (d.status !== 'delivered' && d.last_error) lines.push(`  last error: ${d.last_error}`);
  if (d.status === 'pending' && d.next_attempt_at && d.attempts_count > 0) lines.push(`  next attempt at ${d.next_attempt_at} (sandbox clock)`);
  return lines.join('\n');
}

/**
 * `paysandbox trigger <event>`: make the event happen on a running sandbox (POST /_sandbox/trigger),
 * wait for its callback delivery (long-polling the delivery log) and print the outcome.
 * Exit code 0 when delivered, 1 when it failed or is still retrying at the timeout, 2 on bad usage.
 */
export const triggerCommand: CliCommand = {
  name: 'trigger',
  usage: USAGE,
  summary: 'make an invoice event happen on a running sandbox and wait for its callback',
  async run(args, env) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: { invoice: { type: 'string' }, url: { type: 'string' }, token: { type: 'string' }, timeout: { type: 'string' } },
    });
    const event = positionals[0] as EventName | undefined;
    if (!event || !EVENT_NAMES.includes(event)) {
      console.error(`usage: paysandbox ${USAGE}\n  events: ${EVENT_NAMES.join(', ')}`);
      return 2;
    }
    const base = (values.url ?? env.PAYSANDBOX_URL ?? `http://127.0.0.1:${env.PAYSANDBOX_PORT ?? 7070}`).replace(/\/+$/, '');
    const call = control(base, values.token ?? env.SANDBOX_CONTROL_TOKEN);
    const deadline = performance.now() + parseDuration(values.timeout ?? '30s') * 1000;
    const remaining = () => Math.max(0, deadline - performance.now());

    const list = async (query: string) => {
      const res = await call<{ deliveries: Delivery[] }>('GET', `/_sandbox/deliveries?${query}`);
      if (res.status !== 200) throw new Error(`GET /_sandbox/deliveries answered ${res.status}: ${JSON.stringify(res.body)}`);
      return res.body.deliveries;
    };
    // Deliveries of this event that existed before (e.g. an earlier partial payment): not ours.
    const known = new Set<string>();
    if (values.invoice) {
      for (const d of await list(new URLSearchParams({ invoice_id: values.invoice, event, per_page: '100' }).toString())) known.add(d.id);
    }

    const trig = await call<{ invoice: { id: string; status: string; amount_received: string } }>('POST', '/_sandbox/trigger', {
      event,
      ...(values.invoice ? { invoice_id: values.invoice } : {}),
    });
    if (trig.status !== 201) {
      console.error(`trigger refused (${trig.status}): ${JSON.stringify(trig.body)}`);
      return 1;
    }
    const invoice = trig.body.invoice;
    console.log(`${event} on invoice ${invoice.id} (status ${invoice.status}, amount_received ${invoice.amount_received})`);

    const filter = new URLSearchParams({ invoice_id: invoice.id, event, per_page: '100' });
    const delivered = new URLSearchParams({ invoice_id: invoice.id, event, status: 'delivered', per_page: '100' });
    let ours: Delivery | undefined;
    for (;;) {
      ours = (await list(filter.toString())).find((d) => !known.has(d.id));
      if (ours && (ours.status === 'delivered' || ours.status === 'failed')) break;
      if (remaining() <= 0) break;
      const wait = Math.max(1, Math.min(LONG_POLL_SECONDS, Math.floor(remaining() / 1000)));
      const before = performance.now();
      delivered.set('wait', String(wait));
      await list(delivered.toString());
      // An older delivered one of the same event answers the long-poll at once: pace the loop then.
      if (performance.now() - before < 200) await new Promise((r) => setTimeout(r, 200));
    }
    if (!ours) {
      console.error('no delivery was created for this event (is the callbacks module running?)');
      return 1;
    }
    const full = await call<{ delivery: Delivery }>('GET', `/_sandbox/deliveries/${ours.id}`);
    const d = full.status === 200 ? full.body.delivery : ours;
    console.log(describe(d));
    if (d.status === 'delivered') return 0;
    if (d.status === 'failed') return 1;
    // Callbacks of one invoice go out in order: name the earlier ones this one is waiting for.
    const earlier = (await list(new URLSearchParams({ invoice_id: invoice.id, per_page: '100' }).toString())).filter(
      (x) => x.id !== d.id && (x.status === 'pending' || x.status === 'delivering') && x.created_at < d.created_at,
    );
    for (const x of earlier) {
      console.log(`  waiting for the earlier ${x.event} (delivery ${x.id}, ${x.status}, ${x.attempts_count} attempt(s)${x.last_error ? `: ${x.last_error}` : ''})`);
    }
    console.log(`still ${d.status} at the timeout; it keeps retrying in the sandbox (GET ${base}/_sandbox/deliveries/${d.id})`);
    return 1;
  },
};
