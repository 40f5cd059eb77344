/** The control API as the CLI calls it (`deliveries`, `fault`, `clock`; its errors for `trigger`, `workspace`, `listen`): base URL, token, one-line errors. */

import { trimEnd } from '../shared/trim.js';

/** Where the sandbox is and how to authenticate: `--url`, `--control-token` (or `--token`), then the environment. */
export function controlTarget(
  v: { url?: string; 'control-token'?: string; token?: string },
  env: Record<string, string | undefined>,
) {
  const base = trimEnd(
    v.url ?? env.PAYSANDBOX_URL ?? `http://127.0.0.1:${env.PAYSANDBOX_PORT ?? 7070}`,
    '/',
  );
  return { base, token: v['control-token'] ?? v.token ?? env.SANDBOX_CONTROL_TOKEN };
}

/** The common flags of control commands. */
export const CONTROL_OPTIONS = {
  url: { type: 'string' },
  'control-token': { type: 'string' },
  token: { type: 'string' },
  json: { type: 'boolean' },
} as const;

export const CONTROL_HELP = `  --url BASE              the sandbox (default http://127.0.0.1:7070, or PAYSANDBOX_URL)
  --control-token T       X-Sandbox-Token, when the sandbox requires one (or SANDBOX_CONTROL_TOKEN; --token too)
  --json                  the control API's JSON answer as it is`;

/** A refusal of the sandbox or an unreachable sandbox, said in one line (exit 1). */
export class ControlError extends Error {
  override name = 'ControlError';
  /** The status the sandbox answered (none when it could not be reached). */
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** The error envelope as one sentence. */
export function envelopeText(body: unknown): string {
  const e = body as { errors?: Record<string, string[]> } | string;
  if (typeof e === 'string') return e.slice(0, 200);
  const parts = Object.entries(e?.errors ?? {}).map(([field, msgs]) =>
    field === 'non_field_errors' ? msgs.join(' ') : `${field}: ${msgs.join(' ')}`,
  );
  return parts.join('; ') || JSON.stringify(body).slice(0, 200);
}

/** What a 401 of the control API means: no token given where one is required, or the wrong one. */
export function unauthorized(target: { base: string; token?: string }): string {
  return target.token
    ? `the sandbox at ${target.base} refused the control token (401): pass the one it was started with (--control-token T or SANDBOX_CONTROL_TOKEN)`
    : `the sandbox at ${target.base} requires a control token (401): pass it with --control-token T or set SANDBOX_CONTROL_TOKEN`;
}

/** Call the control API; a non-2xx answer throws a ControlError naming the status and the envelope's message. */
export function controlClient(target: { base: string; token?: string }) {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (target.token) headers['x-sandbox-token'] = target.token;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let res: Response;
    try {
      res = await fetch(`${target.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      throw new ControlError(
        `cannot reach the sandbox at ${target.base} (${cause?.code ?? cause?.message ?? (err as Error).message}); is \`paysandbox start\` running? (--url BASE)`,
      );
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: shown as is
    }
    if (res.status === 401) throw new ControlError(unauthorized(target), 401);
    if (res.status >= 300)
      throw new ControlError(
        `${method} ${path} answered ${res.status}: ${envelopeText(parsed)}`,
        res.status,
      );
    return parsed as T;
  };
}

/** Run a control command: a ControlError is one line on stderr and exit 1. */
export async function runControl(command: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (err) {
    if (!(err instanceof ControlError)) throw err;
    console.error(`paysandbox ${command}: ${err.message}`);
    return 1;
  }
}
