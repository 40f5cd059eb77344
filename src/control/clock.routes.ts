import { ok, type Handlers } from '../http/operation.js';
import type { Services } from '../services.js';
import { formatTimestamp } from '../shared/clock.js';

/** getClock, advanceClock, resetClock, resetSandbox: sandbox time and a fresh start (docs/design.md#control-api). */
/** The sandbox's own `tick` and `reset`, which the clock calls run. */
export interface SandboxControls {
  tick(): void;
  reset(): void;
}

export function clockHandlers(s: Services, sandbox: SandboxControls, onReset: () => void): Handlers {
  const view = () => ok({ now: formatTimestamp(s.clock.now()), offset_seconds: s.clock.offsetMicros() / 1_000_000 });
  return {
    getClock: view,
    /** Moves the persisted offset, then runs the due work at once: expiry, retries, workspace TTLs. */
    advanceClock: ({ body }) => {
      s.clock.setOffsetMicros(s.clock.offsetMicros() + Math.round((body.seconds as number) * 1_000_000));
      sandbox.tick();
      return view();
    },
    /**
     * Back to real time; what already happened (expired invoices, workspaces, tokens) stays as it is: the
     * work due at the time being left is done first, so nothing that had expired comes back.
     */
    resetClock: () => {
      sandbox.tick();
      s.clock.setOffsetMicros(0);
      return view();
    },
    resetSandbox: () => {
      sandbox.reset();
      onReset();
      return ok({ reset: true });
    },
  };
}
