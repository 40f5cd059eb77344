import { ok, type Handlers } from '../http/operation.js';
import { parseAmount } from '../shared/money.js';
import type { OutletService } from './outlets.service.js';

/** listPayoutOutlets, listPartnerPayoutOutletFees, quotePartnerPayoutOutletFee (docs/design.md#public-api). */
export function outletHandlers(outlets: OutletService): Handlers {
  return {
    listPayoutOutlets: ({ query }) => ok(outlets.listPayoutOutlets(query)),
    listPartnerPayoutOutletFees: ({ query }) => ok(outlets.listFees(query)),
    quotePartnerPayoutOutletFee: ({ body }) => {
      const outlet = outlets.requirePayoutOutlet(body.outlet_id, 'outlet_id');
      // The body validator has already proved the amount parses (x-amount).
      const quote = outlets.quote(outlet, parseAmount(body.amount));
      return ok({ 'partner-payout-outlet-fee': outlets.quoteResource(quote) });
    },
  };
}
