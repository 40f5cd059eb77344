import { sandboxApp, sandboxCustomer, sandboxMerchant } from '../identities/identity.view.js';
import { ok, type Handlers } from '../http/operation.js';
import type { ServicesWith } from '../module.types.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger'>;

/** listMerchants, listApps, listCustomers: what the fixtures (and the control API) created; `workspace_id` narrows to one workspace's. */
export function identityListHandlers(s: ModuleServices): Handlers {
  return {
    listMerchants: ({ query }) => {
      const req = pageRequest(query);
      return ok({
        merchants: s.identities
          .merchantsPage(req.limit, req.offset, query.workspace_id)
          .map(sandboxMerchant),
        meta: pageMeta(req, s.identities.merchantsCount(query.workspace_id)),
      });
    },
    listApps: ({ query }) => {
      const req = pageRequest(query);
      const apps = s.identities.appsPage(req.limit, req.offset, query.workspace_id);
      return ok({
        apps: apps.map((a) => sandboxApp(a, s.identities.userById(a.owner_id)!, s.ledger)),
        meta: pageMeta(req, s.identities.appsCount(query.workspace_id)),
      });
    },
    listCustomers: ({ query }) => {
      const req = pageRequest(query);
      return ok({
        customers: s.identities
          .customersPage(req.limit, req.offset, query.workspace_id)
          .map((u) => sandboxCustomer(u, s.ledger)),
        meta: pageMeta(req, s.identities.customersCount(query.workspace_id)),
      });
    },
  };
}
