import { ApiError } from '../shared/api-error.js';
import { required } from '../shared/defined.js';
import { inboxPath, thankYouPath } from '../shared/sandbox-url.js';
import type { App, Merchant, User } from '../identities/identities.api.js';
import type { DueJob } from '../clock/due-work.js';
import type { ServicesWith } from '../module.types.js';
import { rowsOf, type SnapshotDocument, type SnapshotRow } from './snapshot.capture.js';
import { createSnapshotRepository } from './snapshots.repo.js';
import { createSnapshotService, type SnapshotService } from './snapshots.service.js';
import { createWorkspaceRepository, type WorkspaceRepository } from './workspaces.repo.js';
import { workspaceClockResource, workspaceResource } from './workspaces.view.js';

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
  createMerchant(input: { name: string }, workspaceId: string): Merchant;
  updateMerchant(id: string, input: { callback_url: string; redirect_url: string }): Merchant;
  createApp(
    input: { name: string; mfa_whitelisted: boolean; balance: string },
    workspaceId: string,
  ): { app: App; owner: User };
  createCustomer(input: { balance: string }, workspaceId: string, emailHint: string): User;
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
      // Its objects fall back to the sandbox time, never ahead of its own: nothing expired comes back.
      s.tenants.setOffset(id, s.tenants.offsetOf(id), false);
    });
  }

  /** A live workspace, or the control API's 404. */
  function live(id: string) {
    const row = repo.byId(id);
    if (!row || row.deleted_at !== null) throw ApiError.notFound();
    return row;
  }

  const clockView = (id: string) =>
    workspaceClockResource(s.tenants.nowOf(id), s.tenants.offsetOf(id));

  /** The first merchant, application and customer of a restored document, as the workspace resource shows them. */
  function restoredView(
    id: string,
    expiresAt: number,
    doc: SnapshotDocument,
    copyOf: (old: string) => string,
  ) {
    // The document was checked before the restore: it has a merchant, an application and a customer.
    const copied = (row: SnapshotRow | undefined, column: string, what: string) =>
      copyOf(String(required(row, `${what} in the saved state`)[column]));
    const users = rowsOf(doc, 'users');
    const merchantId = copied(rowsOf(doc, 'merchants')[0], 'id', 'a merchant');
    const apiKey = copied(rowsOf(doc, 'apps')[0], 'api_key', 'an application');
    const customerId = copied(
      users.find((u) => u.kind === 'customer'),
      'id',
      'a customer',
    );
    const merchant = required(
      s.identities.merchantById(merchantId),
      `restored merchant ${merchantId}`,
    );
    const app = required(s.identities.appByKey(apiKey), `restored application ${apiKey}`);
    const customer = required(s.identities.userById(customerId), `restored customer ${customerId}`);
    const owner = required(s.identities.userById(app.owner_id), `the owner of ${apiKey}`);
    return workspaceResource({ id, expiresAt, merchant, app, owner, customer }, s.ledger);
  }

  const service = {
    snapshots,

    create(ttlSeconds = DEFAULT_WORKSPACE_TTL_SECONDS, fromSnapshot?: string) {
      return s.unitOfWork(() => {
        const id = s.ids();
        // A workspace's TTL is the sandbox's housekeeping: on the sandbox clock, whatever its own says.
        const now = s.tenants.sandbox.now();
        const expiresAt = now + ttlSeconds * 1_000_000;
        repo.insert(id, now, expiresAt);
        if (fromSnapshot !== undefined) {
          const { doc, copyOf } = snapshots.restoreInto(fromSnapshot, id);
          return { ...restoredView(id, expiresAt, doc, copyOf), from_snapshot: fromSnapshot };
        }
        const created = provisioning.createMerchant(
          { name: `Workspace ${id.slice(0, 8)} merchant` },
          id,
        );
        // Out of the box like the first fixture merchant: its callbacks land in its own example
        // receiver and its customers return to its thank-you page, both on this sandbox.
        const merchant = provisioning.updateMerchant(created.id, {
          callback_url: inboxPath(created.id),
          redirect_url: thankYouPath(created.id),
        });
        const { app, owner } = provisioning.createApp(
          {
            name: `Workspace ${id.slice(0, 8)} app`,
            mfa_whitelisted: true,
            balance: WORKSPACE_BALANCE,
          },
          id,
        );
        const customer = provisioning.createCustomer(
          { balance: WORKSPACE_BALANCE },
          id,
          `ws-${id}@customer.example.ph`,
        );
        return workspaceResource({ id, expiresAt, merchant, app, owner, customer }, s.ledger);
      });
    },

    /** Idempotent for a known workspace (a CI clean-up after the TTL still gets 204); unknown → 404. */
    delete(id: string): void {
      if (!repo.byId(id)) throw ApiError.notFound();
      end(id, s.tenants.sandbox.now());
    },

    /**
     * Disable every workspace whose TTL has run out on the sandbox clock (due work, src/clock/due-work.ts):
     * all of them, a batch (the repository's limit) at a time until none is due.
     */
    expireDue(): string[] {
      const now = s.tenants.sandbox.now();
      const ended: string[] = [];
      for (let due = repo.dueForExpiry(now); due.length; due = repo.dueForExpiry(now)) {
        for (const id of due) end(id, repo.byId(id)?.expires_at ?? now);
        ended.push(...due);
      }
      return ended;
    },

    /** The TTLs as due work: on the sandbox clock, so no workspace's own offset applies. */
    dueJob: (): DueJob => ({
      name: 'workspaces.ttl',
      run: () => void service.expireDue(),
      earliest: (ws) => (ws === null ? repo.nextExpiry() : null),
    }),

    /** `GET /_sandbox/workspaces/{id}/clock`: its own time and offset; 404 unless live. */
    /**
     * A `workspace_id` a control create names (a merchant, app or customer made inside a workspace):
     * null when none is given, the id when it is a live workspace, else 400 on the field.
     */
    liveWorkspaceId(id: string | undefined): string | null {
      if (id === undefined) return null;
      const row = repo.byId(id);
      if (!row || row.deleted_at !== null)
        throw ApiError.field('workspace_id', `No live workspace has the id "${id}".`);
      return row.id;
    },

    clock(id: string) {
      live(id);
      return clockView(id);
    },

    /**
     * Move one workspace's clock forward (the caller then runs the due work: only this workspace's has
     * newly fallen due). Nobody else's time moves.
     */
    advanceClock(id: string, seconds: number) {
      live(id);
      s.unitOfWork(() =>
        s.tenants.setOffset(id, s.tenants.offsetOf(id) + Math.round(seconds * 1_000_000)),
      );
      return clockView(id);
    },

    /** Back on the sandbox time; what already happened (an expired invoice) stays as it is. */
    resetClock(id: string) {
      live(id);
      s.unitOfWork(() => s.tenants.setOffset(id, 0));
      return clockView(id);
    },
  };
  return service;
}

export type WorkspaceService = ReturnType<typeof createWorkspaceService>;

/** Workspaces over their own repository, for the control module that serves them. */
export function createWorkspaces(s: ModuleServices, provisioning: WorkspaceProvisioning) {
  const repo = createWorkspaceRepository(s.db);
  return createWorkspaceService(
    s,
    repo,
    provisioning,
    createSnapshotService(s, createSnapshotRepository(s.db), repo),
  );
}
