import type { DueWork } from '../clock/due-work.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../shared/api-error.js';
import type { Account, LedgerApi } from '../ledger/ledger.api.js';
import type { Clock } from '../shared/clock.js';
import type { OrderRepository } from './orders.references.js';

/** What the sell and the buy order services both use. */
export interface OrderServiceDeps {
  orders: OrderRepository;
  ledger: LedgerApi;
  unitOfWork: UnitOfWork;
  clock: Clock;
  /** Told when an order's next step on the clock falls due. */
  dueWork: Pick<DueWork, 'expect'>;
}

/** The owner's oldest wallet in a currency: the one fixtures and workspaces fund. */
export function ownerWallet(
  ledger: LedgerApi,
  ownerId: string,
  currency: string,
): Account | undefined {
  return ledger
    .byOwner('user', ownerId)
    .filter((a) => a.currency === currency)
    .at(-1);
}

/**
 * One step of an order's status, compare-and-set (`set` writes it only if the status is still
 * `from`): 409 `invalid_state_transition` when the move is not allowed or another step came first.
 */
export function stepStatus<S extends string>(
  kind: 'Buy order' | 'Sell order',
  transitions: Record<S, S[]>,
  from: S,
  to: S,
  set: () => boolean,
): void {
  if (!transitions[from].includes(to) || !set())
    throw ApiError.general(
      'invalid_state_transition',
      `${kind} is ${from} and cannot move to ${to}.`,
    );
}
