/**
 * The rules for a service at a URL that the contract suite (contract-tests/harness) and `paysandbox
 * replay` share: the base URL, pacing, Retry-After, references unique per run, money only when asked.
 */
import { randomBytes } from 'node:crypto';
import { trimEnd } from '../shared/trim.js';

/** Default spacing of request starts against a shared environment. */
export const DEFAULT_MIN_INTERVAL_MS = 200;

/** Why a request or case that moves money is not sent without the opt-in. */
export const MONEY_SKIP_REASON = 'moves money: set CONTRACT_ALLOW_MONEY=1 to run it';

/**
 * Operations that move money on the target: the suite's `money` cases (transfers), and every other way
 * money leaves a wallet or changes currency (sell and load orders, crypto payments, conversions, a buy
 * order marked paid). `paysandbox replay` skips them without CONTRACT_ALLOW_MONEY=1.
 */
export const MONEY_OPERATIONS: ReadonlySet<string> = new Set([
  'createTransfer',
  'createSellOrder',
  'createSellOrderV2',
  'createCryptoPayment',
  'createCryptoExchange',
  'markBuyOrderPaid',
  'markBuyOrderPaidV2',
]);

/** Retry-After on 429/503: up to 3 repeats, each wait at most 30 s (a longer one gives the answer up). */
export const RETRY_AFTER = { retries: 3, maxWaitMs: 30_000 } as const;

/**
 * The suite appends `/v1/…`, `/v3/…` and `/_sandbox/…` itself: a URL with a path (often a copied
 * endpoint) would send every case to the wrong place, so it is refused before anything runs.
 */
export function assertBaseUrl(raw: string): void {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(
      `the base URL (CONTRACT_BASE_URL / --base-url) is not a URL: ${JSON.stringify(raw)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`the base URL must be http(s), got ${url.protocol} in ${raw}`);
  if (trimEnd(url.pathname, '/') !== '' || url.search || url.hash || url.username || url.password) {
    throw new Error(
      `the base URL must be scheme, host and port only, got ${raw} — use ${url.origin}`,
    );
  }
}

/**
 * Space out request starts by at least `minIntervalMs` (shared environments: be a polite client).
 * Zero passes requests straight through.
 */
export function pacedFetch(inner: typeof fetch, minIntervalMs: number): typeof fetch {
  if (minIntervalMs <= 0) return inner;
  let nextAt = 0;
  return async (input, init) => {
    const now = Date.now();
    const at = Math.max(now, nextAt);
    nextAt = at + minIntervalMs;
    if (at > now) await new Promise((r) => setTimeout(r, at - now));
    return inner(input, init);
  };
}

/** Unique per run: goes into every external_transaction_id, so runs never collide. */
export function newRunId(): string {
  return `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
}

/** A factory of references unique within the run: `ct-<run>-<label>-<n>`. */
export function referenceMaker(runId: string): (label: string) => string {
  let n = 0;
  return (label) => `ct-${runId}-${label.replace(/[^a-z0-9-]+/gi, '-').slice(0, 40)}-${++n}`;
}

export function flag(env: Record<string, string | undefined>, name: string): boolean {
  const v = env[name];
  return v !== undefined && !['', '0', 'false', 'no'].includes(v.toLowerCase());
}

export function intFromEnv(
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
): number {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return n;
}
