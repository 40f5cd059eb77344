import type { SandboxModule } from '../module.types.js';
import type { ServicesWith } from '../module.types.js';
import { registerCheckoutRoutes } from './checkout.routes.js';
import { createCheckoutService, type CheckoutDeps } from './checkout.service.js';
import { createSessionSigner } from './checkout.session.js';
import { registerRequestPageRoutes } from './request-page.routes.js';
import { createRequestPageService, type RequestPageApi } from './request-page.service.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger' | 'invoices' | 'payments'>;

/**
 * The hosted payment page (docs/design.md#hosted-payment-page) at each invoice's `payment_url`. The outcome chooser is
 * hidden when a control token is set: it moves invoices without credentials, which docs/design.md#authentication then forbids.
 * Beside it, the payer's page of a payment request, with the same wallet login (the wallet module's `requests`).
 */
export function createCheckoutModule(
  services: ModuleServices,
  requests: RequestPageApi,
  payins: CheckoutDeps['payins'],
): SandboxModule {
  const sessions = createSessionSigner();
  const checkout = createCheckoutService({
    services,
    payins,
    sessions,
    sandboxChooser: () => !services.config.controlToken,
  });
  const requestPages = createRequestPageService({ services, requests, sessions });
  return {
    routes: (app) => {
      registerCheckoutRoutes(app, checkout);
      registerRequestPageRoutes(app, requestPages);
    },
    api: undefined,
  };
}
