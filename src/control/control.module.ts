import type { DeliveryService } from '../callbacks/deliveries.service.js';
import type { Inbox } from '../callbacks/inbox.js';
import type { RequestLog } from '../http/request-log.js';
import type { SandboxModule } from '../module.types.js';
import { formatTimestamp } from '../shared/clock.js';
import type { ServicesWith } from '../module.types.js';
import { appTokenHandlers } from './app-tokens.routes.js';
import { createWorkspaces } from '../workspaces/workspaces.service.js';
import { clockHandlers, type SandboxControls } from './clock.routes.js';
import { createControlReads } from './control.reads.js';
import { registerDashboard } from './dashboard.routes.js';
import { diagnosticsHandlers } from './diagnostics.routes.js';
import { controlGuard } from './control-guard.middleware.js';
import { faultMiddleware } from './faults.middleware.js';
import { createFaultStore, type ServedRoute } from './faults.service.js';
import { identityListHandlers } from './identities.routes.js';
import { identityAdminHandlers } from './identity-admin.routes.js';
import { createInvoiceControlService } from './invoice-control.service.js';
import { invoiceControlHandlers } from './invoice-control.routes.js';
import { createProvisioningService } from './provisioning.service.js';
import { snapshotHandlers } from './snapshots.routes.js';
import type { PaymentRequestService } from '../wallet/payment-requests.service.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger' | 'invoices' | 'payments'>;

const isControlPath = (path: string) => path === '/_sandbox' || path.startsWith('/_sandbox/');

export interface ControlDeps {
  services: ModuleServices;
  /** The delivery log (the callbacks module's api), for the dashboard. */
  deliveries: DeliveryService;
  /** The example receiver (the callbacks module's), for the dashboard. */
  inbox: Pick<Inbox, 'list' | 'clear'>;
  /** The wallet module's payment requests, listed on the dashboard with their payer pages. */
  paymentRequests: Pick<PaymentRequestService, 'recent'>;
  requestLog: RequestLog;
  /** Randomness of fault probability (tests inject a fixed source). */
  random: () => number;
  /** The sandbox's tick and reset, for the clock calls. */
  sandbox: SandboxControls;
  /** The routes the sandbox serves (a fault's method and glob must match one of them). */
  servedRoutes?: () => readonly ServedRoute[];
}

/** The control API (docs/design.md#control-api) beyond deliveries and orders, injected faults and the QA dashboard. */
export function createControlModule(d: ControlDeps) {
  const s = d.services;
  const repo = createControlReads(s.db, s.identities, s.invoices);
  const provisioning = createProvisioningService(s, repo);
  const invoiceControl = createInvoiceControlService(s, repo);
  const workspaces = createWorkspaces(s, provisioning);
  const faults = createFaultStore(s.ids, d.random, {
    now: () => formatTimestamp(s.clock.now()),
    servedRoutes: d.servedRoutes,
  });
  s.dueWork.register(workspaces.dueJob());
  const guard = controlGuard(s.config);
  const injectFaults = faultMiddleware(faults, s.identities, () => s.clock.now());
  return {
    handlers: {
      ...invoiceControlHandlers(s, invoiceControl),
      // A reset forgets the faults and what the example receiver got, as it forgets everything else.
      ...clockHandlers(s, d.sandbox, workspaces, () => {
        faults.clear();
        d.inbox.clear();
      }),
      ...identityListHandlers(s),
      ...identityAdminHandlers(s, provisioning, workspaces),
      ...appTokenHandlers(s),
      ...diagnosticsHandlers(faults, d.requestLog),
      ...snapshotHandlers(workspaces, d.sandbox),
    },
    // The control API's Host/Origin/Content-Type guard, or injected faults: the two never share a path.
    middleware: (c, next) => (isControlPath(c.req.path) ? guard(c, next) : injectFaults(c, next)),
    routes: (app) =>
      registerDashboard(
        app,
        s,
        {
          requestLog: d.requestLog,
          deliveries: d.deliveries,
          paymentRequests: d.paymentRequests,
          inbox: d.inbox,
        },
        repo,
        faults,
      ),
    api: { provisioning, invoiceControl, workspaces, faults },
  } satisfies SandboxModule<unknown>;
}
