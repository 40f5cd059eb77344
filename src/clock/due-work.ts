import type { Tenant, TenantClocks } from './tenant-clocks.js';

/**
 * One kind of work that falls due on the clock (an invoice expiring, a transfer settling, a retry…),
 * registered by the module that owns it. Each row is due on its own tenant's clock: a job compares its
 * due time with the sandbox time plus the row's tenant offset (`ws_offset(...)` in SQL).
 */
export interface DueJob {
  /** For errors and tests: `invoices.expiry`. */
  name: string;
  /** Do everything due now. Runs on no tenant's clock: `clock.now()` is the sandbox time. */
  run(): void;
  /**
   * The earliest due time, on its tenant's own clock, of the work still waiting: over every row (`null`)
   * or over the rows of one workspace. Undefined when the job cannot tell (it is then run every time).
   */
  earliest?(workspaceId: Tenant): number | null;
}

/**
 * The single registry of due work (docs/design.md#the-clock): every module registers its jobs here
 * instead of catching up before its reads. `runIfDue` runs before each request's handler and is one
 * comparison when nothing is due: it keeps the sandbox time at which the next job falls due (each
 * advanced workspace's earliest time moved back by its offset), lowered by `expect` when new work is
 * scheduled, and recomputed after each run. The background tick and every clock move call `runAll`.
 */
export interface DueWork {
  register(job: DueJob): void;
  /** Run every job if anything may be due (the cheap guard). Returns true when the jobs ran. */
  runIfDue(): boolean;
  /** Run every job now, then recompute the guard. */
  runAll(): void;
  /** Work falls due at this time of the current tenant's clock (lowers the guard). */
  expect(tenantMicros: number): void;
  /** Something changed that the guard cannot follow: run on the next request. */
  invalidate(): void;
  /** The sandbox time before which nothing is due (for tests and the dashboard). */
  nextDueAt(): number;
}

export function createDueWork(tenants: TenantClocks): DueWork {
  const jobs: DueJob[] = [];
  let nextDue = Number.NEGATIVE_INFINITY;
  let running = false;

  function recompute(): void {
    let at = Number.POSITIVE_INFINITY;
    for (const job of jobs) {
      if (!job.earliest) {
        at = Number.NEGATIVE_INFINITY;
        break;
      }
      const all = job.earliest(null);
      if (all !== null && all < at) at = all;
      // A row of an advanced workspace falls due earlier on the sandbox clock than its own time says.
      for (const [ws, offset] of tenants.advanced()) {
        const t = job.earliest(ws);
        if (t !== null && t - offset < at) at = t - offset;
      }
    }
    nextDue = at;
  }

  function runAll(): void {
    if (running) return; // a job that reads through a guarded path does not start the jobs again
    running = true;
    try {
      tenants.within(null, () => {
        for (const job of jobs) job.run();
      });
      recompute();
    } finally {
      running = false;
    }
  }

  return {
    register(job) {
      jobs.push(job);
      nextDue = Number.NEGATIVE_INFINITY;
    },
    runIfDue() {
      if (running || tenants.sandbox.now() < nextDue) return false;
      runAll();
      return true;
    },
    runAll,
    expect(tenantMicros) {
      const at = tenantMicros - tenants.offsetOf(tenants.current());
      if (at < nextDue) nextDue = at;
    },
    invalidate() {
      nextDue = Number.NEGATIVE_INFINITY;
    },
    nextDueAt: () => nextDue,
  };
}
