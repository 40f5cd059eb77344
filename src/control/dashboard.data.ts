import type { DeliveryService } from '../callbacks/deliveries.service.js';
import type { DeliveryFilter, DeliveryStatus } from '../callbacks/callbacks.api.js';
import type { DeliveryResource } from '../callbacks/delivery.view.js';
import type { Inbox, InboxEntry } from '../callbacks/inbox.js';
import { EVENT_NAMES, type EventName } from '../events/outbox.repo.js';
import type { RequestLogEntry } from '../http/request-log.js';
import { sandboxApp, sandboxCustomer, sandboxMerchant } from '../identities/identity.view.js';
import type { InvoiceResource } from '../invoices/invoice.view.js';
import {
  amountDue,
  collectorsOf,
  COUNTER_COLLECTORS,
  WALLET_COLLECTOR,
} from '../invoices/invoice.model.js';
import type { RequestLog } from '../http/request-log.js';
import type { ServicesWith } from '../module.types.js';
import { formatTimestamp } from '../shared/clock.js';
import { formatMoney } from '../shared/money.js';
import {
  paymentRequestPageUrl,
  type PaymentRequestService,
} from '../wallet/payment-requests.service.js';
import { appTokenView } from './app-tokens.routes.js';
import type { ControlReads } from './control.reads.js';
import type { Fault, FaultStore } from './faults.service.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger' | 'invoices'>;

const LIST_SIZE = 25;
export const DELIVERY_STATUSES: readonly DeliveryStatus[] = [
  'pending',
  'delivering',
  'delivered',
  'failed',
];
/** The hosted page polls this every few seconds while open; hidden from the request list unless asked. */
const STATUS_POLL = /^\/payment\/invoice\/[^/]+\/status\/?$/;

export interface DashboardInvoice {
  invoice: InvoiceResource;
  merchantName: string;
  /** Its merchant's workspace time, or null for the base data (on the sandbox clock). */
  tenantClock: TenantClockView | null;
  /** Half the amount due, pre-filled in the "pay part" field. */
  suggestedPart: string;
  wallet: boolean;
  counter: string | null;
}

/** The filters of the deliveries and requests lists, as the page's query string gives them. */
export interface DashboardFilters {
  delivery: DeliveryFilter;
  request: { path: string; status: string; auth: string; polls: boolean };
  /** Filter values that were not understood (shown, then ignored). */
  problems: string[];
}

/** A workspace's time beside its objects (docs/design.md#the-clock). */
export interface TenantClockView {
  workspaceId: string;
  now: string;
  offsetSeconds: number;
}

export interface DashboardData {
  /** Sent back as X-Sandbox-Token by the page's fetch calls; null when no token is configured. */
  token: string | null;
  /** Where the sandbox is reached, for the copy-as-curl commands. */
  baseUrl: string;
  /** Changes whenever anything the page shows changes (see `dashboardVersion`). */
  version: string;
  clock: { now: string; offsetSeconds: number };
  merchants: Array<ReturnType<typeof sandboxMerchant> & { tenantClock: TenantClockView | null }>;
  /** Each app with its live OAuth2 access tokens (on its tenant's clock). */
  apps: Array<
    ReturnType<typeof sandboxApp> & {
      tokens: Array<ReturnType<typeof appTokenView>>;
      tenantClock: TenantClockView | null;
    }
  >;
  customers: Array<ReturnType<typeof sandboxCustomer> & { tenantClock: TenantClockView | null }>;
  invoices: DashboardInvoice[];
  /** The newest payment requests of every owner, each with its payer page (and its owner's workspace time). */
  paymentRequests: Array<
    ReturnType<PaymentRequestService['recent']>[number] & {
      page_url: string;
      tenantClock: TenantClockView | null;
    }
  >;
  /** Each delivery with its merchant's workspace time (its next attempt is on that clock). */
  deliveries: {
    items: Array<DeliveryResource & { tenantClock: TenantClockView | null }>;
    total: number;
  };
  /** What the example receiver got, newest first. */
  inbox: { items: Array<InboxEntry & { merchantName: string }>; total: number };
  faults: Fault[];
  requests: { items: RequestLogEntry[]; matched: number; hiddenPolls: number };
  filters: DashboardFilters;
}

/** Read the list filters from the page's query string; a value not understood is reported and ignored. */
export function parseFilters(q: (name: string) => string | undefined): DashboardFilters {
  const problems: string[] = [];
  const text = (name: string) => (q(name) ?? '').trim().slice(0, 200);
  const event = text('event');
  const dstatus = text('delivery_status');
  if (event && !EVENT_NAMES.includes(event as EventName))
    problems.push(`Unknown event "${event}" (filter ignored).`);
  if (dstatus && !DELIVERY_STATUSES.includes(dstatus as DeliveryStatus))
    problems.push(`Unknown delivery status "${dstatus}" (filter ignored).`);
  const status = text('status');
  if (status && !/^[1-5]([0-9]{2}|xx)$/i.test(status))
    problems.push(
      `Status filter "${status}": use a code such as 404 or a class such as 4xx (ignored).`,
    );
  return {
    delivery: {
      invoice_id: text('invoice') || undefined,
      event: EVENT_NAMES.includes(event as EventName) ? event : undefined,
      status: DELIVERY_STATUSES.includes(dstatus as DeliveryStatus)
        ? (dstatus as DeliveryStatus)
        : undefined,
    },
    request: {
      path: text('path'),
      status: /^[1-5]([0-9]{2}|xx)$/i.test(status) ? status.toLowerCase() : '',
      auth: text('auth'),
      polls: q('polls') === '1',
    },
    problems,
  };
}

/** One string that changes whenever invoices, deliveries, identities, the clock, faults or the request log do. */
/** What the dashboard reads beyond the shared services: the request log and the delivery log. */
export interface DashboardSources {
  requestLog: RequestLog;
  deliveries: DeliveryService;
  paymentRequests: Pick<PaymentRequestService, 'recent'>;
  /** The built-in example receiver (the callbacks module's). */
  inbox: Pick<Inbox, 'list'>;
}

export function dashboardVersion(
  s: ModuleServices,
  ctx: DashboardSources,
  repo: ControlReads,
  faults: FaultStore,
): string {
  const faultMark = faults
    .list()
    .map((f) => `${f.id}:${f.hits}:${f.count ?? ''}`)
    .join(',');
  let workspaceClocks = '';
  for (const [ws, o] of s.tenants.advanced()) workspaceClocks += `${ws}:${o};`;
  return [
    repo.writes(),
    ctx.requestLog.latestId(),
    s.clock.offsetMicros(),
    workspaceClocks,
    faultMark,
    ctx.inbox.list()[0]?.id ?? 0,
  ].join('.');
}

function requestMatches(r: RequestLogEntry, f: DashboardFilters['request']): boolean {
  if (f.path && !`${r.path}${r.query ? `?${r.query}` : ''}`.includes(f.path)) return false;
  if (
    f.status &&
    (f.status.endsWith('xx') ? String(r.status)[0] !== f.status[0] : String(r.status) !== f.status)
  )
    return false;
  if (f.auth && !r.auth.includes(f.auth)) return false;
  return true;
}

/** Everything the dashboard shows, newest first, at most LIST_SIZE rows per list. */
export async function collectData(
  s: ModuleServices,
  ctx: DashboardSources,
  repo: ControlReads,
  faults: FaultStore,
  token: string | null,
  filters: DashboardFilters,
): Promise<DashboardData> {
  // Each workspace's time, beside its objects; each object viewed on its own tenant's clock.
  const tenantClock = (ws: string | null | undefined): TenantClockView | null =>
    ws
      ? {
          workspaceId: ws,
          now: formatTimestamp(s.tenants.nowOf(ws)),
          offsetSeconds: s.tenants.offsetOf(ws) / 1_000_000,
        }
      : null;
  const invoices: DashboardInvoice[] = repo.recentInvoiceIds(LIST_SIZE).map((id) => {
    const row = s.invoices.byId(id)!;
    const due = amountDue(row);
    const merchant = s.identities.merchantById(row.merchant_id);
    return {
      invoice: s.tenants.within(merchant?.workspace_id, () => s.invoices.view(row, merchant)),
      merchantName: merchant?.name ?? '',
      tenantClock: tenantClock(merchant?.workspace_id),
      suggestedPart: formatMoney(due > 1n ? due / 2n : due),
      wallet: collectorsOf(row).includes(WALLET_COLLECTOR),
      counter: collectorsOf(row).find((c) => COUNTER_COLLECTORS.includes(c)) ?? null,
    };
  });
  // Through the delivery service, as the control API reads them; each with its attempts.
  const deliveryService = ctx.deliveries;
  const deliveryPage = await deliveryService.list({ ...filters.delivery, per_page: LIST_SIZE });
  const deliveries = deliveryPage.deliveries.map((d) => ({
    ...deliveryService.get(d.id),
    tenantClock: tenantClock(s.identities.merchantById(d.merchant_id)?.workspace_id),
  }));

  // The whole retained log (bounded by its capacity) is filtered, then the newest LIST_SIZE are shown.
  const log = ctx.requestLog;
  let hiddenPolls = 0;
  const matching = log.page(log.page(0, 0).total, 0).items.filter((r) => {
    if (!filters.request.polls && STATUS_POLL.test(r.path)) {
      hiddenPolls += 1;
      return false;
    }
    return requestMatches(r, filters.request);
  });

  const now = s.clock.now();
  const inboxItems = ctx.inbox.list();
  return {
    token,
    baseUrl: s.config.publicUrl,
    version: dashboardVersion(s, ctx, repo, faults),
    clock: { now: formatTimestamp(now), offsetSeconds: s.clock.offsetMicros() / 1_000_000 },
    merchants: s.identities
      .merchantsPage(LIST_SIZE, 0)
      .map((m) => ({ ...sandboxMerchant(m), tenantClock: tenantClock(m.workspace_id) })),
    apps: s.identities.appsPage(LIST_SIZE, 0).map((a) => {
      const appNow = now + s.tenants.offsetOf(a.workspace_id);
      return {
        ...sandboxApp(a, s.identities.userById(a.owner_id)!, s.ledger),
        tokens: s.identities.appTokens.live(a.api_key, appNow).map((r) => appTokenView(r, appNow)),
        tenantClock: tenantClock(a.workspace_id),
      };
    }),
    customers: s.identities
      .customersPage(LIST_SIZE, 0)
      .map((u) => ({ ...sandboxCustomer(u, s.ledger), tenantClock: tenantClock(u.workspace_id) })),
    invoices,
    paymentRequests: ctx.paymentRequests.recent(LIST_SIZE).map((r) => {
      // A request lives on its owner's clock: the tenant of the account it pays into.
      const account = s.ledger.get(r.receiving_account);
      return {
        ...r,
        page_url: paymentRequestPageUrl(s.config.publicUrl, r.id),
        tenantClock: tenantClock(
          account && s.identities.workspaceOfOwner(account.owner_type, account.owner_id),
        ),
      };
    }),
    deliveries: { items: deliveries, total: deliveryPage.meta.total_count },
    inbox: {
      items: inboxItems.slice(0, LIST_SIZE).map((e) => ({
        ...e,
        merchantName: s.identities.merchantById(e.merchant_id)?.name ?? '',
      })),
      total: inboxItems.length,
    },
    faults: faults.list(),
    requests: { items: matching.slice(0, LIST_SIZE), matched: matching.length, hiddenPolls },
    filters,
  };
}
