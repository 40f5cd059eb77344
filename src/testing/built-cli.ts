import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root (this file is src/testing/built-cli.ts). */
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The built CLI, as `npm install` ships it (package.json `bin`). */
export const BUILT_CLI = fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url));

/**
 * The built CLI's path, building it first when it is missing (`npm ci` builds it through `prepare`,
 * so in CI it is there and current).
 */
export function builtCli(): string {
  if (!existsSync(BUILT_CLI))
    execFileSync('npm', ['run', 'build'], { cwd: REPO_ROOT, stdio: 'ignore' });
  return BUILT_CLI;
}

/** Run `node <cli> <args>` to its end (killed after `timeoutMs`): exit code, merged output, wall time. */
export function runBuilt(
  args: string[],
  opts: {
    cli?: string;
    cwd?: string;
    env?: Record<string, string>;
    timeoutMs?: number;
    uid?: number;
    gid?: number;
  } = {},
): Promise<{ code: number | null; out: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.cli ?? builtCli(), ...args], {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      uid: opts.uid,
      gid: opts.gid,
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const killer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(killer);
      resolve({ code, out, ms: performance.now() - started });
    });
  });
}
