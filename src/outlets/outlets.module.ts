import type { Db } from '../db/open.js';
import type { SandboxModule } from '../module.types.js';
import { createOutletDirectory } from './outlet-directory.service.js';
import { COINS_TRANSFER, MOBILE_LOAD_OUTLETS } from './outlets.catalog.js';
import { createOutletRepository } from './outlets.repo.js';
import { outletHandlers } from './outlets.routes.js';
import { createOutletService, type OutletService } from './outlets.service.js';

/** Sending to a wallet is free; the bracket spans the largest sell order the sandbox takes. */
const COINS_TRANSFER_BRACKET = {
  id: 'coins_transfer-fee',
  from_amount: 0n,
  until_amount: 500_000_00000000n,
  fee_amount: 0n,
  fee_percent: '0',
};

/** Prepaid load from 10 to 1000 pesos, free (the sandbox's choice: the real load fee is not public). */
const loadBracket = (id: string) => ({
  id: `${id}-fee`,
  from_amount: 10_00000000n,
  until_amount: 1000_00000000n,
  fee_amount: 0n,
  fee_percent: '0',
});

/** Payout and pay-in outlets, their fees, categories and fee quotes; other modules (sell orders) get quotes through its api. */
export function createOutletsModule(d: { db: Db }): SandboxModule<OutletService> {
  const repo = createOutletRepository(d.db);
  const service = createOutletService(repo);
  return {
    handlers: outletHandlers(service, createOutletDirectory(repo, service)),
    // coins_transfer and the prepaid-load outlets are part of the service, not of the generated fixtures.
    fixtureSections: [
      () => {
        repo.insertPayoutOutlet({ ...COINS_TRANSFER }, [COINS_TRANSFER_BRACKET]);
        for (const o of MOBILE_LOAD_OUTLETS) repo.insertPayoutOutlet({ ...o }, [loadBracket(o.id)]);
      },
    ],
    api: service,
  };
}
