import { randomBytes } from 'node:crypto';

// One guard for the CLI and the suite: it lives with the CLI's commands.
export { assertNotProduction, isLoopbackHost } from '../../src/cli/production-guard.js';

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
