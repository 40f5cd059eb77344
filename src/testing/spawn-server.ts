import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../cli/main.ts', import.meta.url));

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
export function spawnServer(args: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<SpawnedServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'start', '--port', '0', ...args], {
    env: { ...process.env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${opts.timeoutMs ?? 20000} ms:\n${out}`));
    }, opts.timeoutMs ?? 20_000);
    const onData = () => {
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (!m) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({
        url: m[1]!,
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
    child.stdout!.on('data', onData);
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
export function runCli(args: string[], opts: { env?: Record<string, string>; timeoutMs?: number } = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 25_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, out });
    });
  });
}
