import { ApiError } from '../shared/api-error.js';
import { itemAt } from '../shared/defined.js';
import { parseAmount } from '../shared/money.js';
import type { OutletService } from '../outlets/outlets.service.js';
import { BANK_DEPOSIT_METHODS, CASH_PAYMENT, CASH_PAYMENT_COLLECTORS } from './buy-orders.model.js';

/** The body of `POST /v2/buyorder` as the document accepts it. */
export interface BuyOrderPlaceBody {
  currency_amount?: number | string;
  amount?: number | string;
  btc_amount?: number | string;
  payment_method?: string;
  currency?: string;
}

/** The pay-in outlets a payment method may name (the outlets module's). */
export type Payins = Pick<OutletService, 'payinOutlet' | 'payinNames' | 'payinOutlets'>;

/** A buy order's payment method: cash, a bank deposit, or a pay-in outlet by name. */
export function buyPaymentMethod(payins: Payins, value: string | undefined) {
  if (value === undefined) throw ApiError.field('payment_method', 'This field is required.');
  const cashOutlets = payins.payinNames(CASH_PAYMENT_COLLECTORS);
  if (value === CASH_PAYMENT || Object.hasOwn(BANK_DEPOSIT_METHODS, value))
    return { collector: value, cashOutlets };
  const outlet = payins.payinOutlet(value);
  if (!outlet) throw ApiError.field('payment_method', `"${value}" is not a valid choice.`);
  return { collector: outlet.collector, outlet, cashOutlets };
}

export type BuyPaymentMethod = ReturnType<typeof buyPaymentMethod>;

/** The one amount of a create body: `currency_amount`, `amount` or `btc_amount`, equal at the sandbox rate of 1. */
export function buyOrderAmount(body: BuyOrderPlaceBody): bigint {
  const given = (['currency_amount', 'amount', 'btc_amount'] as const).filter(
    (k) => body[k] !== undefined,
  );
  if (!given.length) throw ApiError.field('currency_amount', 'This field is required.');
  const values = given.map((k) => parseAmount(body[k]));
  const differs = given.find((_, i) => values[i] !== values[0]);
  if (differs) throw ApiError.field(differs, `Must equal ${given[0]} (the sandbox rate is 1).`);
  return itemAt(values, 0);
}
