import { parseCommandArgs, UsageError, wholeNumberFlag } from './args.js';
import type { CliCommand } from './command.types.js';
import {
  CONTROL_HELP,
  CONTROL_OPTIONS,
  controlClient,
  controlTarget,
  runControl,
} from './control-http.js';

const USAGE = 'fault add|list|rm [...]';
const HELP = `Usage: paysandbox fault add --path GLOB [--method M] [--status N] [--body JSON] [--latency 2s]
                            [--count N] [--probability P] [--json]
       paysandbox fault list [--json]
       paysandbox fault rm ID | --all

Inject faults on the public API of a running sandbox (the control API's /_sandbox/faults): a matching
request answers --status (with --body, or the injected_fault envelope), after --latency, for --count
requests, with --probability. \`list\` shows each fault with its hits; \`rm\` removes one, or all.

Options of add:
  --path GLOB             the path glob, e.g. /v1/invoices or "/v3/**" (required)
  --method M              GET, POST, PUT, PATCH, DELETE or * (default *)
  --status N              the status to answer, 200-599 (default 500 unless only --latency is given)
  --body JSON             the JSON body to answer
  --latency 2s            delay before answering (ms or s)
  --count N               only the next N matching requests
  --probability P         the share of matching requests that fail, 0-1
${CONTROL_HELP}

Exit code 0 on success, 1 when the sandbox cannot be reached or refuses (a 400 names the field), 2 on bad usage.`;

const OPTIONS = {
  ...CONTROL_OPTIONS,
  path: { type: 'string' },
  method: { type: 'string' },
  status: { type: 'string' },
  body: { type: 'string' },
  latency: { type: 'string' },
  count: { type: 'string' },
  probability: { type: 'string' },
  all: { type: 'boolean' },
} as const;

interface Fault {
  id: string;
  method: string;
  path: string;
  status?: number;
  latency_ms?: number;
  count?: number;
  probability?: number;
  state?: 'active' | 'exhausted';
  hits: number;
  last_hit?: { at: string; method: string; path: string } | null;
}

/** A fault in one line. */
export function faultLine(f: Fault): string {
  const what = [
    f.status !== undefined ? `status ${f.status}` : null,
    f.latency_ms ? `latency ${f.latency_ms} ms` : null,
    f.count !== undefined ? `count ${f.count}` : null,
    f.probability !== undefined ? `probability ${f.probability}` : null,
    f.state === 'exhausted' ? 'exhausted' : null,
  ].filter(Boolean);
  const last = f.last_hit
    ? `  last_hit ${f.last_hit.at} ${f.last_hit.method} ${f.last_hit.path}`
    : '';
  return `${f.id}  ${f.method.padEnd(6)} ${f.path}  ${what.join(', ')}  hits ${f.hits}${last}`;
}

function integer(text: string | undefined, flag: string): number | undefined {
  return text === undefined ? undefined : wholeNumberFlag(text, flag);
}

/** `2s`, `250ms` or plain milliseconds → milliseconds. */
function latencyMs(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(text);
  if (!m) throw new UsageError(`--latency must be a duration such as 2s or 250ms, got "${text}"`);
  return Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
}

function faultInput(v: Record<string, string | boolean | undefined>) {
  const s = (k: string) => v[k] as string | undefined;
  if (!s('path')) throw new UsageError('add needs --path GLOB, e.g. --path /v1/invoices');
  const input: Record<string, unknown> = { path: s('path') };
  const method = s('method');
  if (method !== undefined) input.method = method.toUpperCase();
  const status = integer(s('status'), 'status');
  if (status !== undefined) input.status = status;
  const body = s('body');
  if (body !== undefined) {
    try {
      input.body = JSON.parse(body);
    } catch {
      throw new UsageError(`--body must be JSON, e.g. '{"detail":"down"}', got ${body}`);
    }
  }
  const latency = latencyMs(s('latency'));
  if (latency !== undefined) input.latency_ms = latency;
  const count = integer(s('count'), 'count');
  if (count !== undefined) input.count = count;
  const probability = s('probability');
  if (probability !== undefined) {
    const p = Number(probability);
    if (probability.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1)
      throw new UsageError(`--probability must be a number from 0 to 1, got "${probability}"`);
    input.probability = p;
  }
  return input;
}

async function run(args: string[], env: Record<string, string | undefined>): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, OPTIONS, { positionals: true });
  const v = values as Record<string, string | boolean | undefined>;
  const call = controlClient(controlTarget(v as { url?: string }, env));
  const [sub, ...rest] = positionals;
  const json = v.json === true;
  if (sub === 'add') {
    if (rest.length) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const { fault } = await call<{ fault: Fault }>('POST', '/_sandbox/faults', faultInput(v));
    console.log(json ? JSON.stringify({ fault }) : `added ${faultLine(fault)}`);
    return 0;
  }
  if (sub === 'list') {
    const page = await call<{ faults: Fault[] }>('GET', '/_sandbox/faults');
    if (json) console.log(JSON.stringify(page));
    else if (!page.faults.length) console.log('no faults');
    else for (const f of page.faults) console.log(faultLine(f));
    return 0;
  }
  if (sub === 'rm') {
    if (v.all === true) {
      if (rest.length) throw new UsageError('give a fault id or --all, not both');
      await call('DELETE', '/_sandbox/faults');
      console.log('removed every fault');
      return 0;
    }
    const [id] = rest;
    if (id === undefined || rest.length !== 1)
      throw new UsageError('rm takes one fault id (paysandbox fault list shows them), or --all');
    await call('DELETE', `/_sandbox/faults/${encodeURIComponent(id)}`);
    console.log(`removed ${id}`);
    return 0;
  }
  throw new UsageError(
    sub
      ? `unknown sub-command "${sub}"; one of add, list, rm`
      : 'which sub-command? one of add, list, rm',
  );
}

export const faultCommand: CliCommand = {
  name: 'fault',
  usage: USAGE,
  summary: 'inject a fault on the public API, list faults with their hits, remove them',
  help: HELP,
  run: (args, env) => runControl('fault', () => run(args, env)),
};
