/** Exact decimal arithmetic for money checks: amounts as bigint units of 1e-8 (the wire's 8 digits). */
import { itemAt } from '../../src/shared/defined.js';

const SCALE = 8;

/** `"20.5"` or `"20.50000000"` → 2050000000n. */
export function units(text: string): bigint {
  const m = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!m) throw new Error(`not a plain decimal: ${JSON.stringify(text)}`);
  const frac = (m[2] ?? '').padEnd(SCALE, '0');
  if (frac.length > SCALE && /[1-9]/.test(frac.slice(SCALE)))
    throw new Error(`more than ${SCALE} decimals: ${text}`);
  return BigInt(itemAt(m, 1)) * 10n ** BigInt(SCALE) + BigInt(frac.slice(0, SCALE) || '0');
}

/** 2050000000n → `"20.50000000"` (the wire format). */
export function money(u: bigint): string {
  const s = u.toString().padStart(SCALE + 1, '0');
  return `${s.slice(0, -SCALE)}.${s.slice(-SCALE)}`;
}

/**
 * amount × fraction (`fee_percent`, "0.01" = 1 %), exact: returns the floor in units and whether it was
 * exact, so a check can accept either rounding of an inexact fee (the document does not fix one).
 */
export function fractionOf(
  amountUnits: bigint,
  fractionText: string,
): { floor: bigint; exact: boolean } {
  const [whole, frac = ''] = fractionText.split('.');
  const denominator = 10n ** BigInt(frac.length);
  const numerator = amountUnits * BigInt(`${whole}${frac}`);
  return { floor: numerator / denominator, exact: numerator % denominator === 0n };
}
