import { ApiError } from '../shared/api-error.js';
import { formatMoneyShort, fractionOf } from '../shared/money.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import type { FeeBracketRow, OutletRepository, PayoutOutletRow } from './outlets.repo.js';
import type { FeeQuote } from './outlets.types.js';
import { feeBracketResource, feeQuoteResource, payoutOutletResource } from './outlets.view.js';

export type { FeeQuote };

/**
 * Payout outlets, their fee brackets and fee quotes (docs/design.md#public-api). The fee of an amount is
 * amount × fee_percent + fee_amount of the bracket whose [from_amount, until_amount] holds it, with
 * fee_percent a fraction ("0.01" = 1 %), exact to the unit (fractionOf rounds half up).
 */
export function createOutletService(repo: OutletRepository) {
  function requirePayoutOutlet(id: string | undefined, field: string): PayoutOutletRow {
    if (id === undefined) throw ApiError.field(field, 'This field is required.');
    const outlet = repo.payoutOutlet(id);
    if (!outlet) throw ApiError.field(field, `Payout outlet "${id}" does not exist.`);
    return outlet;
  }

  function quote(outlet: PayoutOutletRow, amount: bigint): FeeQuote {
    const brackets = repo.brackets(outlet.id);
    const bracket = brackets.find((b) => b.from_amount <= amount && amount <= b.until_amount);
    if (!bracket) {
      const range = brackets.length
        ? ` (${formatMoneyShort(brackets[0]!.from_amount)} to ${formatMoneyShort(brackets.at(-1)!.until_amount)} ${outlet.currency})`
        : '';
      throw ApiError.field(
        'amount',
        `Amount is outside the fee brackets of ${outlet.name}${range}.`,
        'amount_outside_fee_brackets',
      );
    }
    const fee = fractionOf(amount, bracket.fee_percent) + bracket.fee_amount;
    return { outlet, bracket, amount, fee, total: amount + fee };
  }

  return {
    requirePayoutOutlet,
    quote,
    /** An outlet's name ('' for an id no outlet has: an order keeps its outlet id whatever happens). */
    outletName: (id: string) => repo.outletName(id) ?? '',
    /** An outlet's category (null for an id no outlet has). */
    outletCategory: (id: string) => repo.outletCategory(id) ?? null,
    /** Every payout outlet, in fixture order. */
    payoutOutlets: () => repo.allPayoutOutlets(),
    /** The over-the-counter (pay-in) outlets, in fixture order. */
    payinOutlets: () => repo.payinOutlets(),
    /** A pay-in outlet by its id or its collector code. */
    payinOutlet: (idOrCollector: string) => repo.payinOutlet(idOrCollector),
    /** Names of the pay-in outlets of these collectors, in outlet order. */
    payinNames: (collectors: readonly string[]) =>
      repo
        .payinOutlets()
        .filter((o) => collectors.includes(o.collector))
        .map((o) => o.name),
    /** One page of payout outlets; `maxPerPage` is 100 on v1 and 1000 on v4 (its clients ask for 1000). */
    listPayoutOutlets(query: { page?: number; per_page?: number }, maxPerPage = 100) {
      const req = pageRequest({ page: query.page });
      req.perPage = req.limit = Math.min(query.per_page ?? req.perPage, maxPerPage);
      req.offset = (req.page - 1) * req.perPage;
      const all = repo.allPayoutOutlets();
      return {
        'payout-outlets': repo
          .payoutOutletsPage(req.limit, req.offset)
          .map((o) => payoutOutletResource(o, repo.amountRange(o.id), all)),
        meta: pageMeta(req, repo.payoutOutletsCount()),
      };
    },
    /** The full resource of one payout outlet; 404 when there is none. */
    payoutOutletDetail(id: string) {
      const outlet = repo.payoutOutlet(id);
      if (!outlet) throw ApiError.notFound();
      return payoutOutletResource(outlet, repo.amountRange(outlet.id), repo.allPayoutOutlets());
    },
    /** Fee brackets, page-based, optionally of one outlet (the partner and the public list share them). */
    listFees(query: { page?: number; per_page?: number; outlet_id?: string }) {
      const req = pageRequest(query);
      return {
        items: repo.feesPage(query.outlet_id, req.limit, req.offset).map(feeBracketResource),
        meta: pageMeta(req, repo.feesCount(query.outlet_id)),
      };
    },
    quoteResource: feeQuoteResource,
  };
}

export type OutletService = ReturnType<typeof createOutletService>;
