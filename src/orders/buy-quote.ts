import { ApiError } from '../shared/api-error.js';
import { AmountError, formatDecimal, parseAmount } from '../shared/money.js';
import { categoryOf } from '../outlets/outlets.catalog.js';
import { BANK_DEPOSIT_METHODS, walletCurrency } from './buy-orders.model.js';

interface PayinOutlet {
  name: string;
  collector: string;
  instructions: string;
}

/** An amount from the query string, with the body's amount rules, as a field error. */
function queryAmount(text: string | undefined, field: string): bigint | undefined {
  if (text === undefined) return undefined;
  try {
    return parseAmount(text);
  } catch (e) {
    if (e instanceof AmountError) throw ApiError.field(field, e.message);
    throw e;
  }
}

/**
 * `GET /v2/buyquote` (docs/fidelity.md): the 2014 docs' buy quote (parity/recorded quotes.har#1), one entry
 * per payment method a buy order takes, keyed by it: the recorded bank deposits and each pay-in outlet's
 * collector. Money is written as strings, `rate` and `btc_amount` as numbers, as recorded. A buy order has
 * no fee and rate 1 in the sandbox (it buys into a wallet of its own currency): subtotal = total = amount.
 */
export function buyQuote(
  payins: PayinOutlet[],
  query: { btc_amount?: string; amount?: string; currency?: string },
) {
  const q = {
    btc: queryAmount(query.btc_amount, 'btc_amount'),
    amount: queryAmount(query.amount, 'amount'),
    currency: query.currency,
  };
  const currency = walletCurrency(q.currency);
  if (currency !== 'PHP')
    throw ApiError.field('currency', `"${q.currency}" is not a valid choice.`);
  if (q.btc !== undefined && q.amount !== undefined && q.btc !== q.amount)
    throw ApiError.field('amount', 'Must equal btc_amount (the sandbox rate is 1).');
  const units = q.btc ?? q.amount;
  if (units === undefined) throw ApiError.field('btc_amount', 'This field is required.');
  const money = formatDecimal(units);
  const entry = (id: string, name: string, help: string, type: { id: string; name: string }) => ({
    available: true,
    coins_fee: '0',
    collections_outlet: true,
    fee: '0',
    help_link: '',
    help_text: help,
    name,
    outlet_id: id,
    outlet_type_id: type.id,
    outlet_type_name: type.name,
    required_fields: [] as string[],
    subtotal: money,
    total: money,
  });
  const bank = { id: 'bank_deposit', name: 'Bank Deposit' };
  const counter = categoryOf('nonbank-otc') ?? { id: 'nonbank-otc', name: 'Non-bank OTC' };
  const outlets: Record<string, ReturnType<typeof entry>> = {};
  for (const [id, name] of Object.entries(BANK_DEPOSIT_METHODS))
    outlets[id] = entry(id, name, `Make a deposit to our ${name} bank account.`, bank);
  for (const o of payins)
    outlets[o.collector] ??= entry(o.collector, o.name, o.instructions, counter);
  return {
    quote: { btc_amount: Number(money), currency, outlets, rate: 1 },
    success: true as const,
  };
}
