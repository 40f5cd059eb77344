import type { AppConfig } from './config.js';
import type { Db } from './db/open.js';
import { createWriteBatch } from './db/unit-of-work.js';
import { createOutbox, type OutboxEventRow } from './events/outbox.repo.js';
import type { Clock } from './shared/clock.js';
import type { IdFactory } from './shared/ids.js';

export interface CoreDeps {
  db: Db;
  clock: Clock;
  ids: IdFactory;
  config: AppConfig;
}

/**
 * The shared infrastructure every module is built on (docs/design.md#architecture): the database, the
 * clock, ids, the config, the outbox and the write batch. No feature lives here: modules are built by
 * their own factories in src/modules.ts. `writeDelivery` writes the delivery row of each event the
 * outbox appends, in the event's transaction (the composition root supplies it).
 */
export function createServices(deps: CoreDeps, writeDelivery: (event: OutboxEventRow) => void) {
  const { db, clock, ids } = deps;
  const outbox = createOutbox(db, clock, ids, writeDelivery);
  const writeBatch = createWriteBatch(db, outbox);
  return { ...deps, outbox, writeBatch, unitOfWork: writeBatch.unit };
}

export type Services = ReturnType<typeof createServices>;
