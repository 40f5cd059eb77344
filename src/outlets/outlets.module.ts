import type { Db } from '../db/open.js';
import type { SandboxModule } from '../module.types.js';
import { createOutletRepository } from './outlets.repo.js';
import { outletHandlers } from './outlets.routes.js';
import { createOutletService, type OutletService } from './outlets.service.js';

/** Payout outlets and fee quotes; other modules (sell orders) get fee quotes through its api. */
export function createOutletsModule(d: { db: Db }): SandboxModule<OutletService> {
  const service = createOutletService(createOutletRepository(d.db));
  return { handlers: outletHandlers(service), api: service };
}
