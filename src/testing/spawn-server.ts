import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../cli/main.ts', import.meta.url));
/**
 * How long a child process (the CLI through tsx) may take to start or to finish: generous, because a busy
 * 2-core machine takes many times longer than a laptop to load tsx and the sources; a test that passes
 * waits only as long as the child needs.
 */
export const START_BOUND_MS = 60_000;

export interface SpawnedServer {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGKILL, and wait for the process to be gone. */
  kill9(): Promise<void>;
  /** SIGTERM (clean close), and wait for exit. */
  stop(): Promise<number | null>;
}

/**
 * Start the real CLI (`paysandbox start`) in a child process on a free port and wait for its banner.
 * Used by crash and restart tests.
 */
export function spawnServer(
  args: string[],
  opts: { env?: Record<string, string>; timeoutMs?: number } = {},
): Promise<SpawnedServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'start', '--port', '0', ...args], {
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`server did not start within ${opts.timeoutMs ?? START_BOUND_MS} ms:\n${out}`),
      );
    }, opts.timeoutMs ?? START_BOUND_MS);
    const onData = () => {
      const [, url] = /listening on (http:\/\/\S+)/.exec(out) ?? [];
      if (!url) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.stderr.off('data', onData);
      resolve({
        url,
        child,
        output: () => out,
        async kill9() {
          child.kill('SIGKILL');
          await exited;
        },
        async stop() {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    // The banner is on stdout, or on stderr with --log-format json (stdout is JSON then).
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before starting:\n${out}`));
    });
  });
}

/**
 * Run one `paysandbox <args>` command as a user would, in a child process, to its end (killed after
 * `timeoutMs`); resolves with its exit code and everything it printed.
 */
export function runCli(
  args: string[],
  opts: {
    env?: Record<string, string>;
    timeoutMs?: number;
    /** Leave stdout unread this long (a slow reader at the end of a pipe, e.g. `| jq`). */
    readAfterMs?: number;
  } = {},
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const node = ['--import', 'tsx', CLI, ...args];
    // A slow reader: the CLI's stdout is a plain pipe (64 KiB) into a shell reader that first sleeps.
    const [command, argv] = opts.readAfterMs
      ? [
          'bash',
          [
            '-c',
            `set -o pipefail; "$@" | { sleep ${opts.readAfterMs / 1000}; cat; }`,
            'slow-reader',
            process.execPath,
            ...node,
          ],
        ]
      : [process.execPath, node];
    const child = spawn(command, argv, {
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? START_BOUND_MS);
    child.once('error', reject);
    // `close`, not `exit`: the output still in the pipe when the process ends is read first.
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve({ code, out });
    });
  });
}

export interface RunningCli {
  child: ChildProcess;
  output: () => string;
  /** Resolve once the output matches `pattern` (rejects after `timeoutMs` or if the process exits first). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
}

/**
 * Start a long-running `paysandbox <args>` (e.g. `listen`) in a child process; the caller ends it
 * (SIGINT, as Ctrl-C would). Killed after `timeoutMs` in any case.
 */
export function spawnCli(
  args: string[],
  opts: { env?: Record<string, string>; timeoutMs?: number } = {},
): RunningCli {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const watchers = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += d;
    for (const w of [...watchers]) w();
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 2 * START_BOUND_MS);
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(killer);
      for (const w of [...watchers]) w();
      resolve(code);
    }),
  );
  return {
    child,
    output: () => out,
    exited,
    waitFor(pattern, timeoutMs = START_BOUND_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(out);
          if (m) {
            done();
            resolve(m);
          } else if (child.exitCode !== null || child.signalCode !== null) {
            done();
            reject(
              new Error(
                `exited (${child.exitCode ?? child.signalCode}) before printing ${pattern}:\n${out}`,
              ),
            );
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`no ${pattern} within ${timeoutMs} ms:\n${out}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          watchers.delete(check);
        };
        watchers.add(check);
        check();
      });
    },
  };
}
