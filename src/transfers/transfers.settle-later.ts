import type { DueJob, DueWork } from '../clock/due-work.js';
import type { TenantClocks } from '../clock/tenant-clocks.js';
import type { UnitOfWork } from '../db/unit-of-work.js';
import { ApiError } from '../shared/api-error.js';
import { requireLiveWorkspace, type IdentitiesApi } from '../identities/identities.api.js';
import { BalanceLimitError } from '../ledger/ledger.api.js';
import type { Clock } from '../shared/clock.js';
import { pageMeta, pageRequest, type PageMeta } from '../shared/pagination.js';

/**
 * The one settle-later mechanism of the sandbox's sends (transfers, crypto payments, conversions). Each
 * is created `pending` with its money held in a clearing account, and is finished later: by the sandbox
 * clock of its owner's tenant once `--transfer-delay` has passed (`settleDue`, `success`: due work registered
 * with src/clock/due-work.ts through `settleLaterJob`), or at once through the control API
 * (`setPendingStatus`, `success` or `failed`; a deleted workspace's send is a 409). What "finish" moves in the ledger is the caller's; when it
 * happens, and that only a pending send finishes, is decided here for all of them.
 */
export type Outcome = 'success' | 'failed';

interface PendingRow {
  id: string;
  status: string;
  /** The user who sent it: a deleted workspace's sends no longer move (requireLiveWorkspace). */
  owner_id: string;
}

export interface SettleDueDeps<R> {
  unitOfWork: UnitOfWork;
  clock: Clock;
  /** Each settlement is written on its owner's tenant clock. */
  tenants: Pick<TenantClocks, 'within'>;
  /** Seconds (on the owner's clock) before a pending send settles by itself (0: only through the control API). */
  settleSeconds: () => number;
  /**
   * Pending rows created at or before `createdBy` on their tenant's clock (`createdBy` is the sandbox time
   * minus the delay), oldest first, a bounded batch, each with its tenant.
   */
  duePending: (createdBy: number) => Array<R & { tenant: string | null }>;
  /** Moves the held money to its destination and records `success`. */
  settle: (row: R) => void;
  /** Gives the held money back and records `failed`: for a send whose destination cannot take it. */
  fail: (row: R) => void;
}

/**
 * One due send: settled in a savepoint of its own; when the destination would pass the ledger's bound
 * (docs/design.md#money-bounds), the send fails instead and its money goes back, so that one full wallet
 * never stalls the clock's work.
 */
function settleOrFail<R>(d: SettleDueDeps<R>, row: R): void {
  try {
    d.unitOfWork(() => d.settle(row));
  } catch (err) {
    if (!(err instanceof BalanceLimitError)) throw err;
    d.fail(row);
  }
}

const delayMicros = (d: { settleSeconds: () => number }) =>
  Math.round(d.settleSeconds() * 1_000_000);

/** The clock's own progress: every pending send older than the delay settles; returns how many did. */
export function settleDue<R>(d: SettleDueDeps<R>): number {
  const delay = delayMicros(d);
  if (delay <= 0) return 0;
  let settled = 0;
  for (;;) {
    const due = d.duePending(d.clock.now() - delay);
    if (!due.length) return settled;
    d.unitOfWork(() =>
      due.forEach((row) => d.tenants.within(row.tenant, () => settleOrFail(d, row))),
    );
    settled += due.length;
  }
}

/**
 * One kind of send as due work: it settles `settleSeconds` after its creation; `earliestPending` is the
 * oldest pending creation time (of all, or of one workspace), on its tenant's clock.
 */
export function settleLaterJob<R>(
  name: string,
  d: SettleDueDeps<R> & { earliestPending: (ws: string | null) => number | null },
): DueJob {
  return {
    name,
    run: () => void settleDue(d),
    earliest(ws) {
      const delay = delayMicros(d);
      const t = delay > 0 ? d.earliestPending(ws) : null;
      return t === null ? null : t + delay;
    },
  };
}

/** A send created now (on the current tenant's clock) will settle after the delay: tell the due work. */
export function expectSettlement(
  d: { dueWork: Pick<DueWork, 'expect'>; settleSeconds: () => number },
  createdAt: number,
): void {
  const delay = delayMicros(d);
  if (delay > 0) d.dueWork.expect(createdAt + delay);
}

export interface SetPendingStatusDeps<R extends PendingRow> {
  unitOfWork: UnitOfWork;
  /** How a 409 names the resource: `Transfer`, `Conversion`. */
  noun: string;
  byId: (id: string) => R | undefined;
  /** Moves the held money on (to the destination on `success`, back on `failed`) and records the status. */
  finish: (row: R, to: Outcome) => void;
  identities: Pick<IdentitiesApi, 'ownerWorkspaceEnded'>;
}

/**
 * A control call's settle or fail of one pending send, in one transaction: 404 for an unknown id, 409
 * unless it is still pending (one past its delay has settled first). Returns the row as it is afterwards.
 */
export function setPendingStatus<R extends PendingRow>(
  d: SetPendingStatusDeps<R>,
  id: string,
  to: Outcome,
): R {
  // A send already due has settled before this request's handler ran (the due work runs first), so it
  // can no longer fail: whether the tick or the control call comes first does not change the answer.
  return d.unitOfWork(() => {
    const row = d.byId(id);
    if (!row) throw ApiError.notFound();
    requireLiveWorkspace(
      d.identities,
      { type: 'user', id: row.owner_id },
      d.noun.toLowerCase(),
      `it cannot become ${to}.`,
    );
    if (row.status !== 'pending') {
      throw ApiError.general(
        'invalid_state_transition',
        `${d.noun} is ${row.status}; only a pending ${d.noun.toLowerCase()} can become ${to}.`,
      );
    }
    d.finish(row, to);
    return d.byId(id)!;
  });
}

/** Where one kind of send is kept: the reads the shared methods below need. */
export interface PendingSendStore<R> {
  byId(id: string): R | undefined;
  forOwner(id: string, ownerId: string): R | undefined;
  page(ownerId: string, limit: number, offset: number): R[];
  count(ownerId: string): number;
  duePending(createdBy: number): Array<R & { tenant: string | null }>;
  earliestPending(ws: string | null): number | null;
}

/**
 * What every kind of send answers the same way, around its own `finish` (what settling or failing moves
 * in the ledger) and its wire shape (`view`): the control call's settle or fail, the clock's settlements
 * as due work, one send of its owner, and the owner's page of them under `listKey`.
 */
export function pendingSendMethods<R extends PendingRow, V, K extends string>(o: {
  deps: Omit<SettleDueDeps<R>, 'duePending' | 'settle' | 'fail'>;
  /** The due work's name (`transfers.settlement`). */
  job: string;
  /** How a 409 names the resource: `Transfer`, `Conversion`. */
  noun: string;
  listKey: K;
  store: PendingSendStore<R>;
  finish: (row: R, to: Outcome) => void;
  view: (row: R) => V;
  /** Whether a send's owner is of a deleted workspace (its control settle or fail is then a 409). */
  identities: Pick<IdentitiesApi, 'ownerWorkspaceEnded'>;
}) {
  const settling: SettleDueDeps<R> = {
    ...o.deps,
    duePending: o.store.duePending,
    settle: (row) => o.finish(row, 'success'),
    fail: (row) => o.finish(row, 'failed'),
  };
  return {
    /** `POST /_sandbox/<sends>/{id}/status`: settle (`success`) or fail a pending send now. */
    setStatus(id: string, to: Outcome): V {
      const pending = {
        unitOfWork: o.deps.unitOfWork,
        noun: o.noun,
        byId: o.store.byId,
        identities: o.identities,
      };
      return o.view(setPendingStatus({ ...pending, finish: o.finish }, id, to));
    },
    /** The clock's own progress: every pending send older than the delay settles. */
    settleDue: (): number => settleDue(settling),
    /** The same as due work (src/clock/due-work.ts), registered by the module. */
    dueJob: settleLaterJob(o.job, { ...settling, earliestPending: o.store.earliestPending }),
    /** One send of the owner (anyone else's answers as unknown). */
    get(ownerId: string, id: string): V {
      const row = o.store.forOwner(id, ownerId);
      if (!row) throw ApiError.notFound();
      return o.view(row);
    },
    list(ownerId: string, query: { page?: number; per_page?: number }) {
      const req = pageRequest(query);
      const items = o.store.page(ownerId, req.limit, req.offset).map(o.view);
      return { [o.listKey]: items, meta: pageMeta(req, o.store.count(ownerId)) } as Record<
        K,
        V[]
      > & { meta: PageMeta };
    },
  };
}
