import { sendCallback } from '../callbacks/callback.transport.js';
import type { EventName } from '../events/outbox.repo.js';
import { newId, type IdFactory } from '../shared/ids.js';
import {
  callbackRequestFor,
  externalIdPrefix,
  syntheticEvent,
  syntheticInvoice,
  type SyntheticEvent,
  type TokenMode,
} from './receiver-check.events.js';
import {
  CHECKS,
  gradeContentType,
  gradeDuplicate,
  gradeOutOfOrder,
  gradeRefusal,
  gradeSlow,
  gradeValid,
  type Answer,
  type CheckId,
  type Grade,
  type Verdict,
} from './receiver-check.grading.js';

/** Success is a 2xx within 10 s (docs/design.md#callbacks). */
export const DEFAULT_TIMEOUT_MS = 10_000;
/** Above this an acknowledgement is graded slow: a third of the way to the limit, with no margin for a busy day. */
export const DEFAULT_SLOW_MS = 3_000;

export interface ReceiverCheckOptions {
  url: string;
  /** The merchant's `merchant_api_token`, as the handler expects it. */
  token: string;
  timeoutMs?: number;
  slowMs?: number;
  fetch?: typeof fetch;
  ids?: IdFactory;
  nowMs?: () => number;
}

/** One request sent to the handler, and its answer (the token itself is never recorded). */
export interface SentRequest {
  event: EventName;
  event_id: string;
  invoice_id: string;
  authorization: TokenMode;
  attempt: number;
  status: number | null;
  duration_ms: number;
  error: string | null;
}

export interface CheckResult extends Verdict {
  id: CheckId;
  title: string;
  /** What a correct handler does. */
  expected: string;
  requests: SentRequest[];
  /** Set when the check reads the answers of another check's requests instead of sending its own. */
  measured_on?: CheckId;
}

export interface ReceiverReport {
  url: string;
  run_id: string;
  /** Always true: every event is made up for this run and matches no real invoice. */
  synthetic: true;
  external_transaction_id_prefix: string;
  timeout_ms: number;
  slow_ms: number;
  notes: string[];
  checks: CheckResult[];
  summary: { pass: number; warn: number; fail: number; info: number };
  /** No check failed. */
  passed: boolean;
}

/**
 * Grade the callback handler at `url` the way the sandbox's callback engine and the real service
 * stress it (docs/design.md#around-the-api): real HTTP POSTs, one after another, built by the engine's own request
 * builder. Each check uses its own synthetic invoice so that a handler de-duplicating on invoice id
 * and status cannot confuse one check with another.
 */
export async function checkReceiver(o: ReceiverCheckOptions): Promise<ReceiverReport> {
  const timeoutMs = o.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const slowMs = o.slowMs ?? DEFAULT_SLOW_MS;
  const fetchFn = o.fetch ?? fetch;
  const ids = o.ids ?? newId;
  const nowMs = o.nowMs ?? (() => performance.now());
  const runId = ids();

  async function send(
    event: SyntheticEvent,
    mode: TokenMode,
    attempt: number,
  ): Promise<{ sent: SentRequest; answer: Answer }> {
    let contentType: string | null = null;
    // sendCallback keeps only status and excerpt; the Content-Type is read on the way through.
    const capture: typeof fetch = async (input, init) => {
      const res = await fetchFn(input, init);
      contentType = res.headers.get('content-type');
      return res;
    };
    const req = callbackRequestFor(event, o.url, o.token, mode, attempt, ids);
    const out = await sendCallback(capture, req, { timeoutMs, nowMs });
    const answer: Answer = {
      status: out.statusCode,
      error: out.error,
      // sendCallback words its own timeout this way (describeFailure); a refused connection differs.
      timed_out: out.error?.startsWith('timeout:') ?? false,
      duration_ms: out.durationMs,
      content_type: contentType,
      excerpt: out.excerpt,
    };
    const sent: SentRequest = {
      event: event.name,
      event_id: event.event_id,
      invoice_id: event.invoice_id,
      authorization: mode,
      attempt,
      status: out.statusCode,
      duration_ms: out.durationMs,
      error: out.error,
    };
    return { sent, answer };
  }

  const fullyPaid = (label: string) =>
    syntheticEvent(ids, 'invoice.fully_paid', syntheticInvoice(ids, runId, label));
  const results = new Map<
    CheckId,
    { verdict: Verdict; requests: SentRequest[]; measured_on?: CheckId }
  >();

  const valid = await send(fullyPaid('valid'), 'right', 1);
  results.set('valid-event', { verdict: gradeValid(valid.answer), requests: [valid.sent] });

  // A repeat is the same event id and body with the next attempt number, as a retry after a lost answer.
  const repeated = fullyPaid('duplicate');
  const first = await send(repeated, 'right', 1);
  const second = await send(repeated, 'right', 2);
  results.set('duplicate-delivery', {
    verdict: gradeDuplicate(first.answer, second.answer),
    requests: [first.sent, second.sent],
  });

  const shuffled = syntheticInvoice(ids, runId, 'out-of-order');
  const partialEvent = syntheticEvent(ids, 'invoice.updated', shuffled);
  const newer = await send(syntheticEvent(ids, 'invoice.fully_paid', shuffled), 'right', 1);
  const older = await send(partialEvent, 'right', 1);
  results.set('out-of-order', {
    verdict: gradeOutOfOrder(newer.answer, older.answer),
    requests: [newer.sent, older.sent],
  });

  const missing = await send(fullyPaid('missing-token'), 'missing', 1);
  results.set('missing-token', {
    verdict: gradeRefusal(missing.answer, 'missing', { https: o.url.startsWith('https:') }),
    requests: [missing.sent],
  });
  const wrong = await send(fullyPaid('wrong-token'), 'wrong', 1);
  results.set('wrong-token', {
    verdict: gradeRefusal(wrong.answer, 'wrong'),
    requests: [wrong.sent],
  });

  results.set('slow-ack', {
    verdict: gradeSlow(valid.answer, { slowMs, timeoutMs }),
    requests: [],
    measured_on: 'valid-event',
  });
  results.set('content-type', {
    verdict: gradeContentType(valid.answer),
    requests: [],
    measured_on: 'valid-event',
  });

  const checks: CheckResult[] = CHECKS.map((c) => {
    const r = results.get(c.id)!;
    return {
      ...c,
      ...r.verdict,
      requests: r.requests,
      ...(r.measured_on ? { measured_on: r.measured_on } : {}),
    };
  });
  const count = (g: Grade) => checks.filter((c) => c.grade === g).length;
  const summary = {
    pass: count('PASS'),
    warn: count('WARN'),
    fail: count('FAIL'),
    info: count('INFO'),
  };
  const prefix = externalIdPrefix(runId);
  const notes = [
    `These are synthetic test events: invoices ${prefix}-* match no real invoice; a handler acknowledges them like any other.`,
  ];
  if (/^http:/i.test(o.url)) {
    notes.push(
      'http URL: the sandbox sends the token to it only when the merchant\'s callback_auth is "always" (the default "https-only" sends none); these checks send it as to an https URL.',
    );
  }
  return {
    url: o.url,
    run_id: runId,
    synthetic: true,
    external_transaction_id_prefix: prefix,
    timeout_ms: timeoutMs,
    slow_ms: slowMs,
    notes,
    checks,
    summary,
    passed: summary.fail === 0,
  };
}
