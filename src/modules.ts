import { createCallbacksModule } from './callbacks/callbacks.module.js';
import { createEventDeliveryWriter } from './callbacks/event-delivery.writer.js';
import { createCheckoutModule } from './checkout/checkout.module.js';
import type { SandboxControls } from './control/clock.routes.js';
import { createControlModule } from './control/control.module.js';
import type { ServedRoute } from './control/faults.service.js';
import type { OutboxEventRow } from './events/outbox.repo.js';
import type { RequestLog } from './http/request-log.js';
import { createIdentitiesModule } from './identities/identities.module.js';
import { createInvoicesModule } from './invoices/invoices.module.js';
import { createAccountsModule } from './ledger/accounts.module.js';
import { createLedgerModule } from './ledger/ledger.module.js';
import type { SandboxModule } from './module.types.js';
import { createOrdersModule } from './orders/orders.module.js';
import { createOutletsModule } from './outlets/outlets.module.js';
import { createPaymentsModule } from './payments/payments.module.js';
import { createServices, type CoreDeps } from './services.js';
import { createTransfersModule } from './transfers/transfers.module.js';
import { createWalletModule } from './wallet/wallet.module.js';

export interface ModuleOptions {
  requestLog: RequestLog;
  /** The sandbox's tick and reset (the control API's clock calls run them). */
  sandbox: SandboxControls;
  /** The fetch a test injected; callbacks then use it as given. */
  injectedFetch?: typeof fetch;
  random: () => number;
  /** The routes the app serves, once it is built (for the faults' method and path check). */
  servedRoutes?: () => readonly ServedRoute[];
}

/**
 * The shared infrastructure and every feature module of the sandbox, built in dependency order, each
 * module given only the `api` of the modules it uses (docs/design.md#architecture). The one place that
 * knows them all.
 */
export function createModules(core: CoreDeps, o: ModuleOptions) {
  // The one late-bound link: the outbox writes each event's delivery row for the event's merchant
  // (identities), while identities write through the outbox's write batch. No event is appended
  // before `writeDelivery` below exists (fixtures load after this function returns).
  const s = createServices(core, (event: OutboxEventRow) => writeDelivery(event));
  const identities = createIdentitiesModule(s);
  const writeDelivery = createEventDeliveryWriter({
    db: s.db,
    ids: s.ids,
    merchantById: identities.api.merchantById,
  });
  const ledger = createLedgerModule(s);
  const invoices = createInvoicesModule(s, identities.api);
  const payments = createPaymentsModule(s, {
    invoices: invoices.api,
    ledger: ledger.api,
    identities: identities.api,
  });
  // Wallet pages kept while no row changed but the nonces of signed requests (the pages' own reads).
  const accounts = createAccountsModule(ledger.api, {
    version: () => s.writeBatch.changes() - identities.api.nonceWrites(),
    onRollback: (l) => s.writeBatch.onRollback(l),
  });
  const base = { identities: identities.api, ledger: ledger.api };
  const outlets = createOutletsModule({ db: s.db });
  const transfers = createTransfersModule({ ...s, ...base });
  // Sell orders through coins_transfer send to a wallet found as a transfer finds its target.
  const orders = createOrdersModule({ ...s, ...base }, outlets.api, transfers.api);
  const wallet = createWalletModule({ ...s, ...base }, transfers.api);
  const callbacks = createCallbacksModule({
    services: { ...s, identities: identities.api, invoices: invoices.api },
    injectedFetch: o.injectedFetch,
    pendingWritten: writeDelivery.pendingWritten,
  });
  const all = { ...s, ...base, invoices: invoices.api, payments: payments.api };
  const control = createControlModule({
    services: all,
    deliveries: callbacks.api.service,
    inbox: callbacks.api.inbox,
    paymentRequests: wallet.api.requests,
    requestLog: o.requestLog,
    random: o.random,
    sandbox: o.sandbox,
    servedRoutes: o.servedRoutes,
  });
  const checkout = createCheckoutModule(all, wallet.api.requests, outlets.api);
  return {
    services: s,
    // The order in which their middleware, routes, fixture sections and clock work run.
    modules: {
      identities,
      ledger,
      invoices,
      payments,
      accounts,
      control,
      outlets,
      orders,
      transfers,
      wallet,
      checkout,
      callbacks,
    },
  };
}

export type Modules = ReturnType<typeof createModules>['modules'];

/** The modules as one list, in their running order. */
export const moduleList = (m: Modules): Array<SandboxModule<unknown>> => Object.values(m);
