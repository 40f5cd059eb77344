import { outletsOf } from '../outlets/outlets.extension.js';
import type { SandboxExtension } from '../sandbox.js';
import type { Services } from '../services.js';
import { createBuyOrderService, type BuyOrderService } from './buy-orders.service.js';
import { loadOrderFixtures } from './orders.fixtures.js';
import { createOrderRepository, type OrderRepository } from './orders.repo.js';
import { orderHandlers } from './orders.routes.js';
import { createSellOrderService, type SellOrderService } from './sell-orders.service.js';

interface OrderModule {
  repo: OrderRepository;
  sell: SellOrderService;
  buy: BuyOrderService;
}

// One module per sandbox: its statements are prepared once against that sandbox's database.
const built = new WeakMap<Services, OrderModule>();

export function ordersOf(s: Services): OrderModule {
  let m = built.get(s);
  if (!m) {
    const repo = createOrderRepository(s.db);
    m = {
      repo,
      sell: createSellOrderService({
        orders: repo,
        outlets: outletsOf(s),
        ledger: s.ledger,
        unitOfWork: s.unitOfWork,
        clock: s.clock,
        ids: s.ids,
        autoAdvanceSeconds: () => s.config.sellOrderAutoAdvanceSeconds,
      }),
      buy: createBuyOrderService({ orders: repo, identities: s.identities, ledger: s.ledger, clock: s.clock, ids: s.ids }),
    };
    built.set(s, m);
  }
  return m;
}

/** Sell and buy orders: developer API handlers, control calls, fixture history, and clock progress. */
export const ordersExtension: SandboxExtension = {
  handlers: (s) => orderHandlers(ordersOf(s).sell, ordersOf(s).buy),
  fixtureSections: [(s, fx) => loadOrderFixtures(s, ordersOf(s).repo, fx)],
  tick: (s) => void ordersOf(s).sell.advanceDue(),
};
