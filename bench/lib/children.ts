import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * Every child process the bench starts, so that each one is killed when the run ends: normally, on an
 * error, on SIGINT/SIGTERM, or when the bench itself exits unexpectedly.
 */
const children = new Set<ChildProcess>();

export interface Child {
  proc: ChildProcess;
  pid: number;
  /** Everything the child wrote so far (stdout and stderr), for error messages. */
  output(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function startChild(command: string, args: string[], opts: SpawnOptions = {}): Child {
  // A process group of its own, so that a child's own children (npm → prism) go with it.
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true, ...opts });
  if (proc.pid === undefined) throw new Error(`could not start ${command}`);
  children.add(proc);
  let out = '';
  const keep = (d: Buffer) => {
    out += d.toString();
    if (out.length > 200_000) out = out.slice(-100_000);
  };
  proc.stdout?.on('data', keep);
  proc.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => {
    proc.once('exit', (code) => {
      children.delete(proc);
      resolve(code);
    });
    proc.once('error', () => {
      children.delete(proc);
      resolve(null);
    });
  });
  const pid = proc.pid;
  return {
    proc,
    pid,
    output: () => out,
    exited,
    async stop(graceMs = 3000) {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      signalGroup(pid, 'SIGTERM');
      const timer = setTimeout(() => signalGroup(pid, 'SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
      // Whatever the child left behind in its group goes too.
      signalGroup(pid, 'SIGKILL');
    },
  };
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** Kill every child still running (synchronous: safe in an `exit` handler). */
export function killAllChildren(): void {
  for (const c of children) if (c.pid !== undefined) signalGroup(c.pid, 'SIGKILL');
  children.clear();
}

let installed = false;
/** Kill the children on exit, on Ctrl-C and on crashes. */
export function installCleanup(): void {
  if (installed) return;
  installed = true;
  process.on('exit', killAllChildren);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      console.error(`\nbench: ${signal}, stopping every child process.`);
      killAllChildren();
      process.exit(130);
    });
  }
  process.on('uncaughtException', (err) => {
    console.error('bench: uncaught exception:', err);
    killAllChildren();
    process.exit(1);
  });
  process.on('unhandledRejection', (err) => {
    console.error('bench: unhandled rejection:', err);
    killAllChildren();
    process.exit(1);
  });
}
