import { sandboxApp, sandboxCustomer, sandboxMerchant } from '../identities/identity.view.js';
import { ok, type Handlers } from '../http/operation.js';
import type { ServicesWith } from '../module.types.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger'>;

/** listMerchants, listApps, listCustomers: what the fixtures (and the control API) created. */
export function identityListHandlers(s: ModuleServices): Handlers {
  return {
    listMerchants: ({ query }) => {
      const req = pageRequest(query);
      return ok({
        merchants: s.identities.merchantsPage(req.limit, req.offset).map(sandboxMerchant),
        meta: pageMeta(req, s.identities.merchantsCount()),
      });
    },
    listApps: ({ query }) => {
      const req = pageRequest(query);
      const apps = s.identities.appsPage(req.limit, req.offset);
      return ok({
        apps: apps.map((a) => sandboxApp(a, s.identities.userById(a.owner_id)!, s.ledger)),
        meta: pageMeta(req, s.identities.appsCount()),
      });
    },
    listCustomers: ({ query }) => {
      const req = pageRequest(query);
      return ok({
        customers: s.identities.customersPage(req.limit, req.offset).map((u) => sandboxCustomer(u, s.ledger)),
        meta: pageMeta(req, s.identities.customersCount()),
      });
    },
  };
}
