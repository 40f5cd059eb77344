import { ApiError } from '../http/api-error.js';
import type { AppRow, MerchantRow, UserRow } from '../identities/identities.repo.js';
import { sandboxApp, sandboxCustomer, sandboxMerchant } from '../identities/identity.view.js';
import type { ServicesWith } from '../module.types.js';
import { formatTimestamp } from '../shared/clock.js';
import type { SnapshotDocument } from './snapshot.capture.js';
import { createSnapshotRepository } from './snapshots.repo.js';
import { createSnapshotService, type SnapshotService } from './snapshots.service.js';
import { createWorkspaceRepository, type WorkspaceRepository } from './workspaces.repo.js';

/** The infrastructure and the module apis this code uses. */
type ModuleServices = ServicesWith<'identities' | 'ledger'>;

export const DEFAULT_WORKSPACE_TTL_SECONDS = 3600;
/** Pesos in the application owner's and the customer's wallets, as the control API takes amounts. */
const WORKSPACE_BALANCE = '100000';

/**
 * What a workspace needs to make its identities: the control module's provisioning service fits it
 * (declared here so that workspaces do not depend on the control module that serves them).
 */
export interface WorkspaceProvisioning {
  createMerchant(input: { name: string }, workspaceId: string): MerchantRow;
  createApp(input: { name: string; mfa_whitelisted: boolean; balance: string }, workspaceId: string): { app: AppRow; owner: UserRow };
  createCustomer(input: { balance: string }, workspaceId: string, emailHint: string): UserRow;
}

/**
 * Workspaces (docs/design.md#control-api): an isolated merchant, HMAC application and funded customer in one call,
 * so parallel CI jobs each take one instead of restarting the server. Isolation comes from the merchant
 * scoping of every invoice query; ending a workspace disables its credentials.
 */
export function createWorkspaceService(
  s: ModuleServices,
  repo: WorkspaceRepository,
  provisioning: WorkspaceProvisioning,
  snapshots: SnapshotService,
) {
  function end(id: string, at: number): void {
    s.unitOfWork(() => {
      repo.markDeleted(id, at);
      s.identities.disableWorkspace(id);
    });
  }

  /** The first merchant, application and customer of a restored document, as the workspace resource shows them. */
  function restoredView(id: string, expiresAt: number, doc: SnapshotDocument, copyOf: (old: string) => string) {
    const merchant = s.identities.merchantById(copyOf(doc.tables.merchants![0]!.id as string))!;
    const app = s.identities.appByKey(copyOf(doc.tables.apps![0]!.api_key as string))!;
    const customer = s.identities.userById(copyOf(doc.tables.users!.find((u) => u.kind === 'customer')!.id as string))!;
    return {
      id,
      expires_at: formatTimestamp(expiresAt),
      merchant: sandboxMerchant(merchant),
      app: sandboxApp(app, s.identities.userById(app.owner_id)!, s.ledger),
      customer: sandboxCustomer(customer, s.ledger),
    };
  }

  return {
    snapshots,

    create(ttlSeconds = DEFAULT_WORKSPACE_TTL_SECONDS, fromSnapshot?: string) {
      return s.unitOfWork(() => {
        const id = s.ids();
        const now = s.clock.now();
        const expiresAt = now + ttlSeconds * 1_000_000;
        repo.insert(id, now, expiresAt);
        if (fromSnapshot !== undefined) {
          const { doc, copyOf } = snapshots.restoreInto(fromSnapshot, id);
          return { ...restoredView(id, expiresAt, doc, copyOf), from_snapshot: fromSnapshot };
        }
        const merchant = provisioning.createMerchant({ name: `Workspace ${id.slice(0, 8)} merchant` }, id);
        const { app, owner } = provisioning.createApp(
          { name: `Workspace ${id.slice(0, 8)} app`, mfa_whitelisted: true, balance: WORKSPACE_BALANCE },
          id,
        );
        const customer = provisioning.createCustomer(
          { balance: WORKSPACE_BALANCE },
          id,
          `ws-${id}@customer.example.ph`,
        );
        return {
          id,
          expires_at: formatTimestamp(expiresAt),
          merchant: sandboxMerchant(merchant),
          app: sandboxApp(app, owner, s.ledger),
          customer: sandboxCustomer(customer, s.ledger),
        };
      });
    },

    /** Idempotent for a known workspace (a CI clean-up after the TTL still gets 204); unknown → 404. */
    delete(id: string): void {
      if (!repo.byId(id)) throw ApiError.notFound();
      end(id, s.clock.now());
    },

    /**
     * Disable every workspace whose TTL has run out on the sandbox clock (called from the tick): all of
     * them, a batch (the repository's limit) at a time until none is due.
     */
    expireDue(): string[] {
      const now = s.clock.now();
      const ended: string[] = [];
      for (let due = repo.dueForExpiry(now); due.length; due = repo.dueForExpiry(now)) {
        for (const id of due) end(id, repo.byId(id)!.expires_at ?? now);
        ended.push(...due);
      }
      return ended;
    },
  };
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;

/** Workspaces over their own repository, for the control module that serves them. */
export function createWorkspaces(s: ModuleServices, provisioning: WorkspaceProvisioning) {
  const repo = createWorkspaceRepository(s.db);
  return createWorkspaceService(s, repo, provisioning, createSnapshotService(s, createSnapshotRepository(s.db), repo));
}
