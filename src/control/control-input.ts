import { ApiError } from '../shared/api-error.js';
import { AmountError, formatMoneyShort, parseAmount, UNITS_PER_PESO } from '../shared/money.js';
import { INBOX_PREFIX, isInboxPath, isSandboxPath } from '../shared/sandbox-url.js';

/**
 * Ceilings for amounts the control API accepts. The generic input ceiling (1e12 pesos = 1e20 units)
 * does not fit SQLite's int64, and merchant maximums are read back as JS numbers, so the control API
 * keeps every amount it stores well inside both.
 */
export const MAX_CONTROL_AMOUNT_UNITS = 1_000_000_000n * UNITS_PER_PESO;
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
