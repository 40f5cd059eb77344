import { ApiError } from '../shared/api-error.js';
import { BalanceLimitError } from '../ledger/ledger.api.js';
import {
  AmountError,
  formatMoneyShort,
  MAX_AMOUNT_UNITS,
  parseAmount,
  UNITS_PER_PESO,
} from '../shared/money.js';
import { INBOX_PREFIX, isInboxPath, isSandboxPath } from '../shared/sandbox-url.js';

/**
 * Ceilings for amounts the control API accepts: one amount is at most what any amount of the sandbox may
 * be (`MAX_AMOUNT_UNITS`, 10000000000, docs/design.md#money-bounds); merchant limits are read back as JS
 * numbers, so they stay well inside that.
 */
export const MAX_CONTROL_AMOUNT_UNITS = MAX_AMOUNT_UNITS;
export const MAX_MERCHANT_LIMIT_UNITS = 10_000_000n * UNITS_PER_PESO;

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
 * A merchant's `callback_url` or `redirect_url`: an absolute http(s) URL, null, or a path on the sandbox
 * itself (src/shared/sandbox-url.ts), resolved when used — for callbacks only the example receiver
 * (`/_sandbox/inbox/<merchant id>`), for redirects any page of the sandbox.
 */
const URL_HINT = {
  callback_url: `Enter an absolute http:// or https:// URL, the example receiver ${INBOX_PREFIX}<merchant id>, or null.`,
  redirect_url: 'Enter an absolute http:// or https:// URL, a path on this sandbox (/…), or null.',
};

export function merchantUrl(value: unknown, field: 'callback_url' | 'redirect_url'): string | null {
  if (typeof value === 'string' && isSandboxPath(value)) {
    if (field === 'redirect_url' || isInboxPath(value)) return value;
    throw ApiError.field(
      field,
      `On the sandbox itself a callback_url can only be its example receiver, ${INBOX_PREFIX}<merchant id>.`,
    );
  }
  if (value === null) return null;
  let url: URL | null = null;
  try {
    url = typeof value === 'string' ? new URL(value) : null;
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw ApiError.field(field, URL_HINT[field]);
  }
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
