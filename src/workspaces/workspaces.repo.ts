import type { Db } from '../db/open.js';

export interface WorkspaceRow {
  id: string;
  created_at: number;
  expires_at: number | null;
  deleted_at: number | null;
  /** Its clock's offset from the sandbox clock, in microseconds (docs/design.md#the-clock). */
  clock_offset: number;
}

/** Workspaces (the `workspaces` table of migration 001): one row per isolated tenant. */
export function createWorkspaceRepository(db: Db) {
  const insert = db.prepare(
    'INSERT INTO workspaces (id, created_at, expires_at, deleted_at) VALUES (?, ?, ?, NULL)',
  );
  const byId = db.prepare('SELECT * FROM workspaces WHERE id = ?');
  const due = db.prepare(
    'SELECT id FROM workspaces WHERE deleted_at IS NULL AND expires_at <= ? ORDER BY expires_at LIMIT 500',
  );
  const nextExpiry = db.prepare(
    'SELECT MIN(expires_at) AS t FROM workspaces WHERE deleted_at IS NULL',
  );
  const markDeleted = db.prepare(
    'UPDATE workspaces SET deleted_at = ? WHERE id = ? AND deleted_at IS NULL',
  );

  return {
    insert: (id: string, createdAt: number, expiresAt: number) =>
      void insert.run(id, createdAt, expiresAt),
    byId: (id: string) => byId.get(id) as WorkspaceRow | undefined,
    dueForExpiry: (now: number) => (due.all(now) as Array<{ id: string }>).map((r) => r.id),
    /** The earliest TTL of a live workspace (on the sandbox clock), or null. */
    nextExpiry: () => (nextExpiry.get() as { t: number | null }).t,
    /** True when this call ended the workspace (it was still live). */
    markDeleted: (id: string, at: number) => markDeleted.run(at, id).changes === 1,
  };
}

export type WorkspaceRepository = ReturnType<typeof createWorkspaceRepository>;
