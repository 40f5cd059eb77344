import type { SandboxModule } from '../module.types.js';
import type { OutletService } from '../outlets/outlets.service.js';
import type { ServicesWith } from '../module.types.js';
import type { TransferService } from '../transfers/transfers.service.js';
import { createBuyOrderService, type BuyOrderService } from './buy-orders.service.js';
import { ownerWallet } from './orders.common.js';
import { loadOrderFixtures } from './orders.fixtures.js';
import { withReferences, type OrderRepository } from './orders.references.js';
import { createOrderRepository } from './orders.repo.js';
import { orderHandlers } from './orders.routes.js';
import { createSellOrderService, type SellOrderService } from './sell-orders.service.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger'>;

export interface OrdersApi {
  sell: SellOrderService;
  buy: BuyOrderService;
}

/** Sell and buy orders: developer API handlers, control calls, fixture history, and clock progress. */
export function createOrdersModule(
  s: ModuleServices,
  outlets: OutletService,
  transfers: Pick<TransferService, 'resolveTarget'>,
): SandboxModule<OrdersApi> & { repo: OrderRepository } {
  const enterOwner = (ownerId: string) =>
    s.tenants.enter(s.identities.userById(ownerId)?.workspace_id ?? null);
  const repo = withReferences(createOrderRepository(s.db), {
    outletName: outlets.outletName,
    outletCategory: outlets.outletCategory,
    walletAddress: (accountId) => s.ledger.get(accountId)?.default_address ?? null,
  });
  const sell = createSellOrderService({
    orders: repo,
    outlets,
    sendTargets: transfers,
    ledger: s.ledger,
    unitOfWork: s.unitOfWork,
    clock: s.clock,
    ids: s.ids,
    autoAdvanceSeconds: () => s.config.sellOrderAutoAdvanceSeconds,
    dueWork: s.dueWork,
    enterOwner,
    identities: s.identities,
  });
  const buy = createBuyOrderService({
    orders: repo,
    payins: outlets,
    identities: s.identities,
    ledger: s.ledger,
    unitOfWork: s.unitOfWork,
    clock: s.clock,
    ids: s.ids,
    releaseSeconds: () => s.config.buyOrderReleaseSeconds,
    dueWork: s.dueWork,
    enterOwner,
  });
  // What orders will credit a wallet counts against its room (docs/design.md#money-bounds).
  s.ledger.countIncoming((accountId) => {
    const account = s.ledger.get(accountId);
    if (!account || account.owner_type !== 'user') return 0n;
    const named = ownerWallet(s.ledger, account.owner_id, account.currency)?.id === accountId;
    return repo.buyAwaitingReleaseInto(account, named) + repo.sellInFlightTo(accountId);
  });
  // Orders move as soon as their owner's clock says so (src/clock/due-work.ts).
  s.dueWork.register(sell.dueJob);
  s.dueWork.register(buy.dueJob);
  return {
    handlers: orderHandlers(sell, buy),
    fixtureSections: [(core, fx) => loadOrderFixtures(core, repo, fx)],
    api: { sell, buy },
    /** For tests that seed rows directly. */
    repo,
  };
}
