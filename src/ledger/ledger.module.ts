import { ok } from '../http/operation.js';
import type { SandboxModule } from '../module.types.js';
import type { Services } from '../services.js';
import { checkLedgerInvariants } from './invariants.js';
import type { LedgerApi } from './ledger.api.js';
import { createLedgerRepository } from './ledger.repo.js';

/** The double-entry ledger: wallet accounts and the entries that move units between them. */
export function createLedgerModule(s: Services): SandboxModule<LedgerApi> {
  return {
    api: createLedgerRepository(s.db, s.clock, s.ids),
    handlers: { checkLedgerInvariants: () => ok(checkLedgerInvariants(s.db)) },
  };
}
