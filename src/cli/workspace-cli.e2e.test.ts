import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/open.js';
import { createSandbox, sharedSpec, type Sandbox } from '../sandbox.js';
import { listen } from '../server.js';
import { runCli } from '../testing/spawn-server.js';

const TOKEN = 'control-secret';
const dir = mkdtempSync(join(tmpdir(), 'paysandbox-ws-cli-'));
let sandbox: Sandbox;
let server: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  sandbox = createSandbox({
    db: openDatabase(':memory:'),
    spec: sharedSpec(),
    config: { db: ':memory:', port: 0, quiet: true, controlToken: TOKEN },
  });
  server = await listen(sandbox);
});
afterAll(async () => {
  await server.stop();
  await sandbox.close();
  rmSync(dir, { recursive: true, force: true });
});

/** `paysandbox workspace …` in a child process, as a QA tester runs it. */
const workspace = (args: string[]) =>
  runCli(['workspace', ...args, '--url', server.url], { env: { SANDBOX_CONTROL_TOKEN: TOKEN } });

async function invoices(
  token: string,
): Promise<Array<{ external_transaction_id: string; status: string; amount_received: string }>> {
  const res = await fetch(`${server.url}/v3/invoices/?per_page=100`, {
    headers: { authorization: `Token ${token}` },
  });
  return ((await res.json()) as { invoices: any[] }).invoices;
}

// The CLI is a child process through tsx (seconds each on a busy machine): one or two runs per test,
// the first one four (create, snapshot, create from the file, create from the snapshot).
describe('paysandbox workspace', { timeout: 180_000 }, () => {
  it('creates a workspace, saves it to a scenario file, and makes a new workspace from the file with new credentials', async () => {
    const made = await workspace(['create', '--json']);
    expect(made.code, made.out).toBe(0);
    const ws = JSON.parse(made.out);
    const headers = {
      authorization: `Token ${ws.merchant.merchant_api_token}`,
      'content-type': 'application/json',
    };
    for (const id of ['a', 'b']) {
      const res = await fetch(`${server.url}/v1/invoices/`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ amount: 40, currency: 'PHP', external_transaction_id: id }),
      });
      expect(res.status).toBe(201);
    }
    const file = join(dir, 'scenario.json');
    const saved = await workspace(['snapshot', ws.id, '--out', file]);
    expect(saved.code, saved.out).toBe(0);
    expect(saved.out).toMatch(
      new RegExp(`^snapshot [0-9a-f]{32} of workspace ${ws.id} written to ${file}\\n$`),
    );
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    expect(doc).toMatchObject({ format: 'paysandbox.snapshot', version: 1 });
    expect(doc.tables.invoices).toHaveLength(2);

    const fromFile = await workspace(['create', '--from-file', file]);
    expect(fromFile.code, fromFile.out).toBe(0);
    const token = /^ {2}merchant {2}[0-9a-f]{32} {2}token (\S+)$/m.exec(fromFile.out)![1]!;
    expect(fromFile.out).toMatch(
      /^workspace [0-9a-f]{32} \(from snapshot [0-9a-f]{32}\), expires /,
    );
    expect(fromFile.out).toMatch(/^ {2}app {7}key \S+ {2}secret \S+$/m);
    expect(fromFile.out).toMatch(/^ {2}customer {2}\S+@\S+ \/ \S+ {2}\(\+639\d{9}\)$/m);
    expect(token).not.toBe(ws.merchant.merchant_api_token);
    const copied = await invoices(token);
    expect(copied.map((i) => i.external_transaction_id).sort()).toEqual(['a', 'b']);

    const snapshotId = /from snapshot ([0-9a-f]{32})/.exec(fromFile.out)![1]!;
    const again = await workspace(['create', '--from-snapshot', snapshotId, '--json']);
    expect(again.code, again.out).toBe(0);
    expect(JSON.parse(again.out).from_snapshot).toBe(snapshotId);
  });

  /** A workspace made over HTTP (the CLI's own create is tested above), saved as a document in a file. */
  async function savedFile(spoil: (doc: any) => void = () => {}): Promise<string> {
    const headers = { 'x-sandbox-token': TOKEN, 'content-type': 'application/json' };
    const ws = (
      (await (
        await fetch(`${server.url}/_sandbox/workspaces`, { method: 'POST', headers, body: '{}' })
      ).json()) as any
    ).workspace;
    const snap = (
      (await (
        await fetch(`${server.url}/_sandbox/workspaces/${ws.id}/snapshots`, {
          method: 'POST',
          headers,
        })
      ).json()) as any
    ).snapshot;
    const doc = await (
      await fetch(`${server.url}/_sandbox/snapshots/${snap.id}/export`, { headers })
    ).json();
    spoil(doc);
    const file = join(dir, `${snap.id}.json`);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  }

  it('takes the control token as --control-token, like the other control commands, or --token', async () => {
    for (const flag of ['--control-token', '--token']) {
      const r = await runCli(['workspace', 'create', '--json', '--url', server.url, flag, TOKEN], {
        env: { SANDBOX_CONTROL_TOKEN: '' },
      });
      expect(r.code, `${flag}: ${r.out}`).toBe(0);
      expect(JSON.parse(r.out).id).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('prints the document on stdout without --out', async () => {
    const ws = (
      (await (
        await fetch(`${server.url}/_sandbox/workspaces`, {
          method: 'POST',
          headers: { 'x-sandbox-token': TOKEN },
        })
      ).json()) as any
    ).workspace;
    const printed = await workspace(['snapshot', ws.id]);
    expect(printed.code, printed.out).toBe(0);
    expect(JSON.parse(printed.out)).toMatchObject({
      format: 'paysandbox.snapshot',
      version: 1,
      source_workspace_id: ws.id,
    });
  });

  it('a file with a bad field: its path named, exit 1, and nothing stored', async () => {
    const bad = await savedFile((doc) => (doc.tables.users[0].kind = 'robot'));
    const count = () => sandbox.services.db.prepare('SELECT COUNT(*) FROM snapshots').pluck().get();
    const before = count();
    const refused = await workspace(['create', '--from-file', bad]);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain(
      'POST /_sandbox/snapshots answered 400:\n  tables.users[0].kind: "robot" is not a valid choice.',
    );
    expect(count()).toBe(before);
  });

  it('an unknown snapshot: exit 1 with the field', async () => {
    const unknown = await workspace(['create', '--from-snapshot', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('from_snapshot: No snapshot has this id.');
  });

  it('both sources at once: bad usage, exit 2, one line', async () => {
    const usage = await workspace([
      'create',
      '--from-snapshot',
      'x',
      '--from-file',
      'scenario.json',
    ]);
    expect(usage.code).toBe(2);
    expect(usage.out).toBe(
      'paysandbox workspace: --from-snapshot or --from-file, not both (paysandbox workspace --help)\n',
    );
  });
});
