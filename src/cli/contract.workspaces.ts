import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createControlClient, PaySandboxApiError } from '../client/index.js';

/**
 * The run's workspace ledger: a file listing the workspaces a contract run holds on a sandbox behind
 * `--base-url`, written by the suite (contract-tests/harness/run.workspace.ts) when it takes them and
 * emptied when it has deleted them. The suite deletes them itself, also on Ctrl-C and SIGTERM; the
 * ledger lets `paysandbox contract` finish the job when vitest is torn down before the suite could.
 */
export function writeWorkspaceLedger(file: string, ids: readonly string[]): void {
  writeFileSync(file, JSON.stringify({ workspaces: ids }) + '\n', { mode: 0o600 });
}

/** The ids the ledger still lists ([] when there is no ledger, or it is unreadable). */
export function readWorkspaceLedger(file: string): string[] {
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { workspaces?: unknown };
    return Array.isArray(doc.workspaces)
      ? doc.workspaces.filter((id): id is string => typeof id === 'string')
      : [];
  } catch {
    return [];
  }
}

/**
 * Delete the workspaces the ledger still lists (each call bounded; one the sandbox no longer knows is
 * already gone), then the ledger. What could not be deleted is left to the workspaces' TTL.
 */
export async function releaseLedgerWorkspaces(
  file: string,
  baseUrl: string,
  controlToken: string | undefined,
  timeoutMs = 5000,
): Promise<{ deleted: string[]; failed: string[] }> {
  const ids = readWorkspaceLedger(file);
  const control = createControlClient({ baseUrl, controlToken, retry: false, timeoutMs });
  const deleted: string[] = [];
  const failed: string[] = [];
  await Promise.all(
    ids.map((id) =>
      control.deleteWorkspace(id).then(
        () => deleted.push(id),
        (err: unknown) => {
          // 404: the suite deleted it after all, or its TTL ended it.
          if (err instanceof PaySandboxApiError && err.status === 404) deleted.push(id);
          else failed.push(id);
        },
      ),
    ),
  );
  rmSync(file, { force: true });
  return { deleted, failed };
}
