import type { App, Merchant, User } from '../identities/identities.api.js';
import { sandboxApp, sandboxCustomer, sandboxMerchant } from '../identities/identity.view.js';
import type { LedgerApi } from '../ledger/ledger.api.js';
import { formatTimestamp } from '../shared/clock.js';

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
