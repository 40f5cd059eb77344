import type { Db } from './open.js';
import type { Outbox } from '../events/outbox.repo.js';

export type UnitOfWork = <T>(work: () => T) => T;

/**
 * Run related writes in one IMMEDIATE transaction (sandbox.md §12); after it commits, tell the
 * outbox listeners about the events it wrote, and forget them if it rolled back.
 */
export function createUnitOfWork(db: Db, outbox: Outbox): UnitOfWork {
  return <T>(work: () => T): T => {
    if (db.inTransaction) return work();
    let result: T;
    try {
      result = db.transaction(work).immediate();
    } catch (err) {
      outbox.discard();
      throw err;
    }
    outbox.flush();
    return result;
  };
}
