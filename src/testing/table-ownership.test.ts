import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/load.js';

/**
 * A module's tables are its own (docs/design.md#architecture): no module's code runs SQL on another
 * module's tables; it asks that module's api. This reads every SQL statement of src/ (tests, test
 * support and the database layer aside) and names the table each one touches.
 */
const OWNER: Record<string, string> = {
  merchants: 'identities',
  apps: 'identities',
  users: 'identities',
  app_access_tokens: 'identities',
  accounts: 'ledger',
  ledger_entries: 'ledger',
  ledger_transactions: 'ledger',
  invoices: 'invoices',
  payments: 'invoices',
  invoice_counts: 'invoices',
  buy_orders: 'orders',
  sell_orders: 'orders',
  outlets: 'outlets',
  payout_outlet_fees: 'outlets',
  transfers: 'transfers',
  crypto_exchanges: 'wallet',
  crypto_payments: 'wallet',
  crypto_routes: 'wallet',
  payment_requests: 'wallet',
  workspaces: 'workspaces',
  deliveries: 'callbacks',
  delivery_attempts: 'callbacks',
  // Shared infrastructure: the outbox and the sandbox's own settings.
  outbox_events: 'events',
  meta: '*',
};

/**
 * Known exceptions, each with its reason. The fixture loader seeds every module's tables in one
 * transaction at start-up; identities scope a customer login to a live workspace inside one query; a
 * workspace's saved state (src/workspaces/snapshot.*.ts) copies every row of its tenant, table by
 * table, and restores them as they were (docs/design.md#saved-states); the clock keeps each workspace's
 * own offset in the workspace's row (`workspaces.clock_offset`, docs/design.md#the-clock).
 */
const SNAPSHOT_FILE = /^src\/workspaces\/snapshot\.[a-z]+\.ts$/;
const ALLOWED: Record<string, string[]> = {
  'src/fixtures/load.ts': ['accounts', 'outlets', 'payout_outlet_fees', 'meta'],
  'src/identities/identities.repo.ts': ['workspaces'],
  'src/sandbox.ts': ['meta'],
  'src/clock/tenant-clocks.ts': ['workspaces'],
};

const SQL_TABLE = /\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_]+)\b/g;

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['testing', 'db'].includes(entry.name)) yield* sources(path);
    } else if (/\.tsx?$/.test(entry.name) && !/\.test(-support)?\.tsx?$/.test(entry.name))
      yield path;
  }
}

/** `file: table (owner)` for every statement of a module on a table it does not own. */
export function foreignTableUses(files: Array<{ path: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { path, text } of files) {
    const module = /^src\/([^/]+)\//.exec(path)?.[1] ?? '';
    for (const [, table] of text.matchAll(SQL_TABLE)) {
      const owner = OWNER[table!];
      if (owner === undefined || owner === '*' || owner === module || owner === 'events') continue;
      if (ALLOWED[path]?.includes(table!) || SNAPSHOT_FILE.test(path)) continue;
      found.push(`${path}: ${table} (${owner})`);
    }
  }
  return [...new Set(found)];
}

describe('table ownership', () => {
  it("no module runs SQL on another module's tables", () => {
    const root = packageRoot();
    const files = [...sources(join(root, 'src'))].map((p) => ({
      path: relative(root, p),
      text: readFileSync(p, 'utf8'),
    }));
    expect(files.length).toBeGreaterThan(100);
    expect(foreignTableUses(files)).toEqual([]);
  });

  it("names a statement on another module's table, and lets a module use its own", () => {
    const control = {
      path: 'src/control/control.repo.ts',
      text: "db.prepare('SELECT 1 FROM users WHERE email = ?')",
    };
    const orders = {
      path: 'src/orders/orders.repo.ts',
      text: 'SELECT s.*, o.name FROM sell_orders s JOIN outlets o ON o.id = s.outlet_id',
    };
    expect(foreignTableUses([control, orders])).toEqual([
      'src/control/control.repo.ts: users (identities)',
      'src/orders/orders.repo.ts: outlets (outlets)',
    ]);
  });
});
