/**
 * Wait, bounded, until `read()` satisfies `ok` (the dispatcher works in the background; tests observe
 * the rows it writes). Polls every 5 ms; fails with the last value read after `timeoutMs`.
 */
export async function until<T>(
  read: () => T,
  ok: (v: T) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const end = performance.now() + timeoutMs;
  for (;;) {
    const v = read();
    if (ok(v)) return v;
    if (performance.now() > end)
      throw new Error(`timed out waiting for ${what}: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
