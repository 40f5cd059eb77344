import type { ExtensionContext, SandboxExtension } from '../sandbox.js';
import type { Services } from '../services.js';
import { createWorkspaceRepository } from '../workspaces/workspaces.repo.js';
import { createWorkspaceService } from '../workspaces/workspaces.service.js';
import { clockHandlers } from './clock.routes.js';
import { createControlRepository } from './control.repo.js';
import { registerDashboard } from './dashboard.routes.js';
import { diagnosticsHandlers } from './diagnostics.routes.js';
import { controlGuard } from './control-guard.middleware.js';
import { faultMiddleware } from './faults.middleware.js';
import { createFaultStore } from './faults.service.js';
import { identityAdminHandlers } from './identity-admin.routes.js';
import { createInvoiceControlService } from './invoice-control.service.js';
import { invoiceControlHandlers } from './invoice-control.routes.js';
import { createProvisioningService } from './provisioning.service.js';

const isControlPath = (path: string) => path === '/_sandbox' || path.startsWith('/_sandbox/');

function createControlState(s: Services, ctx: ExtensionContext) {
  const repo = createControlRepository(s.db);
  const provisioning = createProvisioningService(s, repo);
  return {
    repo,
    provisioning,
    invoiceControl: createInvoiceControlService(s, repo),
    workspaces: createWorkspaceService(s, createWorkspaceRepository(s.db), provisioning),
    // `ctx.random` is filled in once the sandbox exists, so it is read per use.
    faults: createFaultStore(s.ids, () => ctx.random()),
  };
}

// One state per sandbox (tests build many in one process), shared by its handlers, middleware and tick.
const states = new WeakMap<Services, ReturnType<typeof createControlState>>();
function stateOf(s: Services, ctx: ExtensionContext) {
  let state = states.get(s);
  if (!state) states.set(s, (state = createControlState(s, ctx)));
  return state;
}

/** The control API of sandbox.md §9 (beyond deliveries and orders), injected faults and the QA dashboard. */
export const controlExtension: SandboxExtension = {
  handlers: (s, ctx) => {
    const st = stateOf(s, ctx);
    return {
      ...invoiceControlHandlers(s, st.invoiceControl),
      ...clockHandlers(s, ctx, () => st.faults.clear()),
      ...identityAdminHandlers(s, st.provisioning, st.workspaces),
      ...diagnosticsHandlers(st.faults, ctx),
    };
  },
  // The control API's Host/Origin/Content-Type guard, or injected faults: the two never share a path.
  middleware: (s, ctx) => {
    const guard = controlGuard(s.config);
    const faults = faultMiddleware(stateOf(s, ctx).faults);
    return (c, next) => (isControlPath(c.req.path) ? guard(c, next) : faults(c, next));
  },
  routes: (app, s, ctx) => {
    const st = stateOf(s, ctx);
    registerDashboard(app, s, ctx, st.repo, st.faults);
  },
  tick: (s, ctx) => {
    stateOf(s, ctx).workspaces.expireDue();
  },
};
