import type { Db } from './open.js';
import type { Outbox } from '../events/outbox.repo.js';

export type UnitOfWork = <T>(work: () => T) => T;

/**
 * Group commit (docs/design.md#storage). Writes of everything that runs in one turn of the event loop — the
 * requests whose bytes arrived together, the background tick — go into ONE open IMMEDIATE transaction,
 * each unit of work in its own savepoint (a failing unit rolls back alone). The transaction commits in
 * the `setImmediate` after the first write, and no response leaves before the commit that holds its
 * writes: the HTTP layer awaits `settled()` (see `commitBarrier` in src/http/create-app.ts).
 *
 * Why: with WAL and `synchronous=NORMAL` a commit costs little CPU but one pwrite per WAL frame, and
 * consecutive creates dirty many of the same pages (right edges of time-ordered indexes, counters). One
 * commit for ten creates writes those pages once instead of ten times (docs/benchmarks.md).
 *
 * Kill -9 safety is unchanged: what was acknowledged was committed first; what was not committed was
 * never acknowledged. Reads on the one connection see the open batch; a response built from it waits
 * for the same commit, so no client sees data that a failed commit then takes back.
 */
export interface WriteBatch {
  /** Run `work` atomically inside the open batch (opening one if none is open). */
  unit: UnitOfWork;
  /**
   * Run ONE write statement in the open batch (opening one if none is open), without the savepoint of
   * `unit`: a single statement is atomic by itself. For the nonce advance of every signed request.
   */
  statement<T>(work: () => T): T;
  /** Number of the open batch, or of the next one to open: a request remembers it when it starts. */
  generation(): number;
  /** The newest batch whose commit failed (0 when none has). */
  failedGeneration(): number;
  /** Resolves once the open batch, if any, is committed or rolled back. Never rejects. */
  settled(): Promise<void> | null;
  /** Commit the open batch now (before close, reset, or a PRAGMA that is a no-op in a transaction). */
  flush(): void;
  /** Call `listener` after every rollback (of a unit or of a whole batch): caches of rows drop them. */
  onRollback(listener: () => void): void;
  /**
   * SQLite's `total_changes()` of the connection: rows inserted, updated or deleted so far by any
   * statement or trigger, committed or not (a rollback does not lower it: see `onRollback`).
   */
  changes(): number;
}

export function createWriteBatch(
  db: Db,
  outbox: Outbox,
  opts: { log?: (m: string, err: unknown) => void } = {},
): WriteBatch {
  const log = opts.log ?? ((m: string, err: unknown) => console.error(`[paysandbox] ${m}`, err));
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const totalChanges = db.prepare('SELECT total_changes()').pluck();
  // One wrapper for every unit: nested in the open transaction, better-sqlite3 runs it in a SAVEPOINT.
  const inSavepoint = db.transaction((work: () => unknown) => work());
  let open = false;
  let depth = 0;
  let generation = 0;
  let failed = 0;
  let waiters: Array<() => void> = [];
  let settledPromise: Promise<void> | null = null;
  const rollbackListeners: Array<() => void> = [];
  const rolledBack = () => {
    for (const l of rollbackListeners) l();
  };

  /**
   * Close the open batch: commit it (or, when `error` says the transaction is already gone, count it
   * failed), then wake the requests waiting for it.
   */
  function end(error?: unknown): void {
    if (!open) return;
    open = false;
    let committed = false;
    if (error === undefined) {
      try {
        commit.run();
        committed = true;
      } catch (err) {
        error = err;
      }
    }
    if (committed) {
      try {
        outbox.flush();
      } catch (err) {
        log('an outbox listener failed', err);
      }
    } else {
      failed = generation;
      outbox.discard(0);
      if (db.inTransaction) rollback.run();
      rolledBack();
      log(
        `a group commit failed: the writes of this turn are lost and ${waiters.length} waiting request(s) answer 500`,
        error,
      );
    }
    const w = waiters;
    waiters = [];
    settledPromise = null;
    for (const resolve of w) resolve();
  }

  /** Open a batch unless one is open; false when inside a transaction somebody else opened. */
  function ensureOpen(): boolean {
    if (open) return true;
    if (db.inTransaction) return false;
    begin.run();
    open = true;
    generation++;
    setImmediate(end);
    return true;
  }

  return {
    unit<T>(work: () => T): T {
      // Nested in a unit, or inside a transaction someone else opened (migrations, reset): join it, in a
      // savepoint of its own, so that a nested unit that throws takes back its own writes and events (the
      // clock's work relies on it: one send that cannot settle fails alone, src/transfers/transfers.settle-later.ts).
      if (depth > 0 || !ensureOpen()) {
        const mark = outbox.mark();
        depth++;
        try {
          return inSavepoint(work) as T;
        } catch (err) {
          outbox.discard(mark);
          throw err;
        } finally {
          depth--;
        }
      }
      const mark = outbox.mark();
      depth++;
      try {
        return inSavepoint(work) as T;
      } catch (err) {
        outbox.discard(mark);
        rolledBack();
        // Some errors (disk full, I/O) make SQLite roll back the whole transaction, not the savepoint.
        if (!db.inTransaction) end(err);
        throw err;
      } finally {
        depth--;
      }
    },
    statement<T>(work: () => T): T {
      if (depth > 0 || !ensureOpen()) return work();
      try {
        return work();
      } catch (err) {
        if (!db.inTransaction) end(err);
        throw err;
      }
    },
    generation: () => (open ? generation : generation + 1),
    failedGeneration: () => failed,
    settled() {
      if (!open) return null;
      settledPromise ??= new Promise<void>((resolve) => waiters.push(resolve));
      return settledPromise;
    },
    flush: () => end(),
    onRollback: (listener) => void rollbackListeners.push(listener),
    changes: () => totalChanges.get() as number,
  };
}
