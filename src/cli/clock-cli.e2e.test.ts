/**
 * `paysandbox clock` through the built CLI (dist/, as `npm run build` writes it) against a sandbox the
 * built CLI started: show, advance (one workspace or all), reset, and the refusals.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/load.js';

const cli = join(packageRoot(), 'dist', 'src', 'cli', 'main.js');
let server: ChildProcess | undefined;
let base = '';

function run(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], {
      env: { ...process.env, SANDBOX_CONTROL_TOKEN: '', PAYSANDBOX_URL: base },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const control = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return (await res.json()) as any;
};

beforeAll(async () => {
  if (!existsSync(cli))
    throw new Error('dist/src/cli/main.js is missing: run `npm run build` first (npm ci does it)');
  server = spawn(
    process.execPath,
    [cli, 'start', '--db', ':memory:', '--host', '127.0.0.1', '--port', '0', '--quiet'],
    {
      env: { ...process.env, SANDBOX_CONTROL_TOKEN: '', PAYSANDBOX_PUBLIC_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  server.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the sandbox did not start:\n${output}`)),
      25_000,
    );
    server!.stdout!.on('data', (d: Buffer) => {
      output += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (!m) return;
      clearTimeout(timer);
      resolve(m[1]!);
    });
  });
}, 30_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const gone = new Promise((r) => server!.once('exit', r));
    server.kill('SIGTERM');
    await gone;
  }
});

describe('paysandbox clock', () => {
  it('shows the sandbox clock, advances one workspace by 15m and nobody else, resets it', async () => {
    const shown = await run(['clock']);
    expect(shown.out).toMatch(/^sandbox clock: \d{4}-\d\d-\d\dT[\d:.]+Z \(offset 0 s\)\n$/);
    expect(shown.code).toBe(0);
    const ws = (await control('POST', '/_sandbox/workspaces', {})).workspace.id as string;
    const other = (await control('POST', '/_sandbox/workspaces', {})).workspace.id as string;

    const moved = await run(['clock', 'advance', '15m', '--workspace', ws]);
    expect(moved.out).toMatch(new RegExp(`^workspace ${ws} clock: .+ \\(offset 900 s\\)\\n$`));
    expect(moved.code).toBe(0);
    expect((await control('GET', `/_sandbox/workspaces/${ws}/clock`)).offset_seconds).toBe(900);
    expect((await control('GET', `/_sandbox/workspaces/${other}/clock`)).offset_seconds).toBe(0);
    expect((await control('GET', '/_sandbox/clock')).offset_seconds).toBe(0);

    const json = await run(['clock', '--workspace', ws, '--json']);
    expect(JSON.parse(json.out)).toMatchObject({ offset_seconds: 900 });
    const reset = await run(['clock', 'reset', '--workspace', ws]);
    expect(reset.out).toMatch(/\(offset 0 s\)\n$/);
    expect((await control('GET', `/_sandbox/workspaces/${ws}/clock`)).offset_seconds).toBe(0);
  });

  it('advances and resets the sandbox clock itself', async () => {
    expect((await run(['clock', 'advance', '90'])).out).toMatch(
      /^sandbox clock: .+ \(offset 90 s\)\n$/,
    );
    expect((await control('GET', '/_sandbox/clock')).offset_seconds).toBe(90);
    expect((await run(['clock', 'reset'])).code).toBe(0);
    expect((await control('GET', '/_sandbox/clock')).offset_seconds).toBe(0);
  });

  it('takes compound durations, largest unit first: 1h30m, 2d4h, 1.5h', async () => {
    for (const [text, seconds] of [
      ['1h30m', 5400],
      ['2d4h', 187_200],
      ['1.5h', 5400],
      ['1d2h3m4s', 93_784],
    ] as const) {
      const moved = await run(['clock', 'advance', text, '--json']);
      expect(moved.code, moved.out).toBe(0);
      expect(JSON.parse(moved.out).offset_seconds, text).toBe(seconds);
      expect((await run(['clock', 'reset'])).code).toBe(0);
    }
  });

  it('refuses bad usage with exit 2 and an unknown workspace with exit 1, one line each', async () => {
    for (const args of [
      ['clock', 'advance'],
      ['clock', 'advance', 'soon'],
      ['clock', 'rewind'],
      ['clock', 'advance', '0'],
      ['clock', 'advance', '30m1h'],
      ['clock', 'advance', '1e3'],
      ['clock', 'advance', '1h1h'],
      ['clock', '--wokspace', 'x'],
    ]) {
      const { code, out } = await run(args);
      expect(out, args.join(' ')).toMatch(/^paysandbox clock: [^\n]+\n$/);
      expect(code, args.join(' ')).toBe(2);
    }
    const unknown = await run(['clock', 'advance', '1m', '--workspace', 'f'.repeat(32)]);
    expect(unknown.out).toBe(`paysandbox clock: no live workspace ${'f'.repeat(32)}\n`);
    expect(unknown.code).toBe(1);
    // More than the sandbox moves at once (366 days): its message, in one line, exit 1.
    const far = await run(['clock', 'advance', '400d']);
    expect(far.out).toBe(
      'paysandbox clock: advance 400d (34560000 s) refused: POST /_sandbox/clock/advance answered 400: seconds: Ensure this value is less than or equal to 31622400.\n',
    );
    expect(far.code).toBe(1);
    expect((await control('GET', '/_sandbox/clock')).offset_seconds).toBe(0);
  });
});
