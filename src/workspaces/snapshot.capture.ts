import type { Db } from '../db/open.js';
import { formatTimestamp } from '../shared/clock.js';
import { required } from '../shared/defined.js';
import { formatMoney } from '../shared/money.js';
import { ownUrlAsPath, type SandboxAddresses } from '../shared/sandbox-url.js';
import type { ColumnSpec } from './snapshot.columns.js';
import {
  ADDED_TABLES,
  SNAPSHOT_FORMAT,
  SNAPSHOT_TABLES,
  SNAPSHOT_VERSION,
} from './snapshot.tables.js';

export type SnapshotValue = string | number | null;
export type SnapshotRow = Record<string, SnapshotValue>;

/** The JSON document of a saved state (`SnapshotDocument` of the OpenAPI document). */
export interface SnapshotDocument {
  format: typeof SNAPSHOT_FORMAT;
  version: typeof SNAPSHOT_VERSION;
  /** The workspace's time when the state was saved: a restored workspace continues from it. */
  taken_at: string;
  source_workspace_id: string | null;
  /** The accounts outside the workspace its ledger entries name (the world outside the sandbox). */
  system_accounts: Array<{ id: string; name: string; currency: string }>;
  tables: Record<string, SnapshotRow[]>;
}

/** The document's rows of one table: every snapshot table is there (the document's schema requires it). */
export function rowsOf(doc: Pick<SnapshotDocument, 'tables'>, table: string): SnapshotRow[] {
  if (doc.tables[table] === undefined && ADDED_TABLES.has(table)) return [];
  return required(doc.tables[table], `the table ${table} of the saved state`);
}

/**
 * A stored column value in the document's form: amounts as 8-digit strings, times as timestamps, a
 * merchant URL to this sandbox's own address as the path it names (`own`), so the document is portable.
 */
function encode(c: ColumnSpec, v: unknown, own: SandboxAddresses): SnapshotValue {
  if (v === null || v === undefined) return null;
  if (c.kind === 'money') return formatMoney(BigInt(v as bigint));
  if (c.kind === 'time') return formatTimestamp(Number(v));
  if (c.kind === 'int' || c.kind === 'real') return Number(v);
  if (c.kind === 'url') return ownUrlAsPath(String(v), own);
  return String(v);
}

/** An account another tenant owns stands, in a saved state, for the world outside: one per currency. */
export const outsideAccountId = (currency: string) => `system-snapshot-${currency.toLowerCase()}`;

/**
 * Read workspace `workspaceId`'s rows of every snapshot table into a document (docs/design.md#saved-states).
 * Ledger entries of its transactions on a system account keep naming it; entries on another tenant's
 * wallet (a fixture customer paid a workspace invoice) name the outside account of their currency, so
 * a restore never moves another tenant's money. `own`: this sandbox's addresses (merchant URLs to them
 * are written as paths).
 */
export function captureWorkspace(
  db: Db,
  workspaceId: string,
  takenAt: number,
  own: SandboxAddresses,
): SnapshotDocument {
  const tables: Record<string, SnapshotRow[]> = {};
  for (const t of SNAPSHOT_TABLES) {
    const rows = db.prepare(t.select).safeIntegers(true).all({ ws: workspaceId }) as Array<
      Record<string, unknown>
    >;
    tables[t.name] = rows.map((r) =>
      Object.fromEntries(Object.entries(t.columns).map(([k, c]) => [k, encode(c, r[k], own)])),
    );
  }
  const inWorkspace = new Set(rowsOf({ tables }, 'accounts').map((a) => a.id));
  const accountById = db.prepare(
    'SELECT id, owner_type, name, currency FROM accounts WHERE id = ?',
  );
  const system = new Map<string, { id: string; name: string; currency: string }>();
  for (const e of rowsOf({ tables }, 'ledger_entries')) {
    const id = e.account_id as string;
    if (inWorkspace.has(id)) continue;
    const a = accountById.get(id) as {
      id: string;
      owner_type: string;
      name: string;
      currency: string;
    };
    const outside =
      a.owner_type === 'system'
        ? a
        : {
            id: outsideAccountId(a.currency),
            name: `Outside the workspace (${a.currency})`,
            currency: a.currency,
          };
    e.account_id = outside.id;
    system.set(outside.id, { id: outside.id, name: outside.name, currency: outside.currency });
  }
  return {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    taken_at: formatTimestamp(takenAt),
    source_workspace_id: workspaceId,
    system_accounts: [...system.values()],
    tables,
  };
}

/** Rows per table, as the snapshot resource shows them. */
export function countRows(doc: SnapshotDocument): Record<string, number> {
  return Object.fromEntries(SNAPSHOT_TABLES.map((t) => [t.name, doc.tables[t.name]?.length ?? 0]));
}
