/**
 * An in-process "deliveries changed" signal for the long-poll of `listDeliveries` (`wait=N`).
 *
 * Every change bumps one version number and schedules one check per burst of changes (a microtask):
 * waiters are grouped by what they wait for (their filter), each group's query runs once for that
 * version and its answer is shared by every waiter of the group. So a write costs one query per
 * distinct filter in wait, never one per waiter (500 waiters on the same filter: one query). At most
 * `maxWaiters` wait at once; one more is refused (`TooManyWaiters`) rather than slowing every write.
 */
export function createDeliveryNotifier(opts: { maxWaiters: number }) {
  interface Group {
    matches: () => boolean;
    finishers: Set<(matched: boolean) => void>;
  }
  const groups = new Map<string, Group>();
  let waiting = 0;
  let version = 0;
  let checkedVersion = 0;
  let checks = 0;
  let scheduled = false;

  function runChecks(): void {
    scheduled = false;
    if (checkedVersion === version) return;
    checkedVersion = version;
    for (const group of [...groups.values()]) {
      let ok = false;
      checks++;
      try {
        ok = group.matches();
      } catch {
        ok = false; // the database went away (reset or close): answer with what there is
        for (const finish of [...group.finishers]) finish(false);
        continue;
      }
      if (ok) for (const finish of [...group.finishers]) finish(true);
    }
  }

  return {
    /** Something about deliveries changed: a new version; the groups re-check once per burst of changes. */
    notify(): void {
      version++;
      if (scheduled || waiting === 0) return;
      scheduled = true;
      queueMicrotask(runChecks);
    },

    /**
     * Resolve true as soon as `matches()` holds (now, or after a change), false after `timeoutMs` of
     * real time or when `signal` aborts (the client went away). Waiters with the same `key` share one
     * check per change: `matches` must mean the same for them. The wait is wall-clock by nature: a
     * caller asks to be answered within N real seconds, whatever the sandbox clock does. Throws
     * `TooManyWaiters` when `maxWaiters` are already waiting.
     */
    waitUntil(
      key: string,
      matches: () => boolean,
      timeoutMs: number,
      signal?: AbortSignal,
    ): Promise<boolean> {
      if (matches()) return Promise.resolve(true);
      if (timeoutMs <= 0 || signal?.aborted) return Promise.resolve(false);
      if (waiting >= opts.maxWaiters) throw new TooManyWaiters(opts.maxWaiters);
      let group = groups.get(key);
      if (!group) {
        group = { matches, finishers: new Set() };
        groups.set(key, group);
      }
      const g = group;
      waiting++;
      return new Promise<boolean>((resolve) => {
        const finish = (matched: boolean) => {
          if (!g.finishers.delete(finish)) return;
          waiting--;
          if (g.finishers.size === 0 && groups.get(key) === g) groups.delete(key);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(matched);
        };
        const onAbort = () => finish(false);
        const timer = setTimeout(() => finish(false), timeoutMs);
        g.finishers.add(finish);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },

    /** Waiters now, the change version, and how many group checks ran so far (for tests and diagnostics). */
    stats: () => ({ waiting, version, checks }),

    /** Answer every waiting long-poll now (the sandbox is closing). */
    close(): void {
      for (const group of [...groups.values()])
        for (const finish of [...group.finishers]) finish(false);
    },
  };
}

/** `maxWaiters` long-polls are already waiting. */
export class TooManyWaiters extends Error {
  constructor(readonly max: number) {
    super(`${max} long-polls are already waiting`);
  }
}

export type DeliveryNotifier = ReturnType<typeof createDeliveryNotifier>;
