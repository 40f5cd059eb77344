import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtCli, runBuilt } from '../testing/built-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-start-'));
let busy: Server;
let busyPort = 0;
/** How long the built CLI takes to load and print its version: the cost every run pays before its own work. */
let baselineMs = 0;

beforeAll(async () => {
  builtCli();
  busy = createServer();
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
  const runs = [await runBuilt(['--version']), await runBuilt(['--version'])];
  baselineMs = Math.min(...runs.map((r) => r.ms));
}, 120_000);
afterAll(() => {
  busy?.close();
  chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
});

/** One line, naming `what` and the way out, exit 2, within a second of the CLI's own start-up. */
async function expectOneClearLine(
  args: string[],
  what: string,
  wayOut: RegExp,
  opts: { uid?: number; gid?: number } = {},
) {
  const r = await runBuilt(['start', ...args], { ...opts, timeoutMs: 15_000 });
  expect(r.out, args.join(' ')).toMatch(/^paysandbox start: [^\n]+\n$/);
  expect(r.out).toContain(what);
  expect(r.out).toMatch(wayOut);
  expect(r.code).toBe(2);
  expect(
    r.ms - baselineMs,
    `took ${Math.round(r.ms)} ms (start-up alone ${Math.round(baselineMs)} ms)`,
  ).toBeLessThan(1000);
}

describe('paysandbox start refuses what it cannot use, in one line (built CLI)', () => {
  it('--port -1: the flag, the value and the range', async () => {
    await expectOneClearLine(
      ['--port', '-1'],
      '--port must be a whole number 0-65535 (0: any free port), got -1',
      /0: any free port/,
    );
    await expectOneClearLine(['--port=70000', '--db', ':memory:'], 'got 70000', /any free port/);
  });

  it('a non-loopback host without a control token (a bare docker run): the variable a container sets', async () => {
    const r = await runBuilt(['start', '--db', ':memory:', '--port', '0'], {
      env: {
        PAYSANDBOX_HOST: '0.0.0.0',
        SANDBOX_CONTROL_TOKEN: '',
        PAYSANDBOX_INSECURE_CONTROL: '',
      },
      timeoutMs: 15_000,
    });
    expect(r.out).toMatch(
      /^paysandbox start: Refusing to listen on 0\.0\.0\.0 without a control token[^\n]+\n$/,
    );
    expect(r.out).toContain('SANDBOX_CONTROL_TOKEN');
    expect(r.out).toContain('PAYSANDBOX_INSECURE_CONTROL=1');
    expect(r.code).toBe(2);
  });

  it('a busy port: the port and the way out', async () => {
    await expectOneClearLine(
      ['--port', String(busyPort), '--db', ':memory:'],
      `port ${busyPort} on 127.0.0.1 is already in use`,
      /--port 0 for any free port/,
    );
  });

  it('--db /proc/nope/x.db: the directory, at once (no 40 s hang)', async () => {
    await expectOneClearLine(
      ['--port', '0', '--db', '/proc/nope/x.db'],
      '/proc/nope',
      /--db :memory:/,
    );
  });

  it('a database under a file: the file that is not a directory', async () => {
    const file = join(dir, 'plain-file');
    writeFileSync(file, 'x');
    await expectOneClearLine(
      ['--port', '0', '--db', join(file, 'x.db')],
      `${file} is not a directory`,
      /--db PATH/,
    );
  });

  it('a database in a read-only directory: the path and the way out', async () => {
    const ro = join(dir, 'read-only');
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    chmodSync(dir, 0o755); // mkdtemp makes it 0700: `nobody` must reach the read-only one inside
    // root writes anywhere: the check runs as `nobody` there, as a user would meet it.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    await expectOneClearLine(
      ['--port', '0', '--db', join(ro, 'x.db')],
      `the directory ${ro} is read-only`,
      /--db :memory:/,
      asUser,
    );
  });

  it("--port '' (an empty value) is refused, not taken as any free port", async () => {
    await expectOneClearLine(['--port', '', '--db', ':memory:'], 'got ', /0: any free port/);
  });

  it('--host that is no name or address of this machine: the host and the way out', async () => {
    await expectOneClearLine(
      ['--port', '0', '--db', ':memory:', '--host', '999.1.1.1', '--insecure-control'],
      '999.1.1.1 is not a host name or address this machine can listen on',
      /--host/,
    );
  });

  it('--fixtures that is missing or not JSON: the file and the way out', async () => {
    await expectOneClearLine(
      ['--port', '0', '--db', ':memory:', '--fixtures', join(dir, 'nope.json')],
      `cannot read the fixtures file ${join(dir, 'nope.json')} (ENOENT)`,
      /leave it out for the default fixtures/,
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{"merchants": [');
    await expectOneClearLine(
      ['--port', '0', '--db', ':memory:', '--fixtures', broken],
      `the fixtures file ${broken} is not JSON`,
      /leave --fixtures out/,
    );
  });

  it('a start that fails removes the ready file an earlier run left (a CI wait never reads a stale URL)', async () => {
    const ready = join(dir, 'ready.txt');
    writeFileSync(ready, 'http://127.0.0.1:1/\n');
    await expectOneClearLine(
      ['--port', String(busyPort), '--db', ':memory:', '--ready-file', ready],
      'is already in use',
      /--port 0/,
    );
    expect(existsSync(ready)).toBe(false);
  });
});
