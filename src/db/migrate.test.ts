import Database from 'better-sqlite3';
import { expect, it } from 'vitest';
import { sql as initial } from './migrations/001-initial.js';
import { sql as orders } from './migrations/004-orders.js';
import { migrations } from './migrations/index.js';
import { migrate } from './open.js';

const versions = (db: Database.Database) =>
  (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as Array<{ version: number }>).map((r) => r.version);

it('applies every migration once, and records each', () => {
  const db = new Database(':memory:');
  migrate(db);
  migrate(db);
  expect(versions(db)).toEqual(migrations.map((m) => m.version));
  db.close();
});

it('runs a migration numbered below one already applied (modules add theirs independently)', () => {
  const db = new Database(':memory:');
  db.exec(initial);
  db.exec(orders);
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  db.prepare("INSERT INTO schema_migrations VALUES (1, 'initial', 'x'), (4, 'orders', 'x')").run();
  migrate(db);
  expect(versions(db)).toEqual(migrations.map((m) => m.version));
  expect(db.prepare("SELECT 1 FROM pragma_table_info('invoices') WHERE name = 'current_payment_collector'").get()).toBeDefined();
  expect(db.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'deliveries'").get()).toBeDefined();
  db.close();
});
