/**
 * An in-process "deliveries changed" signal for the long-poll of `listDeliveries` (`wait=N`): waiters
 * re-check their query after each change instead of polling the database on a timer.
 */
export function createDeliveryNotifier() {
  const waiters = new Map<() => void, (matched: boolean) => void>();
  let scheduled = false;

  return {
    /** Something about deliveries changed; waiters re-check once per burst of changes. */
    notify(): void {
      if (scheduled || waiters.size === 0) return;
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        for (const check of [...waiters.keys()]) check();
      });
    },

    /**
     * Resolve true as soon as `matches()` holds (now, or after a change), false after `timeoutMs` of
     * real time or when `signal` aborts (the client went away). The wait is wall-clock by nature: a
     * caller asks to be answered within N real seconds, whatever the sandbox clock does.
     */
    waitUntil(matches: () => boolean, timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
      if (matches()) return Promise.resolve(true);
      if (timeoutMs <= 0 || signal?.aborted) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const finish = (matched: boolean) => {
          waiters.delete(check);
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(matched);
        };
        const check = () => {
          let ok = false;
          try {
            ok = matches();
          } catch {
            finish(false); // the database went away (reset or close): answer with what there is
            return;
          }
          if (ok) finish(true);
        };
        const onAbort = () => finish(false);
        const timer = setTimeout(() => finish(false), timeoutMs);
        waiters.set(check, finish);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },

    /** Answer every waiting long-poll now (the sandbox is closing). */
    close(): void {
      for (const finish of [...waiters.values()]) finish(false);
    },
  };
}

export type DeliveryNotifier = ReturnType<typeof createDeliveryNotifier>;
