import { ApiError } from '../shared/api-error.js';
import { formatDecimal } from '../shared/money.js';
import { PESOS_PER_COIN } from '../shared/rates.js';
import { categoryOf } from './outlets.catalog.js';
import type { PayoutOutletRow } from './outlets.repo.js';
import type { FeeQuote } from './outlets.types.js';

interface SellQuoteItem {
  fee: number;
  outlet_id: string;
  outlet_type_id: string;
  required_fields: string[];
  subtotal: number;
  total: number;
}

/** A money figure as the 2014 sell quote writes it: a JSON number ("fee": 0.00 → 0, "subtotal": 26622). */
const asNumber = (units: bigint) => Number(formatDecimal(units));

/**
 * `GET /v2/sellquote` without an outlet (docs/fidelity.md): the 2014 docs' quote of every payout outlet
 * (parity/recorded quotes.har#0), keyed by outlet id, money as JSON numbers. `btc_amount` is sold at the
 * sandbox rate table (PESOS_PER_COIN) or `amount` names the pesos; per outlet the fee of that subtotal
 * is taken off (`total` = `subtotal` − `fee`), as the recorded quote does. An outlet whose fee brackets
 * do not hold the subtotal cannot pay it out and is left out.
 */
export function allOutletsSellQuote(
  o: {
    outlets: PayoutOutletRow[];
    quote: (outlet: PayoutOutletRow, amount: bigint) => FeeQuote;
  },
  q: { btc: bigint | undefined; pesos: bigint | undefined; currency: string | undefined },
) {
  const currency = q.currency ?? 'PHP';
  if (currency !== 'PHP') throw ApiError.field('currency', `"${currency}" is not a valid choice.`);
  const rate = PESOS_PER_COIN.BTC ?? 0n;
  let subtotal: bigint;
  let btc: bigint;
  if (q.pesos !== undefined) [subtotal, btc] = [q.pesos, (q.pesos + rate - 1n) / rate];
  else if (q.btc !== undefined) [subtotal, btc] = [q.btc * rate, q.btc];
  else throw ApiError.field('btc_amount', 'This field is required.');
  const outlets: Record<string, SellQuoteItem> = {};
  for (const outlet of o.outlets.filter((x) => x.currency === currency)) {
    let fee: bigint;
    try {
      fee = o.quote(outlet, subtotal).fee;
    } catch (err) {
      if (err instanceof ApiError) continue;
      throw err;
    }
    outlets[outlet.id] = {
      fee: asNumber(fee),
      outlet_id: outlet.id,
      outlet_type_id: outlet.category,
      required_fields: (categoryOf(outlet.category)?.fields ?? []).map((f) => f.id),
      subtotal: asNumber(subtotal),
      total: asNumber(subtotal > fee ? subtotal - fee : 0n),
    };
  }
  return {
    quote: { btc_amount: asNumber(btc), currency, outlets, rate: Number(rate) },
    success: true as const,
  };
}
