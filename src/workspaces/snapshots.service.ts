import { ApiError } from '../shared/api-error.js';
import type { ServicesWith } from '../module.types.js';
import type { PageRequest } from '../shared/pagination.js';
import { captureWorkspace, countRows, type SnapshotDocument } from './snapshot.capture.js';
import { checkDocument } from './snapshot.check.js';
import { microsOf } from './snapshot.columns.js';
import { restoreDocument } from './snapshot.restore.js';
import type { SnapshotRecord, SnapshotRepository } from './snapshots.repo.js';
import type { WorkspaceRepository } from './workspaces.repo.js';
import { snapshotView } from './workspaces.view.js';

type ModuleServices = ServicesWith<never>;

/** Thrown inside a trial restore to roll it back once it has proved the document restorable. */
const TRIAL_DONE = Symbol('trial restore done');

/**
 * Saved states of workspaces (docs/design.md#saved-states): take one, list them, export one as its
 * versioned JSON document, import a document, and restore one into a new workspace.
 */
export function createSnapshotService(
  s: ModuleServices,
  repo: SnapshotRepository,
  workspaces: WorkspaceRepository,
) {
  function store(
    doc: SnapshotDocument,
    workspaceId: string | null,
    source: SnapshotRecord['source'],
  ) {
    const record: SnapshotRecord = {
      id: s.ids(),
      workspace_id: workspaceId,
      source,
      created_at: s.clock.now(),
      taken_at: microsOf(doc.taken_at),
      counts: JSON.stringify(countRows(doc)),
      document: JSON.stringify(doc),
    };
    s.unitOfWork(() => repo.insert(record));
    return snapshotView(record);
  }

  function liveWorkspace(id: string) {
    const ws = workspaces.byId(id);
    if (!ws || ws.deleted_at !== null) throw ApiError.notFound();
    return ws;
  }

  return {
    take(workspaceId: string) {
      liveWorkspace(workspaceId);
      // The document keeps the workspace's own time (its clock may have been moved), not the sandbox's.
      const takenAt = s.tenants.nowOf(workspaceId);
      return store(
        captureWorkspace(s.db, workspaceId, takenAt, s.config),
        workspaceId,
        'workspace',
      );
    },

    /** A workspace's snapshots; they outlive it, so a deleted workspace still lists them (unknown → 404). */
    list(workspaceId: string, req: PageRequest) {
      if (!workspaces.byId(workspaceId)) throw ApiError.notFound();
      return {
        snapshots: repo.page(workspaceId, req.limit, req.offset).map(snapshotView),
        total: repo.count(workspaceId),
      };
    },

    /** Every stored snapshot (imported ones too), or those of one source, newest first. */
    listAll(source: SnapshotRecord['source'] | null, req: PageRequest) {
      return {
        snapshots: repo.pageAll(source, req.limit, req.offset).map(snapshotView),
        total: repo.countAll(source),
      };
    },

    export(id: string): SnapshotDocument {
      const r = repo.byId(id);
      if (!r) throw ApiError.notFound();
      return JSON.parse(r.document) as SnapshotDocument;
    },

    /** Store a document (already valid against its schema) once a trial restore has proved it whole. */
    import(doc: SnapshotDocument) {
      checkDocument(s.db, doc, s.tenants.sandbox.now(), s.config);
      try {
        s.unitOfWork(() => {
          const trial = s.ids();
          workspaces.insert(trial, s.clock.now(), s.clock.now());
          restoreDocument(s.db, doc, { workspaceId: trial, ids: s.ids, own: s.config });
          throw TRIAL_DONE;
        });
      } catch (err) {
        if (err !== TRIAL_DONE) throw err;
      }
      return store(doc, null, 'import');
    },

    /**
     * Restore snapshot `id` into the new workspace `workspaceId` (inside the caller's unit of work):
     * the times are kept as saved, and the workspace's clock is set to the snapshot's moment, so its
     * time goes on from there and every window keeps the time it had left. Returns the copy of each id.
     */
    restoreInto(id: string, workspaceId: string) {
      const r = repo.byId(id);
      if (!r) throw ApiError.field('from_snapshot', 'No snapshot has this id.');
      const doc = JSON.parse(r.document) as SnapshotDocument;
      // A snapshot stored before a rule was added is held to it too: a bad field is a 400, never a copy that fails later.
      checkDocument(s.db, doc, s.tenants.sandbox.now(), s.config);
      const copyOf = restoreDocument(s.db, doc, { workspaceId, ids: s.ids, own: s.config });
      s.tenants.setOffset(workspaceId, r.taken_at - s.tenants.sandbox.now());
      // The copy's rows fall due on its clock (expiries, settlements, retries, tokens): the due work's
      // guard has not seen them, so the next request runs the registry and learns their times.
      s.dueWork.invalidate();
      return { doc, copyOf };
    },
  };
}

export type SnapshotService = ReturnType<typeof createSnapshotService>;
