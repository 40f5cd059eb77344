/**
 * The plain-shell recipe of docs/ci-service.md, run as written: examples/ci/sandbox-service.sh starts the
 * built sandbox, waits for its ready file, creates a workspace, runs "the project's tests" (here a small
 * script that creates an invoice with the workspace's token) and keeps the delivery log.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { builtCli, REPO_ROOT } from './built-cli.js';

const work = mkdtempSync(join(tmpdir(), 'paysandbox-ci-service-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Run the script in `cwd` (default: the work directory). `paysandbox` is what PAYSANDBOX is set to; null
 * leaves it unset, so that the script uses the package installed in the project.
 */
function runRecipe(
  testScript: string,
  out: string,
  o: { paysandbox?: string | null; cwd?: string } = {},
): Promise<{ code: number | null; log: string }> {
  const tests = join(work, `tests-${out}.sh`);
  writeFileSync(tests, testScript);
  chmodSync(tests, 0o755);
  return new Promise((resolve, reject) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(
        ([k]) => !k.startsWith('SANDBOX_') && !k.startsWith('PAYSANDBOX_'),
      ),
    );
    const child = spawn('bash', [join(REPO_ROOT, 'examples/ci/sandbox-service.sh')], {
      cwd: o.cwd ?? work,
      env: {
        ...env,
        ...(o.paysandbox === null
          ? {}
          : { PAYSANDBOX: o.paysandbox ?? `${process.execPath} ${builtCli()}` }),
        TEST_COMMAND: tests,
        OUT: join(work, out),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (log += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, log });
    });
  });
}

const CREATE_INVOICE = `#!/usr/bin/env bash
set -euo pipefail
test -n "$API_KEY" && test -n "$API_SECRET"
curl -sf -X POST "$SANDBOX_URL/v1/invoices/" -H "Authorization: Token $MERCHANT_TOKEN" -H 'content-type: application/json' \\
  -d '{"amount": 20, "currency": "PHP", "external_transaction_id": "ci-1"}' > "$OUT/invoice.json"
`;

describe('the sandbox as a CI service, in a plain shell (examples/ci/sandbox-service.sh)', () => {
  it("starts, waits for the ready file, gives the tests a workspace, keeps the delivery log, exits with the tests' status", async () => {
    const { code, log } = await runRecipe(CREATE_INVOICE, 'ok');
    expect(code, log).toBe(0);
    const invoice = JSON.parse(readFileSync(join(work, 'ok', 'invoice.json'), 'utf8')).invoice;
    const deliveries = JSON.parse(readFileSync(join(work, 'ok', 'deliveries.json'), 'utf8'))
      .deliveries as Array<{ event: string; invoice_id: string }>;
    expect(
      deliveries.some((d) => d.invoice_id === invoice.id && d.event === 'invoice.created'),
    ).toBe(true);
    expect(readFileSync(join(work, 'ok', 'sandbox.log'), 'utf8')).toMatch(
      /paysandbox listening on http:\/\/127\.0\.0\.1:\d+/,
    );
    expect(
      existsSync(join(work, 'ok', 'sandbox.ready')),
      'the sandbox stopped and removed its ready file',
    ).toBe(false);
  }, 120_000);

  it('failing tests: the same status out, the delivery log still kept', async () => {
    const { code, log } = await runRecipe('#!/usr/bin/env bash\nexit 3\n', 'failing');
    expect(code, log).toBe(3);
    expect(existsSync(join(work, 'failing', 'deliveries.json'))).toBe(true);
  }, 120_000);

  it("a sandbox that dies during the tests: a warning, and still the tests' status and the summary", async () => {
    // PAYSANDBOX through a wrapper that notes the sandbox's pid; the "tests" stop it, then fail.
    const pidFile = join(work, 'dying.pid');
    const wrapper = join(work, 'pid-wrapper.sh');
    writeFileSync(
      wrapper,
      `#!/usr/bin/env bash\n[ "$1" = start ] && echo $$ > "${pidFile}"\nexec "${process.execPath}" "${builtCli()}" "$@"\n`,
    );
    chmodSync(wrapper, 0o755);
    const { code, log } = await runRecipe(
      `#!/usr/bin/env bash\npid=$(cat "${pidFile}")\nkill -TERM "$pid"\nfor _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done\nexit 3\n`,
      'dying',
      { paysandbox: wrapper },
    );
    expect(code, log).toBe(3);
    expect(log).toMatch(/paysandbox deliveries: cannot reach the sandbox/);
    expect(log).toMatch(/^warning: could not read the delivery log/m);
    expect(log).toMatch(/^tests exited 3; sandbox log in .*dying\/ \(no delivery log\)$/m);
  }, 120_000);
});

/** The base URL the sandbox logged it listens on. */
const listeningUrl = (out: string) =>
  /paysandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(
    readFileSync(join(work, out, 'sandbox.log'), 'utf8'),
  )?.[1];

/** Whether anything still answers at `url` (a few tries: a process may take a moment to close). */
async function stillAnswers(url: string): Promise<boolean> {
  for (let i = 0; i < 20; i++) {
    try {
      await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
    } catch {
      return false;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return true;
}

describe('the script as a project that installed paysandbox runs it', () => {
  it('uses the package installed in the project (node_modules/.bin/paysandbox) when PAYSANDBOX is unset', async () => {
    const project = mkdtempSync(join(work, 'project-'));
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    // What `npm install ./paysandbox-<version>.tgz` leaves: the bin, a link to the package's CLI,
    // which npm makes executable.
    chmodSync(builtCli(), 0o755);
    symlinkSync(builtCli(), join(project, 'node_modules', '.bin', 'paysandbox'));
    const { code, log } = await runRecipe(CREATE_INVOICE, 'installed', {
      paysandbox: null,
      cwd: project,
    });
    expect(code, log).toBe(0);
    expect(existsSync(join(work, 'installed', 'invoice.json'))).toBe(true);
    expect(await stillAnswers(listeningUrl('installed') ?? 'http://127.0.0.1:1')).toBe(false);
    expect(listeningUrl('installed')).toBeDefined();
  }, 120_000);

  it('without it installed, exits 2 saying how to install it, and never goes to the npm registry', async () => {
    const empty = mkdtempSync(join(work, 'empty-'));
    const { code, log } = await runRecipe(CREATE_INVOICE, 'missing', {
      paysandbox: null,
      cwd: empty,
    });
    expect(code).toBe(2);
    expect(log).toMatch(/paysandbox is not installed in this project .*npm install --save-dev/);
    expect(readFileSync(join(REPO_ROOT, 'examples/ci/sandbox-service.sh'), 'utf8')).not.toMatch(
      /^[^#]*npx --yes/m,
    );
  }, 30_000);

  it('stops the sandbox when a wrapper (like npx) runs node as its child', async () => {
    const wrapper = join(work, 'wrapper.sh');
    // Not `exec`: node runs as the wrapper's child, as under npx or npm exec.
    writeFileSync(
      wrapper,
      `#!/usr/bin/env bash\n"${process.execPath}" "${builtCli()}" "$@"\necho wrapper done\n`,
    );
    chmodSync(wrapper, 0o755);
    const { code, log } = await runRecipe(CREATE_INVOICE, 'wrapped', { paysandbox: wrapper });
    expect(code, log).toBe(0);
    const url = listeningUrl('wrapped');
    expect(url).toBeDefined();
    expect(await stillAnswers(url ?? ''), 'the node under the wrapper was stopped too').toBe(false);
  }, 120_000);
});

describe('the GitHub Actions and GitLab CI recipes of docs/ci-service.md', () => {
  const text = readFileSync(join(REPO_ROOT, 'docs', 'ci-service.md'), 'utf8');
  const yaml = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);

  it('parse, wait for readiness (ready file or /healthz), create a workspace, run the tests, keep the delivery log', () => {
    const gha = parseYaml(
      yaml.find((y) => y.startsWith('name: tests-against-paysandbox'))!,
    ) as Record<string, any>;
    const ghaText = JSON.stringify(gha);
    expect(gha.permissions).toEqual({ contents: 'read' });
    const gl = (
      parseYaml(yaml.find((y) => y.startsWith('test-against-paysandbox:'))!) as Record<string, any>
    )['test-against-paysandbox'];
    const glText = JSON.stringify(gl);
    expect(ghaText).toContain('--ready-file');
    // paysandbox is not on the npm registry: the recipes run the package the project installed.
    expect(ghaText).toContain('node_modules/.bin/paysandbox start');
    expect(text).not.toMatch(/^\s*(?:- )?(?:run: )?npx --yes/m);
    expect(glText).toContain('/healthz');
    for (const t of [ghaText, glText]) {
      expect(t).toContain('/_sandbox/workspaces');
      expect(t).toContain('npm test');
    }
    // The delivery log: every page through the installed CLI, or the newest 100 over curl.
    expect(ghaText).toContain('node_modules/.bin/paysandbox deliveries --all --json');
    expect(glText).toContain('/_sandbox/deliveries');
    const used = new Set([...glText.matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!));
    const exported = new Set([...glText.matchAll(/export ([A-Z_]+)=/g)].map((m) => m[1]!));
    for (const name of used)
      if (!name.startsWith('CI_') && !exported.has(name) && name !== 'WS')
        expect(Object.keys(gl.variables), name).toContain(name);
    const service = parseYaml(yaml.find((y) => y.trimStart().startsWith('services:'))!) as Record<
      string,
      any
    >;
    expect(service.services.paysandbox.ports).toEqual(['7070:7070']);
    // Links (payment_url, redirects) are built from the public URL: the address the job reaches it at.
    expect(service.services.paysandbox.env.PAYSANDBOX_PUBLIC_URL).toBe(service.env.SANDBOX_URL);
    expect(gl.variables.PAYSANDBOX_PUBLIC_URL).toBe('http://paysandbox:7070');
    expect(gl.variables.PAYSANDBOX_PUBLIC_URL).toBe(gl.variables.SANDBOX_URL);
    expect(gl.services[0].alias).toBe('paysandbox');
  });

  it('the "Delivery log" step, run as GitHub runs it (bash -e), keeps the sandbox log when the sandbox is gone', async () => {
    const gha = parseYaml(
      yaml.find((y) => y.startsWith('name: tests-against-paysandbox')) ?? '',
    ) as {
      jobs: { test: { steps: Array<{ name?: string; run?: string }> } };
    };
    const run = gha.jobs.test.steps.find((st) => st.name === 'Delivery log')?.run ?? 'false';
    const job = mkdtempSync(join(work, 'gha-'));
    const runnerTemp = mkdtempSync(join(work, 'runner-temp-'));
    mkdirSync(join(job, 'node_modules', '.bin'), { recursive: true });
    chmodSync(builtCli(), 0o755);
    symlinkSync(builtCli(), join(job, 'node_modules', '.bin', 'paysandbox'));
    writeFileSync(join(runnerTemp, 'sandbox.log'), 'paysandbox listening on …\n');
    const result = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      const child = spawn('bash', ['-e', '-c', run], {
        cwd: job,
        // Nothing listens on port 1: the sandbox died during the tests.
        env: {
          PATH: process.env.PATH ?? '',
          RUNNER_TEMP: runnerTemp,
          SANDBOX_URL: 'http://127.0.0.1:1',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.once('error', reject);
      child.once('exit', (code) => {
        clearTimeout(timer);
        resolve({ code, out });
      });
    });
    expect(result.code, result.out).toBe(0);
    expect(result.out).toMatch(/^::warning::could not read the delivery log/m);
    expect(readFileSync(join(job, 'sandbox.log'), 'utf8')).toBe('paysandbox listening on …\n');
  }, 60_000);
});
