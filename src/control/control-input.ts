import { ApiError } from '../shared/api-error.js';
import { BalanceLimitError } from '../ledger/ledger.api.js';
import { AmountError, formatMoneyShort, MAX_AMOUNT_UNITS, parseAmount } from '../shared/money.js';
import { merchantUrlProblem, type MerchantUrlScope } from '../shared/sandbox-url.js';

/**
 * The ceiling of an amount the control API accepts: what any amount of the sandbox may be
 * (`MAX_AMOUNT_UNITS`, 10000000000, docs/design.md#money-bounds); merchant limits have their own,
 * `MAX_MERCHANT_LIMIT_UNITS`.
 */
export const MAX_CONTROL_AMOUNT_UNITS = MAX_AMOUNT_UNITS;

/** An optional amount field: exact units, or a field error (never a 5xx) when it is out of range. */
export function amountInput(value: unknown, field: string, max = MAX_CONTROL_AMOUNT_UNITS): bigint {
  let units: bigint;
  try {
    units = parseAmount(value);
  } catch (err) {
    if (err instanceof AmountError) throw ApiError.field(field, err.message);
    throw err;
  }
  if (units > max)
    throw ApiError.field(field, `Ensure this value is at most ${formatMoneyShort(max)}.`);
  return units;
}

/**
 * Run `work` (which funds an account with the amount of `field`); a bound the funding would pass is
 * reported on `field` (e.g. `balance` of a new app), not on the ledger's own `amount`.
 */
export function fundingOf<T>(field: string, work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (!(err instanceof BalanceLimitError) || field === 'amount') throw err;
    throw new ApiError(err.code, { [field]: err.errors.amount ?? [err.message] });
  }
}

/**
 * A merchant's `callback_url` or `redirect_url` as given (null clears it), or 400 on the field; `scope`
 * says whose example receiver it may name (src/shared/sandbox-url.ts).
 */
export function merchantUrl(
  value: unknown,
  field: 'callback_url' | 'redirect_url',
  scope: MerchantUrlScope,
): string | null {
  if (value === null) return null;
  const problem = merchantUrlProblem(typeof value === 'string' ? value : '', field, scope);
  if (problem !== null) throw ApiError.field(field, problem);
  return value as string;
}

/** Collect field errors from several checks so one response reports all of them. */
export function collectFieldErrors<T extends Record<string, unknown>>(checks: {
  [K in keyof T]: () => T[K];
}): T {
  const out = {} as T;
  const errors: Record<string, string[]> = {};
  for (const key of Object.keys(checks) as Array<keyof T>) {
    try {
      out[key] = checks[key]();
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'validation_error') throw err;
      Object.assign(errors, err.errors);
    }
  }
  if (Object.keys(errors).length) throw new ApiError('validation_error', errors);
  return out;
}
