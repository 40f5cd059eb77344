import { spawn } from 'node:child_process';

/** Upper bound of one run of the suite (each case is bounded too). */
const RUN_TIMEOUT_MS = 30 * 60_000;

/** How long the suite has to delete its workspaces and exit after a signal, before it is killed. */
const STOP_GRACE_MS = 10_000;
const FORWARDED = ['SIGINT', 'SIGTERM'] as const;

/** Whether any process of the group `pgid` is still alive. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/**
 * Run vitest in a process group of its own and wait until every process of that group is gone. Ctrl-C
 * (SIGINT) and SIGTERM, whether sent to this process alone or to its whole group, are forwarded once to
 * the vitest group, so the suite deletes its workspaces and exits; what still runs STOP_GRACE_MS later
 * (or at a second signal) is killed. Resolves with vitest's exit code, 130 / 143 after a signal, or the
 * line to print when vitest could not be started.
 */
export function runSuite(
  argv: string[],
  cwd: string,
  env: Record<string, string | undefined>,
): Promise<number | string> {
  return new Promise((done) => {
    const child = spawn(process.execPath, argv, {
      cwd,
      env,
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    });
    let signalled: NodeJS.Signals | undefined;
    let killer: NodeJS.Timeout | undefined;
    const stopGroup = (signal: NodeJS.Signals) => {
      if (child.pid === undefined) return;
      signalGroup(child.pid, signal);
      killer ??= setTimeout(() => child.pid && signalGroup(child.pid, 'SIGKILL'), STOP_GRACE_MS);
    };
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled && child.pid) return signalGroup(child.pid, 'SIGKILL'); // a second Ctrl-C: now
      signalled = signal;
      stopGroup(signal);
    };
    const timer = setTimeout(() => stopGroup('SIGTERM'), RUN_TIMEOUT_MS);
    const finish = (result: number | string) => {
      clearTimeout(timer);
      clearTimeout(killer);
      for (const s of FORWARDED) process.off(s, onSignal);
      done(result);
    };
    for (const s of FORWARDED) process.on(s, onSignal);
    child.on('error', (err) =>
      finish(`paysandbox contract: could not start vitest: ${err.message}`),
    );
    child.on('exit', (code) => {
      // vitest's workers may outlive it briefly (finishing their deletes): wait for the whole group.
      const pgid = child.pid;
      const deadline = Date.now() + STOP_GRACE_MS;
      const poll = () => {
        if (pgid === undefined || !groupAlive(pgid)) {
          finish(signalled ? (signalled === 'SIGINT' ? 130 : 143) : (code ?? 1));
        } else if (Date.now() > deadline) {
          signalGroup(pgid, 'SIGKILL');
          setTimeout(poll, 100);
        } else setTimeout(poll, 100);
      };
      poll();
    });
  });
}
