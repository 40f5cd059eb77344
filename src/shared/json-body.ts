import { trimEnd, trimStart } from './trim.js';
import { ApiError } from './api-error.js';

/**
 * Parsing of every JSON request body (developer, merchant and control API alike).
 *
 * - Nesting is limited to `MAX_JSON_DEPTH` levels of arrays and objects, checked on the raw text
 *   before anything else: a 60 KiB body can nest 30,000 levels, and deep values overflow the stack
 *   later (`JSON.stringify` when the value is stored), far from the request. Refused with 400
 *   `validation_error`.
 * - Numbers whose text `JSON.parse` does not keep are remembered per (container, key) with their source
 *   text: those written in exponent form (`1e2`, `1e-7`) and those with more significant digits than a
 *   double holds (`12345678.123456789`, `1.0000000000000001`). `JSON.parse` gives `100` for `1e2` and
 *   `12345678.12345679` for the second, but an amount must be judged by what the client wrote, exactly as
 *   the same text in a string is (see `numberSourceOf`, used by the `x-amount` schema keyword).
 */

/** Deepest nesting of arrays and objects accepted in a request body (`{"a": [1]}` is 2 levels). */
export const MAX_JSON_DEPTH = 32;

const numberSources = new WeakMap<object, Map<string, string>>();

/**
 * The text of `parent[key]` as the request body wrote it, when it was a number that `JSON.parse` does not
 * keep exactly (an exponent, or more than 15 significant digits); undefined otherwise.
 */
export function numberSourceOf(parent: unknown, key: unknown): string | undefined {
  if (parent === null || typeof parent !== 'object') return undefined;
  return numberSources.get(parent)?.get(String(key));
}

/** True when `parent[key]` was written in the request body as a number with an exponent. */
export function isExponentNumber(parent: unknown, key: unknown): boolean {
  return /[eE]/.test(numberSourceOf(parent, key) ?? '');
}

/** More significant digits than a double keeps (15 always survive a round trip). */
const MAX_EXACT_DIGITS = 15;

/** Whether a number's text may not survive `JSON.parse` exactly: an exponent, or too many digits. */
function lossy(text: string): boolean {
  if (/[eE]/.test(text)) return true;
  const digits = trimEnd(trimStart(text.replace(/^-/, '').replace('.', ''), '0'), '0');
  return digits.length > MAX_EXACT_DIGITS;
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/**
 * One pass over the text outside strings: the deepest nesting, stopping as soon as it passes `limit`,
 * and whether any number may be lossy: it has an exponent (an `e`/`E` outside a string right after a
 * digit: in valid JSON the only other letters there are in true, false and null), or a run of more
 * than 15 digits (dots aside) — a cheap over-estimate, so the exact look (`lossy`) is rarely needed.
 */
function scan(text: string, limit: number): { tooDeep: boolean; exponent: boolean } {
  let depth = 0;
  let exponent = false;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (isDigit(c)) {
      if (++run > MAX_EXACT_DIGITS) exponent = true;
      continue;
    }
    if (c !== 46 /* . */) run = 0;
    if (c === 34 /* " */) {
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 92 /* \ */) i++;
        else if (s === 34) break;
      }
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > limit) return { tooDeep: true, exponent };
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--;
    } else if (
      (c === 101 /* e */ || c === 69) /* E */ &&
      i > 0 &&
      isDigit(text.charCodeAt(i - 1))
    ) {
      exponent = true;
    }
  }
  return { tooDeep: false, exponent };
}

type Frame =
  { array: true; index: number } | { array: false; key: string | undefined; expectKey: boolean };

/**
 * The path (keys and indexes) of every number in the text, each with whether it was written with an
 * exponent. Later duplicates of a key replace earlier ones, as in `JSON.parse`. Only called on text
 * that `JSON.parse` accepted and that has an exponent somewhere (rare), so it need not be fast.
 */
function numberPaths(text: string): Map<string, { path: string[]; source: string }> {
  const found = new Map<string, { path: string[]; source: string }>();
  const stack: Frame[] = [];
  const path = () => stack.map((f) => (f.array ? String(f.index) : (f.key ?? '')));
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const top = stack[stack.length - 1];
    if (c === 34) {
      const start = i;
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 92) i++;
        else if (s === 34) break;
      }
      if (top && !top.array && top.expectKey)
        top.key = JSON.parse(text.slice(start, i + 1)) as string;
    } else if (c === 123) {
      stack.push({ array: false, key: undefined, expectKey: true });
    } else if (c === 91) {
      stack.push({ array: true, index: 0 });
    } else if (c === 93 || c === 125) {
      stack.pop();
    } else if (c === 44 /* , */) {
      if (top?.array) top.index++;
      else if (top) top.expectKey = true;
    } else if (c === 58 /* : */) {
      if (top && !top.array) top.expectKey = false;
    } else if (c === 45 /* - */ || isDigit(c)) {
      let j = i;
      while (j < text.length && /[-+.eE0-9]/.test(text.charAt(j))) j++;
      const p = path();
      found.set(JSON.stringify(p), { path: p, source: text.slice(i, j) });
      i = j - 1;
    }
  }
  return found;
}

/** Remember, on the parsed value, the source text of each number that `JSON.parse` may not keep. */
function markLossyNumbers(root: unknown, text: string): void {
  for (const { path, source } of numberPaths(text).values()) {
    const key = path.at(-1);
    if (!lossy(source) || key === undefined) continue;
    let parent: unknown = root;
    for (const key of path.slice(0, -1)) {
      parent =
        parent !== null && typeof parent === 'object' && Object.hasOwn(parent, key)
          ? (parent as Record<string, unknown>)[key]
          : undefined;
    }
    if (parent === null || typeof parent !== 'object' || !Object.hasOwn(parent, key)) continue;
    if (typeof (parent as Record<string, unknown>)[key] !== 'number') continue;
    let sources = numberSources.get(parent);
    if (!sources) numberSources.set(parent, (sources = new Map()));
    sources.set(key, source);
  }
}

/**
 * A request body as JSON: 400 `validation_error` when nested deeper than `MAX_JSON_DEPTH`, 400
 * `malformed_json` when it is not JSON.
 */
export function parseJsonBody(text: string): unknown {
  const { tooDeep, exponent } = scan(text, MAX_JSON_DEPTH);
  if (tooDeep) {
    throw ApiError.general(
      'validation_error',
      `JSON nesting is too deep: at most ${MAX_JSON_DEPTH} levels of arrays and objects.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw ApiError.general('malformed_json', `JSON parse error - ${(err as Error).message}`);
  }
  if (exponent && value !== null && typeof value === 'object') markLossyNumbers(value, text);
  return value;
}
