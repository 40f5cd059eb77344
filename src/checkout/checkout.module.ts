import type { SandboxModule } from '../module.types.js';
import type { ServicesWith } from '../module.types.js';
import { createCheckoutRepository } from './checkout.repo.js';
import { registerCheckoutRoutes } from './checkout.routes.js';
import { createCheckoutService } from './checkout.service.js';
import { createSessionSigner } from './checkout.session.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger' | 'invoices' | 'payments'>;

/**
 * The hosted payment page (docs/design.md#hosted-payment-page) at each invoice's `payment_url`. The outcome chooser is
 * hidden when a control token is set: it moves invoices without credentials, which docs/design.md#authentication then forbids.
 */
export function createCheckoutModule(services: ModuleServices): SandboxModule {
  const checkout = createCheckoutService({
    services,
    repo: createCheckoutRepository(services.db),
    sessions: createSessionSigner(),
    sandboxChooser: () => !services.config.controlToken,
  });
  return { routes: (app) => registerCheckoutRoutes(app, checkout), api: undefined };
}
