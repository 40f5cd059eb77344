/**
 * SQL for the tenant of a row (docs/design.md#the-clock), owned here because the tenant is an identity's:
 * other modules' due queries compare each row with its tenant's time, `ws_offset(<workspace>)`
 * (src/db/tenant-sql.ts), and find one workspace's rows, without knowing the identity tables.
 */

/** The workspace (or NULL, the base data) of the merchant whose id is in `column`. */
export const merchantWorkspaceSql = (column: string): string =>
  `(SELECT workspace_id FROM merchants WHERE id = ${column})`;

/** The workspace (or NULL) of the user (a customer or an app's owner) whose id is in `column`. */
export const userWorkspaceSql = (column: string): string =>
  `(SELECT workspace_id FROM users WHERE id = ${column})`;

/** The ids of the merchants of workspace `@ws`. */
export const merchantsOfWorkspaceSql = 'SELECT id FROM merchants WHERE workspace_id = @ws';

/** The ids of the users of workspace `@ws`. */
export const usersOfWorkspaceSql = 'SELECT id FROM users WHERE workspace_id = @ws';
