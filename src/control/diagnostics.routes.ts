import { ok, type Handlers } from '../http/operation.js';
import type { RequestLog } from '../http/request-log.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import type { FaultStore } from './faults.service.js';

/** listFaults, createFault, clearFaults, deleteFault, listRequests (docs/design.md#control-api). */
export function diagnosticsHandlers(faults: FaultStore, requestLog: RequestLog): Handlers {
  return {
    listFaults: () => ok({ faults: faults.list() }),
    createFault: ({ body }) => ok({ fault: faults.add(body) }, 201),
    clearFaults: () => {
      faults.clear();
      return { status: 204 };
    },
    deleteFault: ({ params }) => {
      faults.remove(params.fault_id);
      return { status: 204 };
    },
    listRequests: ({ query }) => {
      const req = pageRequest(query);
      const { total, items } = requestLog.page(req.limit, req.offset);
      return ok({ requests: items, meta: pageMeta(req, total) });
    },
  };
}
