import type { Hono } from 'hono';
import { authenticateControl } from '../auth/authenticate.js';
import { ApiError } from '../http/api-error.js';
import type { AppEnv } from '../http/operation.js';
import { sandboxApp, sandboxCustomer, sandboxMerchant } from '../identities/identity.view.js';
import { COUNTER_COLLECTORS, WALLET_COLLECTOR } from '../payments/payments.service.js';
import type { ExtensionContext } from '../sandbox.js';
import type { Services } from '../services.js';
import { formatTimestamp } from '../shared/clock.js';
import { formatMoney } from '../shared/money.js';
import type { ControlRepository } from './control.repo.js';
import { dashboardPage, tokenRequiredPage, type DashboardData, type DashboardInvoice } from './dashboard.view.js';
import type { FaultStore } from './faults.service.js';

const LIST_SIZE = 25;

function collectData(s: Services, ctx: ExtensionContext, repo: ControlRepository, faults: FaultStore, token: string | null): DashboardData {
  s.invoices.expireDue();
  const invoices: DashboardInvoice[] = repo.recentInvoiceIds(LIST_SIZE).map((id) => {
    const row = s.invoiceRepo.byId(id)!;
    const collectors = JSON.parse(row.supported_payment_collectors) as string[];
    const due = row.amount - row.amount_received;
    return {
      invoice: s.invoices.view(row),
      merchantName: s.identities.merchantById(row.merchant_id)?.name ?? '',
      suggestedPart: formatMoney(due > 1n ? due / 2n : due),
      wallet: collectors.includes(WALLET_COLLECTOR),
      counter: collectors.find((c) => COUNTER_COLLECTORS.includes(c)) ?? null,
    };
  });
  return {
    token,
    clock: { now: formatTimestamp(s.clock.now()), offsetSeconds: s.clock.offsetMicros() / 1_000_000 },
    merchants: s.identities.merchantsPage(LIST_SIZE, 0).map(sandboxMerchant),
    apps: s.identities.appsPage(LIST_SIZE, 0).map((a) => sandboxApp(a, s.identities.userById(a.owner_id)!, s.ledger)),
    customers: s.identities.customersPage(LIST_SIZE, 0).map((u) => sandboxCustomer(u, s.ledger)),
    invoices,
    faults: faults.list(),
    requests: ctx.sandbox.requestLog.page(LIST_SIZE, 0).items,
  };
}

/**
 * `GET /_sandbox/`: the QA dashboard. With a control token configured, the page itself needs it
 * (`?token=` or `X-Sandbox-Token`) and hands it to its own fetch calls.
 */
export function registerDashboard(app: Hono<AppEnv>, s: Services, ctx: ExtensionContext, repo: ControlRepository, faults: FaultStore): void {
  app.get('/_sandbox', (c) => {
    const expected = s.config.controlToken;
    const given = c.req.query('token') ?? c.req.header('x-sandbox-token');
    try {
      authenticateControl(expected, given);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      return c.html(tokenRequiredPage(), 401);
    }
    c.set('authOutcome', 'control');
    c.header('cache-control', 'no-store');
    return c.html(dashboardPage(collectData(s, ctx, repo, faults, expected)));
  });
}
