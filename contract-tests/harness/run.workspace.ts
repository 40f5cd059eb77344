import { rmSync } from 'node:fs';
import { PaySandboxApiError, type ControlClient, type Workspace } from '../../src/client/index.js';
import { writeWorkspaceLedger } from '../../src/cli/contract.workspaces.js';
import type { Credentials } from './target.types.js';

/**
 * A backstop only: the run deletes its workspaces when it ends, fails or is interrupted; should the
 * process be killed outright, the sandbox ends them after this long on its own clock.
 */
export const RUN_WORKSPACE_TTL_SECONDS = 1800;

/**
 * The run's own tenants on a target with the control API (docs/contract-tests.md#sharing-a-sandbox):
 * a workspace for every case, and a second one for the scoping checks. The cases move only the first
 * one's clock, so nothing global changes and runs side by side never meet.
 */
export interface RunWorkspaces {
  main: Workspace;
  other: Workspace;
  /** Delete both (idempotent; a failed delete is left to the TTL). */
  release(): Promise<void>;
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/**
 * Take two workspaces, and delete them at the end: `release()` (the target's `close`, after every case,
 * passed or failed), or on Ctrl-C / SIGTERM, after which the process exits as the signal would have made
 * it. Undefined when the target refuses workspaces (a sandbox too old for them).
 *
 * `ledger` (CONTRACT_WORKSPACE_LEDGER, set by `paysandbox contract`) is a file that lists the live
 * workspaces until they are deleted: when vitest is torn down before this process finishes its deletes,
 * the CLI deletes what the file still lists.
 */
export async function takeRunWorkspaces(
  control: ControlClient,
  ttlSeconds = RUN_WORKSPACE_TTL_SECONDS,
  ledger?: string,
): Promise<RunWorkspaces | undefined> {
  let main: Workspace;
  let other: Workspace;
  try {
    main = await control.createWorkspace({ ttl_seconds: ttlSeconds });
    if (ledger) writeWorkspaceLedger(ledger, [main.id]);
  } catch (err) {
    if (err instanceof PaySandboxApiError) return undefined; // 501 before the control API had workspaces
    throw err;
  }
  try {
    other = await control.createWorkspace({ ttl_seconds: ttlSeconds });
    if (ledger) writeWorkspaceLedger(ledger, [main.id, other.id]);
  } catch (err) {
    await control.deleteWorkspace(main.id).catch(() => undefined);
    throw err;
  }
  let released: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // Bounded: a sandbox that no longer answers leaves the workspaces to their TTL.
    const timer = setTimeout(() => process.exit(signal === 'SIGINT' ? 130 : 143), 3000);
    void release().finally(() => {
      clearTimeout(timer);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  };
  function release(): Promise<void> {
    if (!released) {
      for (const s of SIGNALS) process.off(s, onSignal);
      const ids = [main.id, other.id];
      released = Promise.all(
        ids.map((id) =>
          control.deleteWorkspace(id).then(
            () => true,
            () => false,
          ),
        ),
      ).then((deleted) => {
        if (!ledger) return;
        const left = ids.filter((_, i) => !deleted[i]);
        if (left.length) writeWorkspaceLedger(ledger, left);
        else rmSync(ledger, { force: true });
      });
    }
    return released;
  }
  for (const s of SIGNALS) process.on(s, onSignal);
  return { main, other, release };
}

/** The credentials of the run: the first workspace's merchant, app and customer; the second's merchant for scoping. */
export function workspaceCredentials({
  main,
  other,
}: Pick<RunWorkspaces, 'main' | 'other'>): Credentials {
  return {
    merchantToken: main.merchant.merchant_api_token,
    merchantBearer: main.merchant.bearer_token ?? undefined,
    merchantToken2: other.merchant.merchant_api_token,
    merchantId: main.merchant.id,
    apiKey: main.app.api_key,
    apiSecret: main.app.api_secret,
    otpSecret: main.app.otp_secret,
    transferTarget: main.customer.email,
    customer: main.customer.email,
  };
}
