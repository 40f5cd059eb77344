import type { SandboxModule } from '../module.types.js';
import type { ServicesWith } from '../module.types.js';
import { refuseCrossSiteForms, registerCheckoutRoutes } from './checkout.routes.js';
import { createCheckoutService, type CheckoutDeps } from './checkout.service.js';
import { createSessionStore } from './checkout.session.js';
import { registerRequestPageRoutes } from './request-page.routes.js';
import { createRequestPageService, type RequestPageApi } from './request-page.service.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger' | 'invoices' | 'payments'>;

/**
 * The hosted payment page (docs/design.md#hosted-payment-page) at each invoice's `payment_url`. The outcome chooser is
 * hidden when a control token is set: it moves invoices without credentials, which docs/design.md#authentication then forbids.
 * Beside it, the payer's page of a payment request, with the same wallet login (the wallet module's `requests`).
 * Wallet sessions are kept on the server (checkout.session.ts): logout and a deleted workspace end them.
 */
export function createCheckoutModule(
  services: ModuleServices,
  requests: RequestPageApi,
  payins: CheckoutDeps['payins'],
): SandboxModule {
  const sessions = createSessionStore();
  // Sessions past their time end for good (a clock moved back revives none), each on its tenant's clock.
  services.dueWork.register({
    name: 'checkout.session-expiry',
    run: () => void sessions.expire(services.tenants.nowOf),
    earliest: sessions.nextExpiry,
  });
  // A deleted (or expired) workspace logs its customers out of every hosted page.
  services.identities.onWorkspaceDisabled((workspaceId) => sessions.endTenant(workspaceId));
  const checkout = createCheckoutService({
    services,
    payins,
    sessions,
    sandboxChooser: () => !services.config.controlToken,
  });
  const requestPages = createRequestPageService({ services, requests, sessions });
  return {
    routes: (app) => {
      app.use('/payment/*', refuseCrossSiteForms(services.config));
      registerCheckoutRoutes(app, checkout);
      registerRequestPageRoutes(app, requestPages);
    },
    api: undefined,
  };
}
