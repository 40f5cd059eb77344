import { parseCommandArgs, UsageError, wholeNumberFlag } from './args.js';
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

Page by page (--limit above ${MAX_PAGE_SIZE}, --all), newest first: a delivery made while it reads is listed
only if it came before the first page, none is listed twice, and --all's meta counts what it listed. With
--status pending or delivering (states a delivery leaves as it is sent), it reads every page without
the status and keeps the deliveries that were in it when their page was read.

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

/** Statuses a delivery leaves again (pending → delivering → pending on a retry …), unlike delivered and failed. */
const TRANSIENT = new Set(['pending', 'delivering']);

/**
 * Up to `limit` deliveries (newest first), read a page of at most 100 at a time as the control API pages
 * them (`page`/`per_page`, newest first, until `next_page` is null). One read when it fits: the API's
 * own answer. Page by page, deliveries made while it reads only push older ones onto later pages (one
 * seen twice is listed once, one made after the first page is not listed), so nothing is missed; but a
 * pending or delivering delivery may change state between two pages and leave the filtered list, which
 * would shift one it has not read onto a page it has: with `status` pending or delivering, the pages are
 * read without it and filtered here (each delivery in the state it had when its page was read).
 * The answer has the API's shape: `{deliveries, meta}`; the meta describes what is listed (`--all`:
 * total_count = the number listed, next_page null; `limit`: the count of the first read).
 */
export async function listDeliveries(
  call: ControlCall,
  filters: URLSearchParams,
  limit: number,
): Promise<{ deliveries: Delivery[]; meta: PageMeta }> {
  const read = (q: URLSearchParams, page: number, perPage: number) => {
    const query = new URLSearchParams(q);
    query.set('per_page', String(perPage));
    if (page > 1) query.set('page', String(page));
    return call<{ deliveries: Delivery[]; meta: PageMeta }>('GET', `/_sandbox/deliveries?${query}`);
  };
  const first = await read(filters, 1, Math.min(limit, MAX_PAGE_SIZE));
  if (first.meta.next_page === null || limit <= MAX_PAGE_SIZE)
    return {
      deliveries: first.deliveries.slice(0, limit),
      meta: Number.isFinite(limit)
        ? first.meta
        : listedMeta(first.deliveries.length, first.deliveries.length),
    };
  const status = filters.get('status');
  const clientSide = status !== null && TRANSIENT.has(status);
  const q = new URLSearchParams(filters);
  if (clientSide) q.delete('status');
  const seen = new Set<string>();
  const deliveries: Delivery[] = [];
  const take = (page: Delivery[]) => {
    for (const d of page) {
      if (deliveries.length >= limit) return;
      if (seen.has(d.id)) continue;
      seen.add(d.id);
      if (!clientSide || d.status === status) deliveries.push(d);
    }
  };
  let next: number | null = 1;
  if (!clientSide) {
    take(first.deliveries);
    next = first.meta.next_page;
  }
  while (next !== null && deliveries.length < limit) {
    const page = await read(q, next, MAX_PAGE_SIZE);
    take(page.deliveries);
    next = page.meta.next_page;
  }
  if (!Number.isFinite(limit))
    return { deliveries, meta: listedMeta(deliveries.length, deliveries.length) };
  // As one page of `limit` would say: the matching count when it began (or what it listed, if more).
  return {
    deliveries,
    meta: listedMeta(limit, Math.max(first.meta.total_count, deliveries.length)),
  };
}

/** The meta of one page of `size` out of `total`. */
function listedMeta(size: number, total: number): PageMeta {
  const perPage = Math.max(size, 1);
  return pageMeta({ page: 1, perPage, limit: perPage, offset: 0 }, total);
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
  const limit = v.all
    ? Infinity
    : v.limit === undefined
      ? DEFAULT_LIMIT
      : wholeNumberFlag(v.limit, 'limit', 1);
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
  if (!v.all && page.meta.total_count > page.deliveries.length)
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
