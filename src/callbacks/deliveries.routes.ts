import type { EventName } from '../events/outbox.repo.js';
import { ok, type Handlers } from '../http/operation.js';
import type { DeliveryListQuery, DeliveryService } from './deliveries.service.js';

/** listDeliveries, getDelivery, redeliverDelivery, fireInvoiceCallback (openapi.yaml, tag `sandbox`). */
export function deliveryHandlers(deliveries: DeliveryService): Handlers {
  return {
    // The request's signal ends the long-poll early when the client goes away.
    listDeliveries: async ({ query, c }) => ok(await deliveries.list(query as DeliveryListQuery, c.req.raw.signal)),
    getDelivery: ({ params }) => ok({ delivery: deliveries.get(params.delivery_id) }),
    redeliverDelivery: ({ params }) => ok({ delivery: deliveries.redeliver(params.delivery_id) }, 202),
    fireInvoiceCallback: ({ params, body }) => {
      const b = body as { event: EventName; force?: boolean };
      return ok({ delivery: deliveries.fire(params.invoice_id, b.event, { force: b.force }) }, 201);
    },
  };
}
