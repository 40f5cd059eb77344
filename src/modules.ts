import { createCallbacksModule } from './callbacks/callbacks.module.js';
import { createCheckoutModule } from './checkout/checkout.module.js';
import type { SandboxControls } from './control/clock.routes.js';
import { createControlModule } from './control/control.module.js';
import type { RequestLog } from './http/request-log.js';
import { createInvoicesModule } from './invoices/invoices.module.js';
import { createAccountsModule } from './ledger/accounts.module.js';
import type { SandboxModule } from './module.types.js';
import { createOrdersModule } from './orders/orders.module.js';
import { createOutletsModule } from './outlets/outlets.module.js';
import type { Services } from './services.js';
import { createTransfersModule } from './transfers/transfers.module.js';
import { createWalletModule } from './wallet/wallet.module.js';

export interface ModuleOptions {
  requestLog: RequestLog;
  /** The sandbox's tick and reset (the control API's clock calls run them). */
  sandbox: SandboxControls;
  /** The fetch a test injected; callbacks then use it as given. */
  injectedFetch?: typeof fetch;
  random: () => number;
}

/**
 * Every feature module of the sandbox, built in dependency order, each given only the `api` of the
 * modules it uses (docs/design.md#architecture). The one place that knows them all.
 */
export function createModules(s: Services, o: ModuleOptions) {
  const invoices = createInvoicesModule(s);
  const accounts = createAccountsModule(s);
  const outlets = createOutletsModule({ db: s.db });
  const orders = createOrdersModule(s, outlets.api);
  const transfers = createTransfersModule(s);
  const wallet = createWalletModule(s, transfers.api);
  const callbacks = createCallbacksModule({ services: s, injectedFetch: o.injectedFetch });
  const control = createControlModule({
    services: s,
    deliveries: callbacks.api.service,
    requestLog: o.requestLog,
    random: o.random,
    sandbox: o.sandbox,
  });
  const checkout = createCheckoutModule(s);
  // The order in which their middleware, routes, fixture sections and clock work run.
  return { invoices, accounts, control, outlets, orders, transfers, wallet, checkout, callbacks };
}

export type Modules = ReturnType<typeof createModules>;

/** The modules as one list, in their running order. */
export const moduleList = (m: Modules): Array<SandboxModule<unknown>> => Object.values(m);
