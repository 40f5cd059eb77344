/**
 * A clock per workspace (docs/design.md#the-clock): a workspace's time is the sandbox time plus its own
 * offset, in microseconds. Kept on the workspace row so that whatever copies a workspace copies its time.
 * The indexes find one workspace's merchants and users (the due work of one advanced workspace).
 */
export const sql = /* sql */ `
ALTER TABLE workspaces ADD COLUMN clock_offset INTEGER NOT NULL DEFAULT 0;
CREATE INDEX merchants_workspace ON merchants(workspace_id) WHERE workspace_id IS NOT NULL;
CREATE INDEX users_workspace ON users(workspace_id) WHERE workspace_id IS NOT NULL;
`;
