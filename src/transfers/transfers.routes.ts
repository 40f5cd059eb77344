import { ok, type Handlers } from '../http/operation.js';
import type { TransferService } from './transfers.service.js';

/**
 * createTransfer, getTransfer, listTransfers (HMAC; scoped to the signing application's owner) and the
 * control call setTransferStatus.
 */
export function transferHandlers(transfers: TransferService): Handlers {
  return {
    createTransfer: ({ app, body, c }) =>
      ok({ transfer: transfers.create(app, body, c.req.header('access-otp')) }, 201),
    getTransfer: ({ app, params }) =>
      ok({ transfer: transfers.get(app.owner_id, params.transfer_id) }),
    listTransfers: ({ app, query }) => ok(transfers.list(app.owner_id, query)),
    setTransferStatus: ({ params, body }) =>
      ok({ transfer: transfers.setStatus(params.transfer_id, body.status) }),
  };
}
