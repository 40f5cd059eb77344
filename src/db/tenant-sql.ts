import type Database from 'better-sqlite3';

type Db = Database.Database;

/** Where a connection's `ws_offset` and `ws_max_offset` read the workspace clock offsets from. */
export interface TenantOffsetSource {
  offsetOf(workspaceId: string | null): number;
  max(): number;
}

const sources = new WeakMap<Db, TenantOffsetSource>();

/**
 * The SQL side of the workspace clocks (src/clock/tenant-clocks.ts, docs/design.md#the-clock):
 * `ws_offset(workspace_id)` is a tenant's offset in microseconds (0 for NULL, the base data), and
 * `ws_max_offset()` the largest one, so that a due query compares each row with its own tenant's time.
 * Every connection has them (0 until a sandbox gives the connection its offsets).
 */
export function installTenantSql(db: Db): void {
  // Deterministic: constant within one statement, which is all SQLite assumes of it.
  db.function('ws_offset', { deterministic: true }, (ws: unknown) =>
    typeof ws === 'string' ? (sources.get(db)?.offsetOf(ws) ?? 0) : 0,
  );
  db.function('ws_max_offset', { deterministic: true }, () => sources.get(db)?.max() ?? 0);
}

export function setTenantOffsetSource(db: Db, source: TenantOffsetSource): void {
  sources.set(db, source);
}

/**
 * The due condition of a row on its tenant's clock: `column <= @at + <its tenant's offset>`, where `@at`
 * is the sandbox time; the first term bounds an index range by the largest offset.
 */
export const dueOnTenantClock = (column: string, tenantSql: string): string =>
  `${column} <= @at + ws_max_offset() AND ${column} <= @at + ws_offset(${tenantSql})`;

/**
 * The earliest `column` of the rows of `from` matching `where` (the guard of the due work,
 * src/clock/due-work.ts): over all rows, or over one workspace's (`inWorkspace` uses `@ws`).
 */
export function earliestOf(
  db: Db,
  from: string,
  column: string,
  where: string,
  inWorkspace: string,
) {
  const all = db.prepare(`SELECT MIN(${column}) AS t FROM ${from} WHERE ${where}`);
  const one = db.prepare(
    `SELECT MIN(${column}) AS t FROM ${from} WHERE ${where} AND ${inWorkspace}`,
  );
  return (workspaceId: string | null): number | null => {
    const r = (workspaceId === null ? all.get() : one.get({ ws: workspaceId })) as {
      t: number | bigint | null;
    };
    return r.t === null ? null : Number(r.t);
  };
}
