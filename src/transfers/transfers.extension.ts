import type { SandboxExtension } from '../sandbox.js';
import type { Services } from '../services.js';
import { loadTransferFixtures } from './transfers.fixtures.js';
import { createTransferRepository, type TransferRepository } from './transfers.repo.js';
import { transferHandlers } from './transfers.routes.js';
import { createTransferService, type TransferService } from './transfers.service.js';

interface TransferModule {
  repo: TransferRepository;
  service: TransferService;
}

// One module per sandbox: its statements are prepared once against that sandbox's database.
const built = new WeakMap<Services, TransferModule>();

export function transfersOf(s: Services): TransferModule {
  let m = built.get(s);
  if (!m) {
    const repo = createTransferRepository(s.db);
    m = {
      repo,
      service: createTransferService({
        transfers: repo,
        ledger: s.ledger,
        identities: s.identities,
        unitOfWork: s.unitOfWork,
        clock: s.clock,
        ids: s.ids,
        settleSeconds: () => s.config.transferSettleSeconds,
      }),
    };
    built.set(s, m);
  }
  return m;
}

/** Transfers: developer API handlers, the control call that settles or fails one, fixture history. */
export const transfersExtension: SandboxExtension = {
  handlers: (s) => transferHandlers(transfersOf(s).service),
  fixtureSections: [(s, fx) => loadTransferFixtures(s.clock.now(), transfersOf(s).repo, fx)],
  // Pending transfers settle as soon as the sandbox clock says so (every second, and right after an advance).
  tick: (s) => void transfersOf(s).service.settleDue(),
};
