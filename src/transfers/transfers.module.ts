import type { SandboxModule } from '../module.types.js';
import type { ServicesWith } from '../module.types.js';
import { loadTransferFixtures } from './transfers.fixtures.js';
import { createTransferRepository, type TransferRepository } from './transfers.repo.js';
import { transferHandlers } from './transfers.routes.js';
import { createTransferService, type TransferService } from './transfers.service.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger'>;

/** Transfers: developer API handlers, the control call that settles or fails one, fixture history. */
export function createTransfersModule(
  s: ModuleServices,
): SandboxModule<TransferService> & { repo: TransferRepository } {
  const repo = createTransferRepository(s.db);
  const service = createTransferService({
    transfers: repo,
    ledger: s.ledger,
    identities: s.identities,
    unitOfWork: s.unitOfWork,
    clock: s.clock,
    tenants: s.tenants,
    dueWork: s.dueWork,
    ids: s.ids,
    settleSeconds: () => s.config.transferSettleSeconds,
  });
  // What pending transfers will credit a wallet counts against its room (docs/design.md#money-bounds).
  s.ledger.countIncoming(repo.pendingTo);
  // Pending transfers settle as soon as their owner's clock says so (src/clock/due-work.ts).
  s.dueWork.register(service.dueJob);
  return {
    handlers: transferHandlers(service),
    fixtureSections: [(core, fx) => loadTransferFixtures(core.clock.now(), repo, fx)],
    api: service,
    /** For tests that seed rows directly. */
    repo,
  };
}
