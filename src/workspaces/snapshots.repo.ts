import type { Db } from '../db/open.js';

export interface SnapshotRecord {
  id: string;
  workspace_id: string | null;
  source: 'workspace' | 'import';
  created_at: number;
  taken_at: number;
  counts: string;
  document: string;
}

/** Saved states (the `snapshots` table of migration 019). */
export function createSnapshotRepository(db: Db) {
  const insert = db.prepare(
    `INSERT INTO snapshots (id, workspace_id, source, created_at, taken_at, counts, document)
     VALUES (@id, @workspace_id, @source, @created_at, @taken_at, @counts, @document)`,
  );
  const byId = db.prepare('SELECT * FROM snapshots WHERE id = ?');
  const page = db.prepare(
    `SELECT id, workspace_id, source, created_at, taken_at, counts FROM snapshots WHERE workspace_id = ?
     ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
  );
  const count = db.prepare('SELECT COUNT(*) FROM snapshots WHERE workspace_id = ?').pluck();
  // Every snapshot, or those of one source (`@source` null: all of them).
  const pageAll = db.prepare(
    `SELECT id, workspace_id, source, created_at, taken_at, counts FROM snapshots
     WHERE @source IS NULL OR source = @source
     ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
  );
  const countAll = db
    .prepare('SELECT COUNT(*) FROM snapshots WHERE @source IS NULL OR source = @source')
    .pluck();
  return {
    insert: (r: SnapshotRecord) => void insert.run(r),
    byId: (id: string) => byId.get(id) as SnapshotRecord | undefined,
    page: (workspaceId: string, limit: number, offset: number) =>
      page.all(workspaceId, limit, offset) as Omit<SnapshotRecord, 'document'>[],
    count: (workspaceId: string) => count.get(workspaceId) as number,
    pageAll: (source: SnapshotRecord['source'] | null, limit: number, offset: number) =>
      pageAll.all({ source, limit, offset }) as Omit<SnapshotRecord, 'document'>[],
    countAll: (source: SnapshotRecord['source'] | null) => countAll.get({ source }) as number,
  };
}

export type SnapshotRepository = ReturnType<typeof createSnapshotRepository>;
