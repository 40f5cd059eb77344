/**
 * Every shell recipe in README.md runs, top to bottom, on a fresh sandbox: the built server
 * (`node dist/src/cli/main.js start`, as `npm start` runs it) on a free 127.0.0.1 port, with
 * `127.0.0.1:7070` / `localhost:7070` in the recipes rewritten to that port. Each runnable block must
 * exit 0 and each of its curl calls must get a 2xx. Blocks marked `<!-- not-run: reason -->` are left
 * out (installing, several terminals, a handler of your own).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/load.js';
import { extractRecipes, recipeScript, rewritePort, type Recipe } from './readme-recipes.js';

const root = packageRoot();
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const recipes = extractRecipes(readme);
const BLOCK_TIMEOUT_MS = 60_000;

describe('extracting the recipes', () => {
  it('finds shell blocks with their line and not-run marker, and nothing else', () => {
    const md = [
      '# t',
      '```sh',
      'echo one',
      '```',
      '',
      '<!-- not-run: needs docker -->',
      '',
      '```bash',
      'docker run x',
      '```',
      '```js',
      'console.log(1)',
      '```',
      '  ```shell',
      '  echo indented',
      '  ```',
    ].join('\n');
    expect(extractRecipes(md)).toEqual([
      { line: 2, lang: 'sh', code: 'echo one', notRun: undefined },
      { line: 8, lang: 'bash', code: 'docker run x', notRun: 'needs docker' },
      { line: 14, lang: 'shell', code: 'echo indented', notRun: undefined },
    ]);
  });

  it('rewrites the default port of both spellings, and nothing else', () => {
    expect(
      rewritePort('curl http://127.0.0.1:7070/x localhost:7070/y 127.0.0.1:70700 :7070', 41234),
    ).toBe('curl http://127.0.0.1:41234/x 127.0.0.1:41234/y 127.0.0.1:70700 :7070');
  });

  it('the README has runnable recipes; a block left out says why', () => {
    expect(recipes.filter((r) => !r.notRun).length).toBeGreaterThanOrEqual(4);
    for (const r of recipes.filter((x) => x.notRun))
      expect(
        r.notRun!.split(/\s+/).length,
        `README.md line ${r.line}: a reason in words`,
      ).toBeGreaterThanOrEqual(3);
  });
});

describe('the README recipes', () => {
  let server: ChildProcess | undefined;
  let port = 0;
  let serverOutput = '';

  beforeAll(async () => {
    const cli = join(root, 'dist', 'src', 'cli', 'main.js');
    if (!existsSync(cli))
      throw new Error(
        'dist/src/cli/main.js is missing: run `npm run build` first (npm ci does it)',
      );
    server = spawn(
      process.execPath,
      [cli, 'start', '--db', ':memory:', '--host', '127.0.0.1', '--port', '0', '--quiet'],
      {
        cwd: root,
        env: { ...process.env, SANDBOX_CONTROL_TOKEN: '', PAYSANDBOX_PUBLIC_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    server.stdout!.on('data', (d: Buffer) => (serverOutput += d.toString()));
    server.stderr!.on('data', (d: Buffer) => (serverOutput += d.toString()));
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the sandbox did not start:\n${serverOutput}`)),
        60_000,
      );
      const onData = () => {
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(serverOutput);
        if (!m) return;
        clearTimeout(timer);
        resolve(Number(m[1]));
      };
      server!.stdout!.on('data', onData);
      server!.once('exit', (code) =>
        reject(new Error(`the sandbox exited with ${code}:\n${serverOutput}`)),
      );
    });
  }, 90_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const gone = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await gone;
    }
  });

  it(
    'run top to bottom with bash, each block exiting 0',
    async () => {
      const runnable = recipes.filter((r) => !r.notRun);
      const script = recipeScript(recipes, port);
      const { code, out, progress } = await runBash(script, runnable.length * BLOCK_TIMEOUT_MS);
      const began = [...progress.matchAll(/^begin (\d+)$/gm)].map((m) => Number(m[1]));
      const ended = new Set([...progress.matchAll(/^end (\d+)$/gm)].map((m) => Number(m[1])));
      const failed = began.find((n) => !ended.has(n));
      const where = (r: Recipe) => `README.md line ${r.line}`;
      expect(
        failed === undefined
          ? ''
          : `the recipe at ${where(recipes[failed]!)} exited ${code}:\n${recipes[failed]!.code}\n--- output (last 3000 characters)\n${out.slice(-3000)}`,
      ).toBe('');
      expect(code, out.slice(-3000)).toBe(0);
      expect(ended.size).toBe(runnable.length);
    },
    10 * 60_000,
  );

  it(
    'the Quick tour and the QA recipes run again on the same sandbox (unique ids per run)',
    async () => {
      const again = recipes.filter(
        (r) =>
          !r.notRun && /^(BASE|B)=http/m.test(r.code) && /external_transaction_id/.test(r.code),
      );
      expect(
        again.length,
        'the Quick tour and the QA recipes create invoices',
      ).toBeGreaterThanOrEqual(2);
      for (let run = 1; run <= 2; run++) {
        const { code, out } = await runBash(
          recipeScript(again, port),
          again.length * BLOCK_TIMEOUT_MS,
        );
        expect(code, `run ${run}:\n${out.slice(-2000)}`).toBe(0);
      }
    },
    5 * 60_000,
  );
});

function runBash(
  script: string,
  timeoutMs: number,
): Promise<{ code: number | null; out: string; progress: string }> {
  return new Promise((resolve, reject) => {
    // No inherited CONTRACT_*/SANDBOX_* settings: the recipes run as on a newcomer's machine.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith('SANDBOX_') && !k.startsWith('CONTRACT_'),
      ),
    );
    const child = spawn('bash', ['-c', script], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let progress = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    (child.stdio[3] as NodeJS.ReadableStream).on('data', (d: Buffer) => (progress += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, progress });
    });
  });
}
