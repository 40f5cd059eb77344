import { ok, type Handlers } from '../http/operation.js';
import type { Services } from '../services.js';
import { ApiError } from '../shared/api-error.js';
import { formatTimestamp } from '../shared/clock.js';
import type { WorkspaceService } from '../workspaces/workspaces.service.js';

/**
 * getClock, advanceClock, resetClock, resetSandbox: sandbox time and a fresh start; and each workspace's
 * own clock (docs/design.md#the-clock).
/** The sandbox's own `tick` and `reset`, which the clock calls run. */
export interface SandboxControls {
  tick(): void;
  reset(): void;
}

/**
 * How far a clock may be moved ahead, in all (the sandbox's from real time, a workspace's from the sandbox's):
 * a saved state restores within 100 years of the sandbox's time, and microsecond times past year ~2255
 * are no longer exact as numbers.
 */
export const MAX_CLOCK_AHEAD_YEARS = 100;
const MAX_AHEAD_MICROS = MAX_CLOCK_AHEAD_YEARS * 365.25 * 86_400 * 1_000_000;

/** The offset after moving `offsetMicros` by `seconds`, or a 400 on `seconds` past the bound. */
function advanced(offsetMicros: number, seconds: number, of: string): number {
  const next = offsetMicros + Math.round(seconds * 1_000_000);
  if (next > MAX_AHEAD_MICROS) {
    const left = Math.max(0, Math.floor((MAX_AHEAD_MICROS - offsetMicros) / 1_000_000));
    throw ApiError.field(
      'seconds',
      `A clock can be at most ${MAX_CLOCK_AHEAD_YEARS} years ahead of ${of}: it can move at most ${left} more seconds (reset it to start over).`,
    );
  }
  return next;
}

export function clockHandlers(
  s: Services,
  sandbox: SandboxControls,
  workspaces: Pick<WorkspaceService, 'clock' | 'advanceClock' | 'resetClock'>,
  onReset: () => void,
): Handlers {
  const sandboxClock = s.tenants.sandbox;
  const view = () =>
    ok({
      now: formatTimestamp(sandboxClock.now()),
      offset_seconds: sandboxClock.offsetMicros() / 1_000_000,
    });
  return {
    getClock: view,
    /** Moves the persisted offset (every tenant's time with it), then runs the due work at once: expiry, retries, workspace TTLs. */
    advanceClock: ({ body }) => {
      sandboxClock.setOffsetMicros(
        advanced(sandboxClock.offsetMicros(), body.seconds, 'real time'),
      );
      sandbox.tick();
      return view();
    },
    /**
     * Back to real time; what already happened (expired invoices, workspaces, tokens) stays as it is: the
     * work due at the time being left is done first, so nothing that had expired comes back.
     */
    resetClock: () => {
      sandbox.tick();
      sandboxClock.setOffsetMicros(0);
      return view();
    },
    getWorkspaceClock: ({ params }) => ok(workspaces.clock(params.workspace_id)),
    /** One workspace's time moves; the due work runs at once, and only this workspace's has newly fallen due. */
    advanceWorkspaceClock: ({ params, body }) => {
      const id = params.workspace_id;
      // An unknown workspace is a 404 (advanceClock), before the bound is looked at.
      workspaces.clock(id);
      advanced(s.tenants.offsetOf(id), body.seconds, "the sandbox's time");
      const clock = workspaces.advanceClock(id, body.seconds);
      sandbox.tick();
      return ok(clock);
    },
    /**
     * Back on the sandbox time; as for the sandbox clock, the work due at the time being left is done
     * first (a token that expired meanwhile is recorded expired), so nothing that had expired comes back.
     */
    resetWorkspaceClock: ({ params }) => {
      sandbox.tick();
      return ok(workspaces.resetClock(params.workspace_id));
    },
    resetSandbox: () => {
      sandbox.reset();
      onReset();
      return ok({ reset: true });
    },
  };
}
