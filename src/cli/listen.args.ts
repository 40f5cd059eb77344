import { trimEnd } from '../shared/trim.js';
import { EVENT_NAMES, type EventName } from '../events/outbox.repo.js';
import { parseCommandArgs, UsageError } from './args.js';

/** `paysandbox listen`'s usage, help and flags, read into what the command needs. */

export const USAGE =
  'listen [--forward-to URL] [--merchant ID | --workspace ID] [--events a,b] [--url BASE] [--json]';
export const HELP = `Usage: paysandbox ${USAGE}

Print every invoice event of one merchant and every callback attempt as they happen on a running
sandbox, and forward every send of an event (its first delivery, each retry, a redelivery, a manual
send) to a local URL with the body and headers the sandbox sends
(Content-Type, X-Sandbox-Event-Id, X-Sandbox-Delivery-Attempt, Authorization per the merchant's
callback_auth, plus X-Sandbox-Forwarded: 1). The merchant's settings are not changed: its own
callbacks go on as before. Ctrl-C stops (exit 0).

Options:
  --forward-to URL        POST each event here (http or https), e.g. http://localhost:3000/callback
  --merchant ID           the merchant whose events to follow (default: the first fixture merchant)
  --workspace ID          the merchant of this workspace (POST /_sandbox/workspaces)
  --events a,b            only these events (${EVENT_NAMES.join(', ')})
  --url BASE              the sandbox (default http://127.0.0.1:7070, or PAYSANDBOX_URL)
  --control-token T       X-Sandbox-Token, when the sandbox requires one (or SANDBOX_CONTROL_TOKEN)
  --forward-timeout 10s   how long the local URL has to answer
  --json                  one JSON object per line instead of text

Exit code 0 on Ctrl-C, 1 when the sandbox cannot be reached or refuses, 2 on bad usage.`;

const OPTIONS = {
  'forward-to': { type: 'string' },
  merchant: { type: 'string' },
  workspace: { type: 'string' },
  events: { type: 'string' },
  url: { type: 'string' },
  'control-token': { type: 'string' },
  'forward-timeout': { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** The flags and environment of `paysandbox listen`, checked; bad usage is a UsageError. */
export function parseListenArgs(args: string[], env: Record<string, string | undefined>) {
  const { values } = parseCommandArgs(args, OPTIONS);
  const v = values as {
    [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string;
  };
  if (v.merchant && v.workspace) throw new UsageError('give --merchant or --workspace, not both');
  let forwardTo: string | undefined;
  if (v['forward-to'] !== undefined) {
    let u: URL;
    try {
      u = new URL(v['forward-to']);
    } catch {
      throw new UsageError(
        `--forward-to is not a URL: "${v['forward-to']}" (e.g. http://localhost:3000/callback)`,
      );
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new UsageError(`--forward-to must be an http or https URL, got "${u.protocol}"`);
    forwardTo = u.href;
  }
  const events = v.events
    ?.split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const unknown = events?.filter((e) => !EVENT_NAMES.includes(e as EventName)) ?? [];
  if (unknown.length)
    throw new UsageError(
      `unknown event ${unknown.map((e) => `"${e}"`).join(', ')}; known events: ${EVENT_NAMES.join(', ')}`,
    );
  let forwardTimeoutMs = 10_000;
  if (v['forward-timeout'] !== undefined) {
    const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(v['forward-timeout']);
    if (!m || !(Number(m[1]) > 0))
      throw new UsageError(
        `--forward-timeout must be a duration such as 10s or 500ms, got "${v['forward-timeout']}"`,
      );
    forwardTimeoutMs = Number(m[1]) * (m[2] === 'ms' ? 1 : 1000);
  }
  const base = trimEnd(
    v.url ?? env.PAYSANDBOX_URL ?? `http://127.0.0.1:${env.PAYSANDBOX_PORT ?? 7070}`,
    '/',
  );
  const query = new URLSearchParams();
  if (v.merchant) query.set('merchant_id', v.merchant);
  if (v.workspace) query.set('workspace_id', v.workspace);
  if (events?.length) query.set('events', events.join(','));
  return {
    base,
    query,
    forwardTo,
    forwardTimeoutMs,
    json: v.json === true,
    token: v['control-token'] ?? env.SANDBOX_CONTROL_TOKEN,
  };
}
