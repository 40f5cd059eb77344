import { parseCommandArgs, UsageError } from './args.js';
import type { CliCommand } from './command.types.js';
import {
  CONTROL_HELP,
  CONTROL_OPTIONS,
  controlClient,
  controlTarget,
  runControl,
} from './control-http.js';
import { EVENT_NAMES, type EventName } from '../events/outbox.repo.js';
import { MAX_PAGE_SIZE, pageMeta, type PageMeta } from '../shared/pagination.js';

const STATUSES = ['pending', 'delivering', 'delivered', 'failed'] as const;
const USAGE =
  'deliveries [resend ID] [--invoice ID] [--status S] [--event E] [--limit N | --all] [--json]';
const HELP = `Usage: paysandbox deliveries [--invoice ID] [--status S] [--event E] [--limit N | --all] [--json]
       paysandbox deliveries resend ID [--json]

List the callback deliveries of a running sandbox, newest first (GET /_sandbox/deliveries): event,
invoice, status, attempts, URL, and why a pending one waits or why a failed one failed. \`resend ID\`
sends a delivery's event again as a new delivery (POST /_sandbox/deliveries/{id}/redeliver; the same
X-Sandbox-Event-Id, and \`paysandbox listen\` forwards it).

Options:
  --invoice ID            only this invoice's deliveries
  --status S              only ${STATUSES.join(', ')}
  --event E               only this event (${EVENT_NAMES.join(', ')})
  --limit N               at most N (default 20; above ${MAX_PAGE_SIZE}, read page by page)
  --all                   every matching delivery (page by page)
${CONTROL_HELP}

Exit code 0 on success, 1 when the sandbox cannot be reached or refuses, 2 on bad usage.`;

const OPTIONS = {
  ...CONTROL_OPTIONS,
  invoice: { type: 'string' },
  status: { type: 'string' },
  event: { type: 'string' },
  limit: { type: 'string' },
  all: { type: 'boolean' },
} as const;

const DEFAULT_LIMIT = 20;

interface Delivery {
  id: string;
  event: string;
  invoice_id: string;
  url: string | null;
  status: string;
  attempts_count: number;
  created_at: string;
  last_error: string | null;
  kind?: string;
  redelivery_of: string | null;
  waiting_reason?: string | null;
}

/** One line per delivery, and the reason it waits (or failed) beneath it. */
export function deliveryLine(d: Delivery): string {
  const kind = d.redelivery_of
    ? ` redelivery of ${d.redelivery_of}`
    : d.kind === 'manual'
      ? ' manual send'
      : '';
  const head = `${d.id}  ${d.event.padEnd(42)} invoice=${d.invoice_id}  ${d.status.padEnd(10)} ${d.attempts_count} attempt(s)  ${d.url ?? '(no callback_url)'}${kind}`;
  const why = d.waiting_reason ?? (d.status === 'failed' ? d.last_error : null);
  return why ? `${head}\n    ${why}` : head;
}

type ControlCall = ReturnType<typeof controlClient>;

/**
 * Up to `limit` deliveries (newest first), read a page of at most 100 at a time as the control API pages
 * them (`page`/`per_page`, until `next_page` is null). Deliveries made while it reads push older ones onto
 * later pages, so one seen twice is listed once. The answer has the API's shape, as one page of
 * `limit` (`--all`: of everything read) would be: `{deliveries, meta}`.
 */
export async function listDeliveries(
  call: ControlCall,
  filters: URLSearchParams,
  limit: number,
): Promise<{ deliveries: Delivery[]; meta: PageMeta }> {
  const perPage = Math.min(limit, MAX_PAGE_SIZE);
  const seen = new Set<string>();
  const deliveries: Delivery[] = [];
  let meta: PageMeta | undefined;
  for (let n: number | null = 1; n !== null && deliveries.length < limit; n = meta.next_page) {
    const q = new URLSearchParams(filters);
    q.set('per_page', String(perPage));
    if (n > 1) q.set('page', String(n));
    const page: { deliveries: Delivery[]; meta: PageMeta } = await call(
      'GET',
      `/_sandbox/deliveries?${q}`,
    );
    meta = page.meta;
    for (const d of page.deliveries) {
      if (deliveries.length >= limit) break;
      if (seen.has(d.id)) continue;
      seen.add(d.id);
      deliveries.push(d);
    }
  }
  const total = meta?.total_count ?? 0;
  // One read: the API's own meta. Several: as one page of `limit` would say (page 1, is there more).
  if (meta && limit <= MAX_PAGE_SIZE) return { deliveries, meta };
  const size = Number.isFinite(limit) ? limit : Math.max(deliveries.length, 1);
  return { deliveries, meta: pageMeta({ page: 1, perPage: size, limit: size, offset: 0 }, total) };
}

async function run(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, { positionals: true });
  const v = values as {
    invoice?: string;
    status?: string;
    event?: string;
    limit?: string;
    all?: boolean;
    json?: boolean;
    url?: string;
    'control-token'?: string;
    token?: string;
  };
  const call = controlClient(controlTarget(v, env));
  if (positionals[0] === 'resend') {
    const id = positionals[1];
    if (!id || positionals.length > 2)
      throw new UsageError(
        'resend takes one delivery id: paysandbox deliveries resend <delivery id>',
      );
    const { delivery } = await call<{ delivery: Delivery }>(
      'POST',
      `/_sandbox/deliveries/${encodeURIComponent(id)}/redeliver`,
    );
    if (v.json) console.log(JSON.stringify({ delivery }));
    else
      console.log(
        `queued ${delivery.id}: ${delivery.event} of invoice ${delivery.invoice_id} again (redelivery of ${id}, the same event id) to ${delivery.url ?? '(no callback_url)'}`,
      );
    return 0;
  }
  if (positionals.length)
    throw new UsageError(`unexpected argument "${positionals[0]}" (the sub-command is resend)`);
  if (v.status !== undefined && !STATUSES.includes(v.status as (typeof STATUSES)[number])) {
    throw new UsageError(`--status must be one of ${STATUSES.join(', ')}, got "${v.status}"`);
  }
  if (v.event !== undefined && !EVENT_NAMES.includes(v.event as EventName))
    throw new UsageError(`unknown event "${v.event}"; known events: ${EVENT_NAMES.join(', ')}`);
  if (v.all && v.limit !== undefined)
    throw new UsageError('--limit and --all do not go together (--all lists every delivery)');
  const limit = v.all ? Infinity : v.limit === undefined ? DEFAULT_LIMIT : Number(v.limit);
  if (!v.all && (!Number.isSafeInteger(limit) || limit < 1))
    throw new UsageError(`--limit must be a whole number of at least 1, got "${v.limit}"`);
  const filters = new URLSearchParams();
  if (v.invoice) filters.set('invoice_id', v.invoice);
  if (v.status) filters.set('status', v.status);
  if (v.event) filters.set('event', v.event);
  const page = await listDeliveries(call, filters, limit);
  if (v.json) {
    console.log(JSON.stringify(page));
    return 0;
  }
  if (!page.deliveries.length) console.log('no deliveries match');
  for (const d of page.deliveries) console.log(deliveryLine(d));
  if (page.meta.total_count > page.deliveries.length)
    console.log(
      `(${page.deliveries.length} of ${page.meta.total_count}; --limit N or --all for more)`,
    );
  return 0;
}

export const deliveriesCommand: CliCommand = {
  name: 'deliveries',
  usage: USAGE,
  summary: 'list callback deliveries and why they wait; resend one',
  help: HELP,
  run: (args, env) => runControl('deliveries', () => run(args, env)),
};
