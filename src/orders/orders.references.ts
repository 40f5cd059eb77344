import type {
  createOrderRepository,
  SellOrderRow,
  BuyOrderRow,
  StoredBuyOrder,
  StoredSellOrder,
} from './orders.repo.js';

/** What an order names that other modules own: its outlet's name and category (outlets) and its wallet's address (ledger). */
export interface OrderReferences {
  outletName(outletId: string): string;
  outletCategory(outletId: string): string | null;
  walletAddress(accountId: string): string | null;
}

type StoredOrderRepository = ReturnType<typeof createOrderRepository>;

/**
 * The order repository with each order's outlet name and wallet address filled in through the owning
 * modules' apis: the orders module reads and writes only its own tables (docs/design.md#architecture).
 */
export function withReferences(repo: StoredOrderRepository, refs: OrderReferences) {
  const sell = (r: StoredSellOrder): SellOrderRow => ({
    ...r,
    outlet_name: refs.outletName(r.outlet_id),
    outlet_category: refs.outletCategory(r.outlet_id),
  });
  const buy = (r: StoredBuyOrder): BuyOrderRow => ({
    ...r,
    wallet_address: r.account_id === null ? null : refs.walletAddress(r.account_id),
  });
  const maybe =
    <A, B>(f: (a: A) => B) =>
    (a: A | undefined) =>
      a === undefined ? undefined : f(a);
  return {
    ...repo,
    sellById: (id: string) => maybe(sell)(repo.sellById(id)),
    sellForOwner: (id: string, ownerId: string) => maybe(sell)(repo.sellForOwner(id, ownerId)),
    sellPage: (ownerId: string, limit: number, offset: number) =>
      repo.sellPage(ownerId, limit, offset).map(sell),
    dueSell: (before: number) => repo.dueSell(before).map(sell),
    buyById: (id: string) => maybe(buy)(repo.buyById(id)),
    buyForOwner: (id: string, ownerId: string) => maybe(buy)(repo.buyForOwner(id, ownerId)),
    dueExpiry: (now: number) => repo.dueExpiry(now).map(buy),
    dueRelease: (before: number) => repo.dueRelease(before).map(buy),
    buyPage: (ownerId: string, limit: number, offset: number) =>
      repo.buyPage(ownerId, limit, offset).map(buy),
  };
}

export type OrderRepository = ReturnType<typeof withReferences>;
