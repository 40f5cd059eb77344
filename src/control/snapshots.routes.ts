import { ok, type Handlers } from '../http/operation.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';
import type { SnapshotDocument } from '../workspaces/snapshot.capture.js';
import type { WorkspaceService } from '../workspaces/workspaces.service.js';
import type { SandboxControls } from './clock.routes.js';

/** createSnapshot, listSnapshots, listAllSnapshots, exportSnapshot, importSnapshot: saved workspace states (docs/design.md#saved-states). */
export function snapshotHandlers(
  workspaces: WorkspaceService,
  sandbox: Pick<SandboxControls, 'tick'>,
): Handlers {
  const snapshots = workspaces.snapshots;
  return {
    createSnapshot: ({ params }) => {
      // What is due on the clock happens first (expiry, settlements), so the saved state is what a read answers now.
      sandbox.tick();
      return ok({ snapshot: snapshots.take(params.workspace_id) }, 201);
    },
    listSnapshots: ({ params, query }) => {
      const req = pageRequest(query);
      const { snapshots: page, total } = snapshots.list(params.workspace_id, req);
      return ok({ snapshots: page, meta: pageMeta(req, total) });
    },
    listAllSnapshots: ({ query }) => {
      const req = pageRequest(query);
      const { snapshots: page, total } = snapshots.listAll(query.source ?? null, req);
      return ok({ snapshots: page, meta: pageMeta(req, total) });
    },
    exportSnapshot: ({ params }) => ok(snapshots.export(params.snapshot_id) as never),
    importSnapshot: ({ body }) =>
      ok({ snapshot: snapshots.import(body as unknown as SnapshotDocument) }, 201),
  };
}
