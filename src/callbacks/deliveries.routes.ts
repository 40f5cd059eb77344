import type { EventName } from '../events/outbox.repo.js';
import { ok, type Handlers } from '../http/operation.js';
import { ApiError } from '../shared/api-error.js';
import {
  WAITERS_RETRY_AFTER_SECONDS,
  type DeliveryListQuery,
  type DeliveryService,
} from './deliveries.service.js';

/** listDeliveries, getDelivery, redeliverDelivery, fireInvoiceCallback (openapi.yaml, tag `sandbox`). */
export function deliveryHandlers(deliveries: DeliveryService): Handlers {
  return {
    // The request's signal ends the long-poll early when the client goes away.
    listDeliveries: async ({ query, c }) => {
      try {
        return ok(await deliveries.list(query as DeliveryListQuery, c.req.raw.signal));
      } catch (err) {
        // Headers set before the throw stay on the error response (renderError).
        if (err instanceof ApiError && err.code === 'too_many_waiters') {
          c.header('Retry-After', String(WAITERS_RETRY_AFTER_SECONDS));
        }
        throw err;
      }
    },
    getDelivery: ({ params }) => ok({ delivery: deliveries.get(params.delivery_id) }),
    redeliverDelivery: ({ params }) =>
      ok({ delivery: deliveries.redeliver(params.delivery_id) }, 202),
    fireInvoiceCallback: ({ params, body }) => {
      const b = body as { event: EventName; force?: boolean };
      return ok({ delivery: deliveries.fire(params.invoice_id, b.event, { force: b.force }) }, 201);
    },
  };
}
