/**
 * Exact money: integers of 1e-8 units (BigInt), formatted once at the edge as strings with exactly
 * 8 fractional digits (docs/design.md#wire-conventions).
 */
import { trimEnd } from './trim.js';
export const UNITS_PER_PESO = 100_000_000n;
const FRACTION_DIGITS = 8;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;
/**
 * The bounds that keep every stored figure exact (docs/design.md#money-bounds). SQLite stores an
 * INTEGER in 64 bits (up to about 9.22e18 units) and silently switches to floating point past that, so:
 *
 * - one amount (an invoice, an order, a transfer, a funding, a converted amount) is at most
 *   10,000,000,000 (1e18 units);
 * - every cached figure of an account (the balance of a wallet or of a system account, positive or
 *   negative, and a wallet's `total_received`) stays within ±90,000,000,000 (9e18 units).
 *
 * The ledger refuses, with a 400 on `amount` and before anything is written, any posting that would
 * take a figure past its bound; a balance plus one more amount (at most 1e19) never wraps around in the
 * check itself, which SQLite computes in floating point past int64.
 */
export const MAX_AMOUNT_UNITS = 10_000_000_000n * UNITS_PER_PESO;
/** The most a merchant limit (`max_invoice_amount`) or an app's daily buy limit may be: read back as JS numbers. */
export const MAX_MERCHANT_LIMIT_UNITS = 10_000_000n * UNITS_PER_PESO;
/** The largest magnitude of any account's cached balance or total received (see MAX_AMOUNT_UNITS). */
export const MAX_ACCOUNT_UNITS = 90_000_000_000n * UNITS_PER_PESO;

export type AmountProblem = 'invalid' | 'too_many_digits' | 'not_positive' | 'too_large';

export class AmountError extends Error {
  constructor(
    readonly problem: AmountProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Shortest round-trip decimal of a JS number, without exponent (1e-7 → "0.0000001"). */
function numberToPlainDecimal(n: number): string | null {
  // Stryker disable next-line ConditionalExpression: String() of NaN or Infinity fails the pattern below anyway
  if (!Number.isFinite(n)) return null;
  const text = String(Math.abs(n));
  // Stryker disable next-line Regex: String() of a finite number always matches as a whole, whatever the anchors
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(text);
  // Stryker disable next-line ConditionalExpression: never null for String() of a finite number; kept for the type checker
  if (!m) return null;
  // Stryker disable next-line StringLiteral: group 1 always matches
  const intPart = m[1] ?? '0';
  const fracPart = m[2] ?? '';
  const exp = Number(m[3] ?? 0);
  const digits = intPart + fracPart;
  const point = intPart.length + exp;
  let plain: string;
  // Stryker disable next-line EqualityOperator: String() uses an exponent only below 1e-6, so point is at most -6 here, never 0
  if (point <= 0) plain = '0.' + '0'.repeat(-point) + digits;
  else if (point >= digits.length) plain = digits + '0'.repeat(point - digits.length);
  else plain = digits.slice(0, point) + '.' + digits.slice(point);
  return (n < 0 ? '-' : '') + plain;
}

/**
 * Parse an input amount (JSON number or numeric string) into units. Rejects exponents, signs,
 * NaN, more than 8 fractional digits, zero and negatives.
 */
export function parseAmount(input: unknown, opts: { allowZero?: boolean } = {}): bigint {
  let text: string | null;
  if (typeof input === 'number') text = numberToPlainDecimal(input);
  else if (typeof input === 'string') {
    // Stryker disable next-line ConditionalExpression,MethodExpression: surrounding whitespace fails DECIMAL below anyway; refused here explicitly
    text = input.trim() === input ? input : null;
  } else text = null;
  // Stryker disable next-line MethodExpression: a leading "+" fails DECIMAL below anyway
  if (text === null || text.startsWith('-') || text.startsWith('+')) {
    if (text !== null && text.startsWith('-'))
      throw new AmountError('not_positive', 'Ensure this value is greater than 0.');
    throw new AmountError('invalid', 'A valid number is required.');
  }
  const m = DECIMAL.exec(text);
  if (!m) throw new AmountError('invalid', 'A valid number is required.');
  const frac = trimEnd(m[2] ?? '', '0');
  if (frac.length > FRACTION_DIGITS) {
    throw new AmountError(
      'too_many_digits',
      'Ensure that there are no more than 8 decimal places.',
    );
  }
  // Stryker disable next-line StringLiteral: group 1 always matches and padEnd never returns ""
  const units =
    BigInt(m[1] ?? '0') * UNITS_PER_PESO + BigInt(frac.padEnd(FRACTION_DIGITS, '0') || '0');
  if (units === 0n && !opts.allowZero)
    throw new AmountError('not_positive', 'Ensure this value is greater than 0.');
  if (units > MAX_AMOUNT_UNITS)
    throw new AmountError('too_large', 'Ensure this value is less than or equal to 10000000000.');
  return units;
}

/** Format units as `<digits>.<8 digits>`; negative values keep their sign (ledger views only). */
export function formatMoney(units: bigint | number): string {
  const v = BigInt(units);
  const neg = v < 0n;
  const abs = neg ? -v : v;
  const whole = abs / UNITS_PER_PESO;
  const frac = (abs % UNITS_PER_PESO).toString().padStart(FRACTION_DIGITS, '0');
  return `${neg ? '-' : ''}${whole}.${frac}`;
}

/** A human form without trailing zeros, for messages ("10000 PHP"). */
export function formatMoneyShort(units: bigint | number): string {
  const short = trimEnd(formatMoney(units), '0');
  return short.endsWith('.') ? short.slice(0, -1) : short;
}

/**
 * An amount as the real developer API writes it: the stored decimal without padding ("5", "0.00205",
 * "0"), as in the recorded sell orders, buy orders and transfers (docs/design.md#wire-conventions).
 */
export const formatDecimal = formatMoneyShort;

/**
 * units × fraction (a decimal string such as "0.015", meaning 1.5 %: how the real service writes
 * `fee_percent`), rounded half up to a unit.
 */
export function fractionOf(units: bigint, fraction: string): bigint {
  const m = DECIMAL.exec(fraction);
  if (!m) throw new Error(`bad fraction ${fraction}`);
  const frac = m[2] ?? '';
  const denominator = 10n ** BigInt(frac.length);
  // Stryker disable next-line StringLiteral: group 1 always matches
  const p = BigInt((m[1] ?? '0') + frac);
  return (units * p * 2n + denominator) / (2n * denominator);
}
