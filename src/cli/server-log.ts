import type { AttemptReport } from '../callbacks/delivery.dispatcher.js';
import { attemptMessage } from '../callbacks/event-stream.js';
import { CLIENT_CLOSED_STATUS } from '../http/client-closed.js';

export type LogFormat = 'text' | 'json';

export interface ServerLogOptions {
  format: LogFormat;
  /** ANSI colors (text only): on a TTY without NO_COLOR. */
  color: boolean;
  write: (line: string) => void;
  /** Wall-clock milliseconds, for the time column (tests pass a fixed one). */
  nowMs?: () => number;
}

/** Whether a stream gets colors: a terminal, and NO_COLOR unset or empty (no-color.org). */
export function wantsColor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined>,
): boolean {
  return stream.isTTY === true && !env.NO_COLOR;
}

const paint = (code: string) => (on: boolean, text: string) =>
  on ? `\x1b[${code}m${text}\x1b[0m` : text;
const dim = paint('2');
const red = paint('31');
const green = paint('32');
const yellow = paint('33');
const cyan = paint('36');

function statusColor(status: number | null) {
  if (status === null || status >= 500) return red;
  if (status >= 400) return yellow;
  if (status >= 300) return cyan;
  return green;
}

/** `connection failed: connect ECONNREFUSED 127.0.0.1:4040` → `ECONNREFUSED`; a timeout → `timeout`. */
export function failureKind(error: string): string {
  if (error.startsWith('timeout')) return 'timeout';
  return /\b(E[A-Z_]{3,})\b/.exec(error)?.[1] ?? error.replace(/^connection failed: /, '');
}

/**
 * The terminal log of `paysandbox start`: one line per request and per callback attempt, as text
 * (colored on a terminal) or as JSON objects, one per line.
 *
 * A callback URL that does not answer at all (connection refused, timeout) is said once — "failing …
 * (will retry)" — and its further unanswered attempts are not printed, until it answers again, which is
 * said once too: a receiver that is down would otherwise add a line per attempt of every delivery.
 */
export function createServerLog(o: ServerLogOptions) {
  const nowMs = o.nowMs ?? Date.now;
  const c = o.color && o.format === 'text';
  // Callback URLs that are down: how many of their attempts went unprinted since it was said.
  const down = new Map<string, number>();
  const time = () => new Date(nowMs()).toISOString().slice(11, 23);
  const json = (obj: Record<string, unknown>) =>
    o.write(JSON.stringify({ type: obj.type, at: new Date(nowMs()).toISOString(), ...obj }));

  /** One request; `fault` is the id of an injected fault that answered or delayed it (the line says `fault`). */
  function request(
    method: string,
    path: string,
    status: number,
    auth: string,
    durationMs: number,
    fault: string | null = null,
  ): void {
    // The hosted page polls its invoice's status every 2 s while open: not worth a line each.
    if (
      status === 200 &&
      path.startsWith('/payment/') &&
      path.endsWith('/status') &&
      fault === null
    )
      return;
    // 499: the client closed the connection before its request was complete (no answer was sent).
    const closed = status === CLIENT_CLOSED_STATUS;
    if (o.format === 'json') {
      return json({
        type: 'request',
        method,
        path,
        status,
        auth,
        duration_ms: durationMs,
        ...(closed && { aborted: true }),
        ...(fault === null ? {} : { fault }),
      });
    }
    const shown = closed ? `${status} aborted (client closed)` : String(status);
    o.write(
      `${dim(c, time())} ${method.padEnd(6)} ${path} ${statusColor(status)(c, shown)} ${dim(c, auth)} ${durationMs.toFixed(1)} ms` +
        (fault === null ? '' : ` ${yellow(c, `fault ${fault}`)}`),
    );
  }

  function attempt(r: AttemptReport): void {
    const unanswered =
      r.status_code === null && r.error !== null && !r.error.startsWith('aborted') ? r.error : null;
    const wasDown = down.get(r.url);
    if (unanswered !== null) {
      if (wasDown !== undefined && r.status !== 'failed') {
        down.set(r.url, wasDown + 1);
        return;
      }
      if (wasDown === undefined) {
        down.set(r.url, 0);
        const kind = failureKind(unanswered);
        if (o.format === 'json')
          json({ type: 'callback_target', url: r.url, state: 'failing', error: r.error, kind });
        else
          o.write(
            `${dim(c, time())} ${red(c, `callbacks to ${r.url} failing: ${kind} (will retry; further failures are not shown until it answers)`)}`,
          );
      }
    } else if (wasDown !== undefined) {
      down.delete(r.url);
      if (o.format === 'json')
        json({
          type: 'callback_target',
          url: r.url,
          state: 'answering',
          unshown_failures: wasDown,
        });
      else
        o.write(
          `${dim(c, time())} ${green(c, `callbacks to ${r.url} answering again`)}${wasDown ? ` (${wasDown} failed attempt(s) not shown)` : ''}`,
        );
    }
    const m = attemptMessage(r);
    if (o.format === 'json') return json({ type: 'callback', ...m });
    const answer = r.status_code === null ? 'no answer' : String(r.status_code);
    const outcome =
      r.status === 'delivered'
        ? 'delivered'
        : r.status === 'failed'
          ? 'failed for good'
          : `retry at ${m.next_attempt_at} (sandbox clock)`;
    o.write(
      `${dim(c, time())} ${cyan(c, 'callback')} ${m.event} invoice=${m.invoice_id} → ${r.url} attempt ${r.attempt} ` +
        `${statusColor(r.status_code)(c, answer)} ${r.duration_ms.toFixed(1)} ms ${r.status === 'delivered' ? green(c, outcome) : yellow(c, outcome)}` +
        (r.error && r.status !== 'delivered' ? ` ${dim(c, `(${r.error})`)}` : ''),
    );
  }

  return { request, attempt };
}
