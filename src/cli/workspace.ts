import { readFileSync, writeFileSync } from 'node:fs';
import { parseCommandArgs, UsageError, wholeNumberFlag } from './args.js';
import type { CliCommand } from './command.types.js';
import { controlTarget, unauthorized } from './control-http.js';

const USAGE = 'workspace create|snapshot …';
const HELP = `Usage:
  paysandbox workspace create [--from-snapshot ID | --from-file scenario.json] [--ttl SECONDS] [--json]
  paysandbox workspace snapshot WORKSPACE_ID [--out scenario.json]

create     a new workspace on a running sandbox and print its credentials (merchant token, HMAC key
           and secret, customer login); --from-snapshot copies a saved state into it, --from-file
           imports a snapshot document (a scenario file) first; --json prints the whole answer
snapshot   save the workspace's state and print its document (--out: write it to a file, print the
           snapshot's id)

Options:
  --url BASE      the sandbox (default http://127.0.0.1:7070, or PAYSANDBOX_URL)
  --control-token T  X-Sandbox-Token, when the sandbox requires one (or SANDBOX_CONTROL_TOKEN; --token too)

Exit code 0 on success; 1 when the sandbox refuses (its errors are printed); 2 on bad usage.`;

class Refused extends Error {}

function client(base: string, token: string | undefined) {
  return async <T>(method: string, path: string, body?: unknown, expected = 200): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token) headers['x-sandbox-token'] = token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      const cause =
        (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
      throw new Refused(
        `cannot reach the sandbox at ${base} (${cause}); is \`paysandbox start\` running? (--url BASE)`,
      );
    }
    const text = await res.text();
    if (res.status === 401) throw new Refused(unauthorized({ base, token }));
    if (res.status !== expected) {
      let said = text;
      try {
        const errors = (JSON.parse(text) as { errors?: Record<string, string[]> }).errors ?? {};
        said =
          Object.entries(errors)
            .map(([field, messages]) => `  ${field}: ${messages.join(' ')}`)
            .join('\n') || text;
      } catch {
        // not JSON: shown as is
      }
      throw new Refused(`${method} ${path} answered ${res.status}:\n${said}`);
    }
    return JSON.parse(text) as T;
  };
}

interface Workspace {
  id: string;
  expires_at: string;
  from_snapshot?: string;
  merchant: { id: string; merchant_api_token: string; bearer_token?: string | null };
  app: { api_key: string; api_secret: string };
  customer: { email: string; mobile_number: string; password: string };
}

function describe(ws: Workspace): string {
  return [
    `workspace ${ws.id}${ws.from_snapshot ? ` (from snapshot ${ws.from_snapshot})` : ''}, expires ${ws.expires_at}`,
    `  merchant  ${ws.merchant.id}  token ${ws.merchant.merchant_api_token}`,
    `  app       key ${ws.app.api_key}  secret ${ws.app.api_secret}`,
    `  customer  ${ws.customer.email} / ${ws.customer.password}  (${ws.customer.mobile_number})`,
  ].join('\n');
}

/** `paysandbox workspace create|snapshot`: workspaces and their saved states, without curl. */
export const workspaceCommand: CliCommand = {
  name: 'workspace',
  usage: USAGE,
  summary: 'create a workspace (from a snapshot or a scenario file); save one',
  help: HELP,
  async run(args, env) {
    const { values: v, positionals } = parseCommandArgs(
      args,
      {
        'from-snapshot': { type: 'string' },
        'from-file': { type: 'string' },
        ttl: { type: 'string' },
        json: { type: 'boolean' },
        out: { type: 'string' },
        url: { type: 'string' },
        token: { type: 'string' },
        'control-token': { type: 'string' },
      },
      { positionals: true },
    );
    const [action, ...rest] = positionals;
    const { base, token } = controlTarget(
      v as { url?: string; token?: string; 'control-token'?: string },
      env,
    );
    const call = client(base, token);
    try {
      if (action === 'create') return await create(call, v, rest);
      if (action === 'snapshot') return await snapshot(call, v, rest);
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      console.error(`paysandbox workspace: ${err.message}`);
      return 1;
    }
    throw new UsageError(
      action ? `unknown action "${action}"; create or snapshot` : 'create or snapshot?',
    );
  },
};

type Call = ReturnType<typeof client>;
type Values = Record<string, string | boolean | undefined>;

async function create(call: Call, v: Values, rest: string[]): Promise<number> {
  if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
  if (v['from-snapshot'] && v['from-file'])
    throw new UsageError('--from-snapshot or --from-file, not both');
  if (v.out) throw new UsageError('--out belongs to workspace snapshot');
  const body: Record<string, unknown> = {};
  if (v.ttl !== undefined) {
    body.ttl_seconds = wholeNumberFlag(String(v.ttl), 'ttl');
  }
  if (v['from-snapshot']) body.from_snapshot = v['from-snapshot'];
  if (v['from-file']) {
    let doc: unknown;
    try {
      doc = JSON.parse(readFileSync(v['from-file'] as string, 'utf8'));
    } catch (err) {
      throw new UsageError(`--from-file: ${(err as Error).message}`);
    }
    body.from_snapshot = (
      await call<{ snapshot: { id: string } }>('POST', '/_sandbox/snapshots', doc, 201)
    ).snapshot.id;
  }
  const { workspace } = await call<{ workspace: Workspace }>(
    'POST',
    '/_sandbox/workspaces',
    body,
    201,
  );
  console.log(v.json ? JSON.stringify(workspace, null, 2) : describe(workspace));
  return 0;
}

async function snapshot(call: Call, v: Values, rest: string[]): Promise<number> {
  const [id, ...more] = rest;
  if (!id) throw new UsageError('which workspace? paysandbox workspace snapshot WORKSPACE_ID');
  if (more.length) throw new UsageError(`unexpected argument "${more[0]}"`);
  if (v['from-snapshot'] || v['from-file'] || v.ttl)
    throw new UsageError('--from-snapshot, --from-file and --ttl belong to workspace create');
  const { snapshot: snap } = await call<{ snapshot: { id: string } }>(
    'POST',
    `/_sandbox/workspaces/${encodeURIComponent(id)}/snapshots`,
    undefined,
    201,
  );
  const doc = await call<unknown>('GET', `/_sandbox/snapshots/${snap.id}/export`);
  const text = JSON.stringify(doc, null, 2) + '\n';
  if (v.out) {
    writeFileSync(v.out as string, text);
    console.log(
      v.json
        ? JSON.stringify(snap, null, 2)
        : `snapshot ${snap.id} of workspace ${id} written to ${v.out}`,
    );
  } else process.stdout.write(text);
  return 0;
}
