import { trimEnd } from '../shared/trim.js';
import { formatDecimal, formatMoney, formatMoneyShort } from '../shared/money.js';
import { PAYIN_LIMITS, categoryOf, type OutletCategory } from './outlets.catalog.js';
import type {
  AmountRange,
  FeeBracketRow,
  PayinOutletRow,
  PayoutOutletRow,
} from './outlets.repo.js';
import type { FeeQuote } from './outlets.types.js';

/** The sandbox keeps amounts to 8 decimals, so that is the step an outlet accepts. */
const INCREMENT = 0.00000001;
/** Every outlet of the sandbox is in the Philippines. */
export const REGION = 'PH';

const limitOf = (currency: string, r: AmountRange) => ({
  currency,
  minimum: Number(formatMoneyShort(r.minimum)),
  maximum: Number(formatMoneyShort(r.maximum)),
  increment: INCREMENT,
});

/** `payment_outlet_type` / a category list item: the real service's shape, with the outlets of the category. */
export function categoryResource(
  cat: OutletCategory,
  members: Array<{ id: string; name: string }>,
) {
  return {
    id: cat.id,
    name: cat.name,
    fields: cat.fields,
    optional_fields: [],
    remittance_fields: [],
    // The payout categories' doc calls the texts fee_info / payout_duration, the pay-in categories' and
    // the first payment_outlet_type fee_structure_description / payout_duration_description: both are written.
    fee_info: cat.fee_info,
    fee_structure_description: cat.fee_info,
    payout_duration: cat.payout_duration,
    payout_duration_description: cat.payout_duration,
    outlets: members.map((m) => m.id),
    outlet_names_subset: members.slice(0, 2).map((m) => m.name),
    is_express: false,
    is_commodity_outlet: false,
  };
}

/** The fields the real outlet resources carry besides id, name, category and limits (as observed). */
function common(cat: OutletCategory, instructions: string) {
  return {
    denominations: [],
    region: REGION,
    verification_level_requirement: 0,
    help_text: '',
    help_link: '',
    disabled_notice: '',
    disclaimer_notice: '',
    logo_url: '',
    instructions,
    payout_duration: cat.payout_duration || null,
    is_express: false,
    is_custom_denomination_allowed: true,
    is_email_required: false,
    importance: null,
    is_enabled: true,
    fields: cat.fields,
  };
}

/**
 * A payout outlet in the real resource's shape: its category is `outlet_category` (and
 * `payment_outlet_type`), its currency that of its `amount_limits`, the span of its fee brackets (an
 * amount outside them cannot be paid out).
 */
export function payoutOutletResource(
  o: PayoutOutletRow,
  range: AmountRange | undefined,
  siblings: PayoutOutletRow[],
) {
  const cat = categoryOf(o.category) ?? {
    id: o.category,
    name: o.category,
    kind: 'payout' as const,
    fields: [],
    payout_duration: '',
    fee_info: '',
  };
  return {
    id: o.id,
    name: o.name,
    outlet_category: cat.id,
    payment_outlet_type: categoryResource(
      cat,
      siblings.filter((s) => s.category === o.category),
    ),
    amount_limits: range ? [limitOf(o.currency, range)] : [],
    ...common(cat, ''),
  };
}

/** A pay-in (over-the-counter) outlet, known on the wire by its collector id (`seven_connect_deposit` …). */
export function payinOutletResource(o: PayinOutletRow, all: PayinOutletRow[]) {
  const cat = categoryOf('nonbank-otc')!;
  return {
    id: o.collector,
    outlet_category: cat.id,
    payment_outlet_type: categoryResource(
      cat,
      all.map((p) => ({ id: p.collector, name: p.name })),
    ),
    amount_limits: [
      {
        currency: o.currency,
        minimum: Number(PAYIN_LIMITS.minimum),
        maximum: Number(PAYIN_LIMITS.maximum),
        increment: INCREMENT,
      },
    ],
    name: o.name,
    ...common(cat, o.instructions),
  };
}

/** Counter pay-ins cost the payer nothing in the sandbox: one zero bracket over the outlet's limits. */
export function payinFeeResource(o: PayinOutletRow) {
  const units = (s: string) => BigInt(s) * 100_000_000n;
  return {
    payment_outlet: o.collector,
    currency: o.currency,
    from_amount: formatDecimal(units(PAYIN_LIMITS.minimum)),
    until_amount: formatDecimal(units(PAYIN_LIMITS.maximum)),
    fee_amount: formatDecimal(0n),
    fee_percent: '0',
  };
}

/**
 * `fee_percent` as the recorded fee lists write it: the stored fraction without trailing zeros
 * ("0.0100" → "0.01", "0.00" → "0", "0.0075" stays).
 */
export function feePercentText(p: string): string {
  return p.includes('.') ? trimEnd(p, '0').replace(/\.$/, '') : p;
}

/**
 * `payout-outlet-fees` item (real-api-facts: payment_outlet, currency, from/until, fee_amount,
 * fee_percent), the amounts written as stored, without padding ("0", "1000", "10"), as every recorded
 * fee list writes them (outlets.har#3, #4, #8, #9).
 */
export function feeBracketResource(b: FeeBracketRow) {
  return {
    id: b.id,
    payment_outlet: b.outlet_id,
    currency: b.currency,
    from_amount: formatDecimal(b.from_amount),
    until_amount: formatDecimal(b.until_amount),
    fee_amount: formatDecimal(b.fee_amount),
    fee_percent: feePercentText(b.fee_percent),
  };
}

/** A fee quote: its bracket, with the amount, the fee and the total. */
export function feeQuoteResource(q: FeeQuote) {
  return {
    ...feeBracketResource(q.bracket),
    amount: formatMoney(q.amount),
    fee: formatMoney(q.fee),
    total: formatMoney(q.total),
  };
}
