import { ApiError } from '../shared/api-error.js';
import { ok, type Handlers } from '../http/operation.js';
import { AmountError, parseAmount } from '../shared/money.js';
import type { OutletDirectory } from './outlet-directory.service.js';
import type { OutletService } from './outlets.service.js';
import { allOutletsSellQuote } from './sell-quote.js';

/** v4 clients ask for `per_page=1000` to read every outlet at once; v4 honours up to 1000. */
const V4_MAX_PER_PAGE = 1000;

/** An amount from the query string (the sell quote): the body's amount rules, as a field error. */
function queryAmount(text: string, field = 'amount'): bigint {
  try {
    return parseAmount(text);
  } catch (e) {
    if (e instanceof AmountError) throw ApiError.field(field, e.message);
    throw e;
  }
}

/** The outlet operations of the developer API (docs/design.md#public-api, docs/fidelity.md). */
export function outletHandlers(outlets: OutletService, directory: OutletDirectory): Handlers {
  return {
    listPayoutOutlets: ({ query }) => ok(outlets.listPayoutOutlets(query)),
    listPayoutOutletsV4: ({ query }) => ok(outlets.listPayoutOutlets(query, V4_MAX_PER_PAGE)),
    getPayoutOutlet: ({ params }) => ok({ 'payout-outlet': outlets.payoutOutletDetail(params.id) }),
    listPayoutOutletFees: ({ query }) => {
      const { items, meta } = outlets.listFees(query);
      return ok({ 'payout-outlet-fees': items, meta });
    },
    listPayoutOutletCategories: ({ query }) => {
      const { items, meta } = directory.payoutCategories(query);
      return ok({ 'payout-outlet-categories': items, meta });
    },
    listPayinOutlets: ({ query }) => {
      const { items, meta } = directory.payinOutlets(query);
      return ok({ 'payin-outlets': items, meta });
    },
    listPayinOutletFees: ({ query }) => {
      const { items, meta } = directory.payinFees(query);
      return ok({ 'payin-outlet-fees': items, meta });
    },
    listPayinOutletCategories: ({ query }) => {
      const { items, meta } = directory.payinCategories(query);
      return ok({ 'payin-outlet-categories': items, meta });
    },
    listPartnerPayoutOutletFees: ({ query }) => {
      const { items, meta } = outlets.listFees(query);
      return ok({ 'partner-payout-outlet-fees': items, meta });
    },
    quotePartnerPayoutOutletFee: ({ body }) => {
      const outlet = outlets.requirePayoutOutlet(body.outlet_id, 'outlet_id');
      // The body validator has already proved the amount parses (x-amount).
      const quote = outlets.quote(outlet, parseAmount(body.amount));
      return ok({ 'partner-payout-outlet-fee': outlets.quoteResource(quote) });
    },
    getSellQuote: ({ query }) => {
      if (query.payment_outlet === undefined && query.outlet_id === undefined) {
        return ok(
          allOutletsSellQuote(
            { outlets: outlets.payoutOutlets(), quote: outlets.quote },
            {
              btc:
                query.btc_amount === undefined
                  ? undefined
                  : queryAmount(query.btc_amount, 'btc_amount'),
              pesos: query.amount === undefined ? undefined : queryAmount(query.amount),
              currency: query.currency,
            },
          ),
        );
      }
      if (query.amount === undefined) throw ApiError.field('amount', 'This field is required.');
      const field = query.payment_outlet !== undefined ? 'payment_outlet' : 'outlet_id';
      const outlet = outlets.requirePayoutOutlet(query.payment_outlet ?? query.outlet_id, field);
      if (query.currency !== undefined && query.currency !== outlet.currency) {
        throw ApiError.field('currency', `${outlet.name} pays out in ${outlet.currency} only.`);
      }
      const quote = outlets.quote(outlet, queryAmount(query.amount));
      return ok({ quote: outlets.quoteResource(quote) });
    },
    validateOutletField: ({ body }) => ok(directory.validateField(body)),
  };
}
