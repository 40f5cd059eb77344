import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { migrations } from './migrations/index.js';

export type Db = Database.Database;
export type Durability = 'normal' | 'full';

export interface OpenOptions {
  durability?: Durability;
}

/**
 * Open the one writer connection (sandbox.md §12): WAL, foreign keys, `synchronous=NORMAL` by default
 * (a committed change survives kill -9 of the process) or FULL (fsync on every commit).
 */
export function openDatabase(path: string, opts: OpenOptions = {}): Db {
  if (path !== ':memory:' && !path.startsWith('file:')) mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${opts.durability === 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

export function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.transaction(() => {
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}

/** Drop every table (used by `POST /_sandbox/reset` before re-migrating and reloading fixtures). */
export function wipe(db: Db): void {
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      const objects = db
        .prepare("SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'trigger') AND name NOT LIKE 'sqlite_%'")
        .all() as Array<{ type: string; name: string }>;
      for (const o of objects.filter((x) => x.type === 'trigger')) db.exec(`DROP TRIGGER IF EXISTS "${o.name}"`);
      for (const o of objects.filter((x) => x.type === 'table')) db.exec(`DROP TABLE IF EXISTS "${o.name}"`);
      db.pragma('user_version = 0');
    }).immediate();
  } finally {
    db.pragma('foreign_keys = ON');
  }
  migrate(db);
}
