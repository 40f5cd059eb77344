import Database from 'better-sqlite3';
import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { migrations } from './migrations/index.js';
import { installTenantSql } from './tenant-sql.js';

export type Db = Database.Database;
export type Durability = 'normal' | 'full';

/** A database path that cannot be used (said in one line: the path, the cause, the way out). */
export class DatabasePathError extends Error {
  override name = 'DatabasePathError';
}

const WAY_OUT = 'choose a writable place with --db PATH, or --db :memory: for a throwaway database';

/**
 * The directory of a database file, created level by level. Node's `mkdirSync(…, { recursive: true })`
 * spins for a minute under `/proc` (`--db /proc/nope/x.db`), and a read-only directory is best said here,
 * naming it, instead of SQLite's "unable to open database file".
 */
function ensureDirectory(file: string): void {
  const dir = resolve(dirname(file));
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    const st = statSync(at, { throwIfNoEntry: false });
    if (st) {
      if (!st.isDirectory())
        throw new DatabasePathError(
          `cannot use the database ${file}: ${at} is not a directory; ${WAY_OUT}`,
        );
      break;
    }
    missing.unshift(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'EEXIST') continue;
      throw new DatabasePathError(
        `cannot create the directory ${d} for the database ${file} (${code ?? (err as Error).message}); ${WAY_OUT}`,
      );
    }
  }
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw new DatabasePathError(
      `cannot write the database ${file}: the directory ${dir} is read-only; ${WAY_OUT}`,
    );
  }
}

export interface OpenOptions {
  durability?: Durability;
}

/**
 * Open the one writer connection (docs/design.md#storage): WAL, foreign keys, `synchronous=NORMAL` by default
 * (a committed change survives kill -9 of the process) or FULL (fsync on every commit), and an
 * exclusive lock on the file for as long as the connection is open.
 */
export function openDatabase(path: string, opts: OpenOptions = {}): Db {
  if (path !== ':memory:' && !path.startsWith('file:')) ensureDirectory(path);
  // No busy wait while opening: a file another sandbox holds is said at once (busy_timeout is set below).
  let db: Db;
  try {
    db = new Database(path, { timeout: 0 });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'SQLITE_CANTOPEN' && code !== 'SQLITE_READONLY' && code !== 'SQLITE_PERM')
      throw err;
    throw new DatabasePathError(
      `cannot open the database ${path} (${(err as Error).message}); ${WAY_OUT}`,
    );
  }
  if (path !== ':memory:') {
    // The file is this process's alone while it runs (one writer connection): with an exclusive lock,
    // SQLite keeps the WAL index in memory and takes no file lock per statement (two fcntl calls per
    // statement otherwise, the biggest per-request cost after HTTP itself). Commits and kill -9 safety
    // are unchanged: the WAL is written the same way and recovered on the next open.
    db.pragma('locking_mode = EXCLUSIVE');
    try {
      db.pragma('journal_mode = WAL');
    } catch (err) {
      db.close();
      const code = (err as { code?: string }).code;
      if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN') {
        throw new DatabasePathError(
          `cannot write the database ${path} (${(err as Error).message}); ${WAY_OUT}`,
        );
      }
      if (code !== 'SQLITE_BUSY') throw err;
      throw new DatabasePathError(
        `${path} is in use by another process (a running sandbox keeps its database file locked); ` +
          'stop that one, or start this one with --db :memory: (a throwaway database) or another --db path',
      );
    }
  }
  db.pragma(`synchronous = ${opts.durability === 'full' ? 'FULL' : 'NORMAL'}`);
  if (path !== ':memory:') {
    // Checkpoint every ~16 MB of WAL instead of ~4 MB: a create dirties ~25 pages (indexes, outbox,
    // delivery), so checkpoints at the default size cost ~10% of each write; recovery after kill -9
    // reads at most this much WAL. A 4 MB page cache (16 MB is better-sqlite3's default) keeps RSS in
    // bounds; pages beyond it come from the OS page cache at no measurable cost (docs/benchmarks.md).
    db.pragma('wal_autocheckpoint = 4000');
    db.pragma('cache_size = -4000');
  }
  return connectionSettings(db);
}

/** What every connection gets, on a file or in memory: foreign keys, busy timeout, schema up to date. */
function connectionSettings(db: Db): Db {
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Each unit of work of a group commit runs in a SAVEPOINT (src/db/unit-of-work.ts), whose
  // sub-journal otherwise spills to a temporary file past 64 KiB: two pwrites per journaled page.
  db.pragma('temp_store = MEMORY');
  installTenantSql(db);
  migrate(db);
  return db;
}

/**
 * A new in-memory database holding a copy of `image` (`db.serialize()` of another one), with the
 * settings `openDatabase(':memory:')` gives. Tests migrate and seed one database per worker and hand
 * each test a copy (src/testing/test-app.ts): ~0.1 ms instead of migrating and loading fixtures again.
 */
export function openDatabaseCopy(image: Buffer, opts: OpenOptions = {}): Db {
  const db = new Database(image);
  db.pragma(`synchronous = ${opts.durability === 'full' ? 'FULL' : 'NORMAL'}`);
  return connectionSettings(db);
}

/**
 * Apply every migration not yet recorded in `schema_migrations`, in version order, each in its own
 * transaction. Tracking versions one by one (not only the highest) means a migration numbered below one
 * already applied still runs.
 */
export function migrate(db: Db): void {
  const tracked = db
    .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'")
    .get();
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)',
  );
  if (!tracked) {
    // A database from before version tracking: what its user_version covered counts as applied.
    const legacy = db.pragma('user_version', { simple: true }) as number;
    const mark = db.prepare(
      "INSERT OR IGNORE INTO schema_migrations (version, name, applied_at) VALUES (?, ?, 'legacy')",
    );
    for (const m of migrations) if (m.version <= legacy) mark.run(m.version, m.name);
  }
  const applied = new Set(
    (db.prepare('SELECT version FROM schema_migrations').all() as Array<{ version: number }>).map(
      (r) => r.version,
    ),
  );
  const record = db.prepare(
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, datetime('now'))",
  );
  for (const m of migrations) {
    if (applied.has(m.version)) continue;
    db.transaction(() => {
      db.exec(m.sql);
      record.run(m.version, m.name);
      db.pragma(
        `user_version = ${Math.max(m.version, db.pragma('user_version', { simple: true }) as number)}`,
      );
    }).immediate();
  }
}

/** Drop every table (used by `POST /_sandbox/reset` before re-migrating and reloading fixtures). */
export function wipe(db: Db): void {
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      const objects = db
        .prepare(
          "SELECT type, name FROM sqlite_schema WHERE type IN ('table', 'trigger') AND name NOT LIKE 'sqlite_%'",
        )
        .all() as Array<{ type: string; name: string }>;
      for (const o of objects.filter((x) => x.type === 'trigger'))
        db.exec(`DROP TRIGGER IF EXISTS "${o.name}"`);
      for (const o of objects.filter((x) => x.type === 'table'))
        db.exec(`DROP TABLE IF EXISTS "${o.name}"`);
      db.pragma('user_version = 0');
    }).immediate();
  } finally {
    db.pragma('foreign_keys = ON');
  }
  migrate(db);
}
