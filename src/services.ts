import { createDueWork } from './clock/due-work.js';
import type { TenantClocks } from './clock/tenant-clocks.js';
import type { AppConfig } from './config.js';
import type { Db } from './db/open.js';
import { createWriteBatch } from './db/unit-of-work.js';
import { createOutbox, type OutboxEventRow } from './events/outbox.repo.js';
import type { Clock } from './shared/clock.js';
import type { IdFactory } from './shared/ids.js';

export interface CoreDeps {
  db: Db;
  /** The current tenant's clock (src/clock/tenant-clocks.ts): the sandbox time plus its workspace's offset. */
  clock: Clock;
  /** The workspace clocks behind `clock`: offsets, whose time a piece of work is on, the sandbox clock itself. */
  tenants: TenantClocks;
  ids: IdFactory;
  config: AppConfig;
}

/**
 * The shared infrastructure every module is built on (docs/design.md#architecture): the database, the
 * clock (with the workspace clocks and the registry of due work), ids, the config, the outbox and the write batch. No feature lives here: modules are built by
 * their own factories in src/modules.ts. `writeDelivery` writes the delivery row of each event the
 * outbox appends, in the event's transaction (the composition root supplies it).
 */
export function createServices(deps: CoreDeps, writeDelivery: (event: OutboxEventRow) => void) {
  const { db, clock, ids } = deps;
  const outbox = createOutbox(db, clock, ids, writeDelivery);
  const writeBatch = createWriteBatch(db, outbox);
  const dueWork = createDueWork(deps.tenants);
  return { ...deps, outbox, writeBatch, unitOfWork: writeBatch.unit, dueWork };
}

export type Services = ReturnType<typeof createServices>;
