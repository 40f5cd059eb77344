import type { Db } from '../db/open.js';
import { setTenantOffsetSource } from '../db/tenant-sql.js';
import type { Clock } from '../shared/clock.js';

/** Whose clock: a workspace id, or null for the base data (the fixtures and the control API's own objects). */
export type Tenant = string | null;

/**
 * A clock per workspace (docs/design.md#the-clock): a workspace's time is the sandbox time plus its own
 * offset (`workspaces.clock_offset`, microseconds); the base data has offset 0. An offset is positive once
 * the workspace's clock has been advanced, negative for a workspace restored from a snapshot (its time
 * goes on from the snapshot's moment), and 0 after a reset.
 *
 * Which tenant a piece of work belongs to is carried by the work itself: a request gets a scope
 * (`scope`), and the first owner it meets (the authenticated merchant or app, the invoice a control call
 * or the hosted page loads) `enter`s it; due work and callbacks run `within` the tenant of each row. The
 * sandbox's `clock.now()` (see `tenantAwareClock`) is then that tenant's time everywhere, so every
 * timestamp written on a workspace's objects is on its clock without a clock being passed around.
 *
 * A scope is explicit, not an AsyncLocalStorage: it is current while its synchronous code runs (the
 * request's middleware, then each part after an await that re-enters it with `resume`), and no scope
 * is current anywhere else (timers, callbacks, the code after an await that does not resume: the
 * sandbox's own time). AsyncLocalStorage turns on Node's promise hooks for every promise of the process,
 * a fifth of a signed GET's CPU (docs/benchmarks.md); the request's work on its tenant's clock is
 * synchronous (SQLite), so the awaits are only where a request waits for its body.
 *
 * SQL sees the offsets through `ws_offset(workspace_id)` and `ws_max_offset()` (src/db/tenant-sql.ts), so
 * that a due query compares each row with its own tenant's time in one statement.
 * Only live workspaces are held: a deleted workspace's objects fall back to the sandbox time. Expiry and
 * settlement are written as states, so nothing that happened is undone by a clock that moves back (a reset).
 */
export interface TenantClocks {
  /** The sandbox clock itself, without any tenant offset (workspace TTLs, the global clock calls). */
  readonly sandbox: Clock;
  /** The offset of a tenant in microseconds (0 for the base data and for unknown or deleted workspaces). */
  offsetOf(tenant: Tenant | undefined): number;
  /** The largest offset of any live workspace (0 when none has moved). */
  maxOffset(): number;
  /** Live workspaces whose clock is not the sandbox's (ahead, or behind for a restored one), with their offsets. */
  advanced(): ReadonlyMap<string, number>;
  /** Record a workspace's new offset (in its row and in memory); `live: false` forgets it (a deleted workspace). */
  setOffset(workspaceId: string, micros: number, live?: boolean): void;
  /** Read the offsets again from the database (after a reset of all data). */
  reload(): void;
  /** A tenant's time now. */
  nowOf(tenant: Tenant | undefined): number;
  /** The tenant of the current work (null when none has been entered). */
  current(): Tenant;
  /**
   * Run `fn` (a request's first synchronous part) in a fresh scope that has no tenant yet; `fn` gets the
   * scope, whose `resume` runs each later synchronous part (after an await) in it again.
   */
  scope<T>(fn: (scope: TenantScope) => T): T;
  /** The current scope belongs to this tenant, unless it already belongs to one (the first owner met decides). */
  enter(tenant: Tenant | undefined): void;
  /** Run synchronous `fn` on this tenant's clock, whatever the current scope says. */
  within<T>(tenant: Tenant | undefined, fn: () => T): T;
}

/** A request's scope (see `TenantClocks.scope`). */
export interface TenantScope {
  /** Run synchronous `fn` in this scope again (the code after an await of the request). */
  resume<T>(fn: () => T): T;
}

interface Scope extends TenantScope {
  tenant: Tenant | undefined;
}

export function createTenantClocks(db: Db, sandbox: Clock): TenantClocks {
  const offsets = new Map<string, number>();
  let max = 0;
  // The scope whose synchronous code is running, if any (see `scope`).
  let active: Scope | undefined;
  // `within` is synchronous, so one slot is enough (nested calls restore the outer value).
  let forced: { tenant: Tenant } | undefined;
  const load = db.prepare(
    'SELECT id, clock_offset FROM workspaces WHERE deleted_at IS NULL AND clock_offset <> 0',
  );
  const store = db.prepare('UPDATE workspaces SET clock_offset = ? WHERE id = ?');

  const offsetOf = (tenant: Tenant | undefined): number =>
    tenant ? (offsets.get(tenant) ?? 0) : 0;
  const recomputeMax = () => {
    max = 0;
    for (const o of offsets.values()) if (o > max) max = o;
  };
  function reload(): void {
    offsets.clear();
    for (const r of load.all() as Array<{ id: string; clock_offset: number | bigint }>)
      offsets.set(r.id, Number(r.clock_offset));
    recomputeMax();
  }
  function current(): Tenant {
    if (forced) return forced.tenant;
    return active?.tenant ?? null;
  }

  setTenantOffsetSource(db, { offsetOf, max: () => max });
  reload();

  return {
    sandbox,
    offsetOf,
    maxOffset: () => max,
    advanced: () => offsets,
    setOffset(workspaceId, micros, live = true) {
      const value = Math.trunc(micros);
      store.run(value, workspaceId);
      if (live && value !== 0) offsets.set(workspaceId, value);
      else offsets.delete(workspaceId);
      recomputeMax();
    },
    reload,
    nowOf: (tenant) => sandbox.now() + offsetOf(tenant),
    current,
    scope(fn) {
      const scope: Scope = {
        tenant: undefined,
        resume(work) {
          const outer = active;
          active = scope;
          try {
            return work();
          } finally {
            active = outer;
          }
        },
      };
      return scope.resume(() => fn(scope));
    },
    enter(tenant) {
      if (active && active.tenant === undefined && tenant !== undefined) active.tenant = tenant;
    },
    within(tenant, fn) {
      const outer = forced;
      forced = { tenant: tenant ?? null };
      try {
        return fn();
      } finally {
        forced = outer;
      }
    },
  };
}

/** The clock every module reads: the current tenant's time; the offset calls are the sandbox clock's. */
export function tenantAwareClock(tenants: TenantClocks): Clock {
  const { sandbox } = tenants;
  return {
    now: () => sandbox.now() + tenants.offsetOf(tenants.current()),
    offsetMicros: () => sandbox.offsetMicros(),
    setOffsetMicros: (o) => sandbox.setOffsetMicros(o),
  };
}
