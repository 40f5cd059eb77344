/**
 * Test support: wait for a condition, not for an amount of time. Polls `check` every `everyMs` until it
 * returns something other than `undefined`/`false`, or fails after `timeoutMs` naming what it waited for.
 * The bound is generous on purpose (a busy 2-core CI machine may be many times slower than a laptop):
 * a passing test returns as soon as the condition holds, so the bound costs nothing when all is well.
 */
export async function waitUntil<T>(
  what: string,
  check: () => T | false | undefined | Promise<T | false | undefined>,
  opts: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? WAIT_BOUND_MS);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${opts.timeoutMs ?? WAIT_BOUND_MS} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 25));
  }
}

/** The default bound of a wait in a test. */
export const WAIT_BOUND_MS = 30_000;
