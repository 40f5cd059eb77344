/**
 * Grading of a merchant's callback handler (docs/design.md#around-the-api), as pure functions of the answers it
 * gave: no network here, so every rule can be tested on its own.
 */
export type Grade = 'PASS' | 'WARN' | 'FAIL' | 'INFO';

export type CheckId =
  | 'valid-event'
  | 'duplicate-delivery'
  | 'out-of-order'
  | 'missing-token'
  | 'wrong-token'
  | 'slow-ack'
  | 'content-type';

/** What the handler answered to one request. */
export interface Answer {
  status: number | null;
  /** The sandbox's own wording of a failed attempt (`sendCallback`), null on a 2xx. */
  error: string | null;
  timed_out: boolean;
  duration_ms: number;
  content_type: string | null;
  excerpt: string | null;
}

export interface Verdict {
  grade: Grade;
  reason: string;
}

/** The checks in report order, each with what a correct handler does (kept as data, shown on WARN/FAIL). */
export const CHECKS: ReadonlyArray<{ id: CheckId; title: string; expected: string }> = [
  {
    id: 'valid-event',
    title: 'valid event',
    expected:
      'answers 2xx (the reference answer is 200 OK) within the timeout to an event with the right token, on the registered URL itself (no redirect)',
  },
  {
    id: 'duplicate-delivery',
    title: 'duplicate delivery',
    expected:
      'is idempotent: acknowledges a repeat of an event it already handled (same X-Sandbox-Event-Id, or same invoice id and status) with 2xx and does not act on it twice',
  },
  {
    id: 'out-of-order',
    title: 'out-of-order events',
    expected:
      'acknowledges an older event with 2xx and never moves an invoice back (compare amount_received, or re-read GET /v1/invoices/{id})',
  },
  {
    id: 'missing-token',
    title: 'missing token',
    expected: 'answers 401 to a callback without an Authorization header and ignores it',
  },
  {
    id: 'wrong-token',
    title: 'wrong token',
    expected:
      'compares "Authorization: Token <merchant_api_token>" with its own token (constant-time) and answers 401 on a mismatch',
  },
  {
    id: 'slow-ack',
    title: 'slow acknowledgement',
    expected:
      'acknowledges at once and does slow work after answering; no answer within the timeout counts as a failed delivery and is retried',
  },
  {
    id: 'content-type',
    title: 'content type',
    expected: 'any body is accepted; the reference handler answers text/plain "OK"',
  },
];

type Ack = 'ok' | 'redirect' | 'refused' | 'timeout' | 'unreachable';

export function ackOf(a: Answer): Ack {
  if (a.status !== null && a.status >= 200 && a.status < 300 && a.error === null) return 'ok';
  if (a.status !== null && a.status >= 300 && a.status < 400) return 'redirect';
  if (a.status !== null) return 'refused';
  return a.timed_out ? 'timeout' : 'unreachable';
}

export function ms(value: number): string {
  return `${Math.round(value)} ms`;
}

/** "answered 409 (Conflict)" or the sandbox's failure text ("timeout: no answer within 500 ms"). */
export function describeAnswer(a: Answer): string {
  const kind = ackOf(a);
  if (kind === 'ok' || kind === 'refused') {
    const said = a.excerpt?.replace(/\s+/g, ' ').trim().slice(0, 60);
    return `answered ${a.status}${kind === 'refused' && said ? ` (${said})` : ''}`;
  }
  return a.error ?? `answered ${a.status}`;
}

/** The likely cause of a refused valid event, for the two refusals a correct handler can make by mistake. */
function refusalHint(status: number): string {
  if (status === 401) return ' (is --token the merchant_api_token this handler expects?)';
  if (status >= 400 && status < 500)
    return ' (these synthetic invoices are unknown to your backend: acknowledge events of unknown invoices, then ignore them)';
  return '';
}

const RETRIED = 'the sandbox and the real service retry it, then give up on the delivery';

export function gradeValid(a: Answer): Verdict {
  switch (ackOf(a)) {
    case 'ok':
      return { grade: 'PASS', reason: `${describeAnswer(a)} in ${ms(a.duration_ms)}` };
    case 'redirect':
      return {
        grade: 'WARN',
        reason: `${describeAnswer(a)}: the real service does not follow it either; register the final URL`,
      };
    case 'refused':
      return {
        grade: 'FAIL',
        reason: `${describeAnswer(a)}: ${RETRIED}${refusalHint(a.status ?? 0)}`,
      };
    default:
      return { grade: 'FAIL', reason: `${describeAnswer(a)}: ${RETRIED}` };
  }
}

/** The same event twice: at-least-once delivery makes repeats normal (a retry after a lost answer). */
export function gradeDuplicate(first: Answer, second: Answer): Verdict {
  if (ackOf(first) !== 'ok')
    return {
      grade: 'WARN',
      reason: `not judged: the first delivery was not acknowledged (${describeAnswer(first)})`,
    };
  const kind = ackOf(second);
  if (kind === 'ok')
    return {
      grade: 'PASS',
      reason: `the repeat of an acknowledged event was acknowledged too (${first.status}, ${second.status})`,
    };
  if (kind === 'redirect')
    return { grade: 'WARN', reason: `the repeat was redirected: ${describeAnswer(second)}` };
  return {
    grade: 'FAIL',
    reason: `the repeat of an acknowledged event ${describeAnswer(second)}: ${RETRIED}`,
  };
}

/** `invoice.fully_paid`, then an older `invoice.updated` of the same invoice. */
export function gradeOutOfOrder(newer: Answer, older: Answer): Verdict {
  if (ackOf(newer) !== 'ok')
    return {
      grade: 'WARN',
      reason: `invoice.fully_paid was not acknowledged (${describeAnswer(newer)})`,
    };
  if (ackOf(older) !== 'ok') {
    return {
      grade: 'WARN',
      reason: `the older invoice.updated, sent after invoice.fully_paid, ${describeAnswer(older)}: ${RETRIED}`,
    };
  }
  return {
    grade: 'PASS',
    reason: `invoice.fully_paid, then the older invoice.updated: both acknowledged (${newer.status}, ${older.status})`,
  };
}

/**
 * A callback without the token, or with a wrong one: accepting it is the failure (anyone who knows
 * the URL could post a fake `invoice.fully_paid`). Any other refusal keeps the handler safe, so it
 * only warns when it is not the 401 the real service's merchants answer.
 */
export function gradeRefusal(
  a: Answer,
  mode: 'missing' | 'wrong',
  opts: { https: boolean } = { https: true },
): Verdict {
  const kind = ackOf(a);
  const what =
    mode === 'missing' ? 'a callback without Authorization' : 'a callback with a wrong token';
  if (a.status === 401) return { grade: 'PASS', reason: `refused with 401` };
  // The real service sends the token only to https callback URLs (seed: "when callback_url uses SSL"), so
  // an http handler has to accept token-less callbacks; it must then verify payments by retrieving the invoice.
  if (mode === 'missing' && !opts.https && kind === 'ok') {
    return {
      grade: 'WARN',
      reason: `answered ${a.status} to ${what}: expected on an http URL (the token comes only over https), so verify each payment with GET /v1/invoices/{id} before acting on it`,
    };
  }
  if (kind === 'ok')
    return {
      grade: 'FAIL',
      reason: `answered ${a.status} to ${what}: this handler accepts unauthenticated callbacks`,
    };
  if (kind === 'timeout' || kind === 'unreachable')
    return { grade: 'WARN', reason: `not judged: ${describeAnswer(a)}` };
  return { grade: 'WARN', reason: `refused ${what}, but ${describeAnswer(a)} instead of 401` };
}

/** Response time of the valid event (docs/design.md#callbacks: success is a 2xx within 10 s). */
export function gradeSlow(a: Answer, limits: { slowMs: number; timeoutMs: number }): Verdict {
  const kind = ackOf(a);
  if (kind === 'timeout') {
    return {
      grade: 'FAIL',
      reason: `no answer within ${ms(limits.timeoutMs)}: the sandbox and the real service count that as a failed delivery and retry it`,
    };
  }
  if (kind === 'unreachable')
    return { grade: 'WARN', reason: `not measured: ${describeAnswer(a)}` };
  if (a.duration_ms > limits.slowMs) {
    return {
      grade: 'WARN',
      reason: `answered in ${ms(a.duration_ms)}, above ${ms(limits.slowMs)}; at ${ms(limits.timeoutMs)} the delivery counts as failed`,
    };
  }
  return {
    grade: 'PASS',
    reason: `answered in ${ms(a.duration_ms)} (WARN above ${ms(limits.slowMs)}, FAIL at ${ms(limits.timeoutMs)})`,
  };
}

/** Information only: what the handler answers to the valid event. */
export function gradeContentType(a: Answer): Verdict {
  if (a.status === null) return { grade: 'INFO', reason: 'no answer to describe' };
  const body = (a.excerpt ?? '').trim();
  const shown = body.length > 60 ? `${JSON.stringify(body.slice(0, 60))}…` : JSON.stringify(body);
  const reference =
    ackOf(a) === 'ok' && body !== 'OK' ? ' (any 2xx body counts; the reference answer is OK)' : '';
  return {
    grade: 'INFO',
    reason: `${a.status} with Content-Type ${a.content_type ?? '(none)'}, body ${shown}${reference}`,
  };
}
