import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/open.js';
import { createClock } from '../shared/clock.js';
import { createDueWork, type DueWork } from './due-work.js';
import { createTenantClocks, tenantAwareClock, type TenantClocks } from './tenant-clocks.js';

const REAL_MS = 1_800_000_000_000;
let db: Db;
let tenants: TenantClocks;
let due: DueWork;
let real = REAL_MS;
/** Jobs' due times on their tenant's clock, keyed by tenant ('' = base data). */
let waiting: Map<string, number[]>;
let runs: number;

const nowMicros = () => real * 1000;

beforeEach(() => {
  real = REAL_MS;
  db = openDatabase(':memory:');
  db.prepare(
    "INSERT INTO workspaces (id, created_at, expires_at) VALUES ('ws-a', 0, NULL), ('ws-b', 0, NULL)",
  ).run();
  tenants = createTenantClocks(db, createClock({ realNowMs: () => real }));
  due = createDueWork(tenants);
  waiting = new Map();
  runs = 0;
  due.register({
    name: 'test.job',
    run() {
      runs += 1;
      const at = tenants.sandbox.now();
      for (const [t, list] of waiting)
        waiting.set(
          t,
          list.filter((x) => x > at + tenants.offsetOf(t || null)),
        );
    },
    earliest(ws) {
      const rows = ws === null ? [...waiting.values()].flat() : (waiting.get(ws) ?? []);
      return rows.length ? Math.min(...rows) : null;
    },
  });
});
afterEach(() => db.close());

describe('the registry of due work', () => {
  it('runs its jobs once, then not again until something falls due (the guard is one comparison)', () => {
    expect(due.runIfDue()).toBe(true);
    expect(runs).toBe(1);
    expect(due.runIfDue()).toBe(false);
    expect(due.runIfDue()).toBe(false);
    expect(runs).toBe(1);
    expect(due.nextDueAt()).toBe(Number.POSITIVE_INFINITY);
  });

  it('lowers the guard when new work is expected and runs the job when that time comes, not before', () => {
    due.runAll();
    const at = nowMicros() + 5_000_000;
    waiting.set('', [at]);
    due.expect(at);
    real += 4_000;
    expect(due.runIfDue()).toBe(false);
    real += 1_000;
    expect(due.runIfDue()).toBe(true);
    expect(waiting.get('')).toEqual([]);
    expect(due.runIfDue()).toBe(false);
  });

  it("puts an advanced workspace's work earlier on the sandbox clock by that workspace's offset", () => {
    const at = nowMicros() + 60_000_000; // a minute ahead on each tenant's own clock
    waiting.set('ws-a', [at]);
    waiting.set('ws-b', [at]);
    tenants.setOffset('ws-a', 59_000_000);
    due.runAll();
    expect(due.nextDueAt()).toBe(at - 59_000_000);
    real += 1_000;
    expect(due.runIfDue()).toBe(true);
    expect(waiting.get('ws-a')).toEqual([]);
    expect(waiting.get('ws-b')).toEqual([at]);
    expect(due.nextDueAt()).toBe(at);
  });

  it('a job expected on a workspace clock is expected at that time minus its offset', () => {
    due.runAll();
    tenants.setOffset('ws-a', 3_600_000_000);
    const clock = tenantAwareClock(tenants);
    tenants.within('ws-a', () => due.expect(clock.now() + 10_000_000));
    expect(due.nextDueAt()).toBeLessThanOrEqual(nowMicros() + 10_000_001);
    expect(due.nextDueAt()).toBeGreaterThan(nowMicros());
  });
});

describe('workspace clocks', () => {
  it('read the sandbox time plus the current tenant offset, inside a scope, within, or neither', async () => {
    tenants.setOffset('ws-a', 900_000_000);
    const clock = tenantAwareClock(tenants);
    expect(clock.now() - nowMicros()).toBeLessThan(10);
    expect(tenants.within('ws-a', () => clock.now()) - nowMicros()).toBeGreaterThanOrEqual(
      900_000_000,
    );
    await tenants.scope(async (scope) => {
      tenants.enter('ws-a');
      tenants.enter('ws-b'); // the first owner met decides
      expect(tenants.current()).toBe('ws-a');
      await Promise.resolve();
      // After an await the scope is left until the request resumes it: no other work sees its tenant.
      expect(tenants.current()).toBeNull();
      scope.resume(() => {
        expect(tenants.current()).toBe('ws-a');
        expect(clock.now() - nowMicros()).toBeGreaterThanOrEqual(900_000_000);
      });
    });
    expect(tenants.current()).toBeNull();
  });

  it('keep concurrent requests apart: each resumes its own tenant, interleaved at awaits', async () => {
    const seen: Array<string | null> = [];
    const request = (tenant: string, ticks: number) =>
      tenants.scope(async (scope) => {
        tenants.enter(tenant);
        for (let i = 0; i < ticks; i++) {
          await Promise.resolve();
          seen.push(tenants.current());
          scope.resume(() => seen.push(tenants.current()));
        }
      });
    await Promise.all([request('ws-a', 3), request('ws-b', 3)]);
    expect(seen.filter((t) => t === null)).toHaveLength(6);
    expect(seen.filter((t) => t === 'ws-a')).toHaveLength(3);
    expect(seen.filter((t) => t === 'ws-b')).toHaveLength(3);
    // Interleaved: a, b, a, b… — each resume saw its own request's tenant.
    expect(seen.filter((t) => t !== null)).toEqual([
      'ws-a',
      'ws-b',
      'ws-a',
      'ws-b',
      'ws-a',
      'ws-b',
    ]);
  });

  it('keep the offset in the workspace row (a copy of the row copies its time) and SQL sees it', () => {
    tenants.setOffset('ws-b', 42_000_000);
    expect(db.prepare("SELECT clock_offset FROM workspaces WHERE id = 'ws-b'").pluck().get()).toBe(
      42_000_000,
    );
    expect(
      db.prepare("SELECT ws_offset('ws-b') AS a, ws_offset(NULL) AS b, ws_max_offset() AS m").get(),
    ).toEqual({ a: 42_000_000, b: 0, m: 42_000_000 });
    tenants.setOffset('ws-a', 1_000_000);
    tenants.setOffset('ws-b', 0);
    expect(db.prepare('SELECT ws_max_offset()').pluck().get()).toBe(1_000_000);
    // A sandbox opened again on the database reads the offsets back.
    const again = createTenantClocks(db, createClock({ realNowMs: () => real }));
    expect([again.offsetOf('ws-a'), again.offsetOf('ws-b')]).toEqual([1_000_000, 0]);
  });

  it('forget a deleted workspace (its objects fall back to the sandbox time) but keep its row', () => {
    tenants.setOffset('ws-a', 5_000_000);
    tenants.setOffset('ws-a', 5_000_000, false);
    expect(tenants.offsetOf('ws-a')).toBe(0);
    expect(tenants.advanced().size).toBe(0);
    expect(db.prepare("SELECT clock_offset FROM workspaces WHERE id = 'ws-a'").pluck().get()).toBe(
      5_000_000,
    );
  });
});
