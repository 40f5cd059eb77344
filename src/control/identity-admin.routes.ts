import { currentOtp } from '../auth/otp.js';
import { ApiError } from '../shared/api-error.js';
import { ok, type Handlers } from '../http/operation.js';
import { sandboxApp, sandboxCustomer, sandboxMerchant } from '../identities/identity.view.js';
import { sandboxAccount } from '../ledger/accounts.view.js';
import type { ServicesWith } from '../module.types.js';
import type { WorkspaceService } from '../workspaces/workspaces.service.js';
import type { ProvisioningService } from './provisioning.service.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger'>;

/** Merchants, applications, customers, accounts and workspaces made or changed by QA (docs/design.md#control-api). */
export function identityAdminHandlers(
  s: ModuleServices,
  provisioning: ProvisioningService,
  workspaces: WorkspaceService,
): Handlers {
  const appView = (apiKey: string) => {
    const app = s.identities.appByKey(apiKey);
    if (!app) throw ApiError.notFound();
    return sandboxApp(app, s.identities.userById(app.owner_id)!, s.ledger);
  };
  return {
    createMerchant: ({ body }) => {
      const { workspace_id, ...input } = body;
      const ws = workspaces.liveWorkspaceId(workspace_id);
      const merchant = s.tenants.within(ws, () => provisioning.createMerchant(input, ws));
      return ok({ merchant: sandboxMerchant(merchant) }, 201);
    },
    updateMerchant: ({ params, body }) =>
      ok({ merchant: sandboxMerchant(provisioning.updateMerchant(params.merchant_id, body)) }),
    createApp: ({ body }) => {
      const { workspace_id, ...input } = body ?? {};
      const ws = workspaces.liveWorkspaceId(workspace_id);
      const { app, owner } = s.tenants.within(ws, () => provisioning.createApp(input, ws));
      return ok({ app: sandboxApp(app, owner, s.ledger) }, 201);
    },
    resetAppNonce: ({ params }) => {
      appView(params.api_key);
      s.identities.resetNonce(params.api_key);
      return ok({ app: appView(params.api_key) });
    },
    /** The code valid now on the app's clock (its workspace's, which may be ahead of the sandbox's and of real time). */
    getAppOtp: ({ params }) => {
      const app = s.identities.appByKey(params.api_key);
      if (!app) throw ApiError.notFound();
      const { otp, expiresInSeconds } = currentOtp(
        app.otp_secret,
        Math.floor(s.tenants.nowOf(app.workspace_id) / 1000),
      );
      return ok({ otp, expires_in_seconds: expiresInSeconds });
    },
    createCustomer: ({ body }) => {
      const { workspace_id, ...input } = body ?? {};
      const ws = workspaces.liveWorkspaceId(workspace_id);
      const customer = s.tenants.within(ws, () => provisioning.createCustomer(input, ws));
      return ok({ customer: sandboxCustomer(customer, s.ledger) }, 201);
    },
    getAccount: ({ params }) =>
      ok({ account: sandboxAccount(provisioning.wallet(params.account_id)) }),
    fundAccount: ({ params, body }) =>
      ok({ account: sandboxAccount(provisioning.fundAccount(params.account_id, body.amount)) }),
    createWorkspace: ({ body }) =>
      ok({ workspace: workspaces.create(body?.ttl_seconds, body?.from_snapshot) }, 201),
    deleteWorkspace: ({ params }) => {
      workspaces.delete(params.workspace_id);
      return { status: 204 };
    },
  };
}
