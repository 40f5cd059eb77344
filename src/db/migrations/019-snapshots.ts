/**
 * Saved states of workspaces (docs/design.md#saved-states): each snapshot keeps its whole JSON document,
 * so a restore or an export reads one row, and a snapshot outlives the workspace it was taken from.
 */
export const sql = /* sql */ `
CREATE TABLE snapshots (
  id TEXT PRIMARY KEY,
  -- The workspace it was taken from; NULL for an imported document.
  workspace_id TEXT,
  source TEXT NOT NULL CHECK (source IN ('workspace', 'import')),
  created_at INTEGER NOT NULL,
  -- The workspace's time in the saved state.
  taken_at INTEGER NOT NULL,
  counts TEXT NOT NULL,
  document TEXT NOT NULL
);
CREATE INDEX snapshots_by_workspace ON snapshots(workspace_id, created_at DESC, id DESC);
`;
