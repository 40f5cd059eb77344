import type { App, Merchant, User } from '../identities/identities.api.js';
import { sandboxApp, sandboxCustomer, sandboxMerchant } from '../identities/identity.view.js';
import type { LedgerApi } from '../ledger/ledger.api.js';
import { formatTimestamp } from '../shared/clock.js';
import type { SnapshotRecord } from './snapshots.repo.js';

/** A new workspace as `POST /_sandbox/workspaces` answers it: its identities with their credentials. */
export function workspaceResource(
  w: { id: string; expiresAt: number; merchant: Merchant; app: App; owner: User; customer: User },
  ledger: LedgerApi,
) {
  return {
    id: w.id,
    expires_at: formatTimestamp(w.expiresAt),
    merchant: sandboxMerchant(w.merchant),
    app: sandboxApp(w.app, w.owner, ledger),
    customer: sandboxCustomer(w.customer, ledger),
  };
}

/** The snapshot resource of the control API. */
export function snapshotView(r: Omit<SnapshotRecord, 'document'>) {
  return {
    id: r.id,
    workspace_id: r.workspace_id,
    source: r.source,
    created_at: formatTimestamp(r.created_at),
    taken_at: formatTimestamp(r.taken_at),
    counts: JSON.parse(r.counts) as Record<string, number>,
  };
}

/** A workspace's clock: its time now and its own offset from the sandbox clock. */
export function workspaceClockResource(nowMicros: number, offsetMicros: number) {
  return { now: formatTimestamp(nowMicros), offset_seconds: offsetMicros / 1_000_000 };
}
