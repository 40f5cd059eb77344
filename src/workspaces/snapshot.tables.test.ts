import { describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.js';
import { loadSpec } from '../spec/load.js';
import { ADDED_COLUMNS, ADDED_TABLES, SNAPSHOT_TABLES } from './snapshot.tables.js';

// Tables that hold no tenant's rows (or only what a restore rebuilds itself): the rest must be snapshot tables.
const NOT_A_TENANT_TABLE: Record<string, string> = {
  schema_migrations: 'migrations applied',
  meta: 'the sandbox clock offset and settings',
  workspaces: 'a restore makes the new workspace row itself',
  outlets: 'the shared outlet catalog',
  payout_outlet_fees: 'the shared outlet catalog',
  invoice_counts: 'kept by triggers on invoices',
  snapshots: 'the saved states themselves',
  sqlite_sequence: 'SQLite internals',
};
// Columns the storage numbers itself on insert.
const RENUMBERED: Record<string, string[]> = {
  ledger_entries: ['id'],
  outbox_events: ['seq'],
  deliveries: ['seq'],
};

const db = openDatabase(':memory:');
const camel = (s: string) =>
  s
    .split('_')
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

describe('the snapshot tables (src/workspaces/snapshot.tables.ts)', () => {
  it('cover every table of the schema that holds tenant rows', () => {
    const tables = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")
      .pluck()
      .all() as string[];
    const covered = new Set([
      ...SNAPSHOT_TABLES.map((t) => t.name),
      ...Object.keys(NOT_A_TENANT_TABLE),
    ]);
    expect(
      tables.filter((t) => !covered.has(t)),
      'tables neither saved in a snapshot nor listed as shared',
    ).toEqual([]);
  });

  it('name every column of each table (a new column is one line there)', () => {
    for (const t of SNAPSHOT_TABLES) {
      const columns = (
        db.prepare(`PRAGMA table_info(${t.name})`).all() as Array<{ name: string }>
      ).map((c) => c.name);
      const expected = columns.filter((c) => !(RENUMBERED[t.name] ?? []).includes(c)).sort();
      expect(Object.keys(t.columns).sort(), t.name).toEqual(expected);
    }
  });

  it('match the row schemas of SnapshotDocument in openapi.yaml, column for column', () => {
    const schemas = loadSpec().document.components!.schemas! as Record<
      string,
      { required?: string[]; properties?: Record<string, unknown> }
    >;
    const tables = (schemas.SnapshotDocument!.properties!.tables as { required: string[] })
      .required;
    // A table added after version 1 is optional: a document saved before has none.
    expect(tables).toEqual(SNAPSHOT_TABLES.map((t) => t.name).filter((n) => !ADDED_TABLES.has(n)));
    for (const t of SNAPSHOT_TABLES) {
      const row = schemas[`Snapshot${camel(t.name)}Row`]!;
      // A column added after version 1 is optional: a document saved before has none.
      const added = Object.keys(ADDED_COLUMNS[t.name] ?? {});
      expect(row.required, t.name).toEqual(
        Object.keys(t.columns).filter((c) => !added.includes(c)),
      );
      expect(Object.keys(row.properties!), t.name).toEqual(Object.keys(t.columns));
      for (const [col, c] of Object.entries(t.columns)) {
        const p = row.properties![col] as { type?: string | string[]; pattern?: string };
        const types = ([] as string[]).concat(p.type ?? []);
        expect(types.includes('null'), `${t.name}.${col} nullable`).toBe(c.nullable);
        if (c.kind === 'money') expect(p.pattern, `${t.name}.${col}`).toContain('[0-9]{8}');
        if (c.kind === 'int') expect(types, `${t.name}.${col}`).toContain('integer');
      }
    }
  });
});
