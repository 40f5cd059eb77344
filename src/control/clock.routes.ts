import { ok, type Handlers } from '../http/operation.js';
import type { Services } from '../services.js';
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
        sandboxClock.offsetMicros() + Math.round(body.seconds * 1_000_000),
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
      const clock = workspaces.advanceClock(params.workspace_id, body.seconds);
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
