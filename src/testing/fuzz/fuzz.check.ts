import type { SpecValidators } from '../../spec/validators.js';
import type { Draft, WireResponse } from './fuzz.request.js';
import { itemAt } from '../../shared/defined.js';

/** Whether the document answers this operation and status with a `text/event-stream`. */
/** Whether the document gives this response a content of `type` (an event stream unless said otherwise). */
export type StreamsDocumented = (operationId: string, status: number, type?: string) => boolean;

/**
 * What is wrong with an answer, judged by the document alone: a 5xx, a status the operation does not
 * list, a body that is not JSON or does not match the response schema, or a verdict that contradicts
 * the request (an invalid request accepted, bad credentials let through). Empty when all is well.
 */
export function problemsOf(
  d: Draft,
  res: WireResponse,
  validators: SpecValidators,
  streams: StreamsDocumented = () => false,
): string[] {
  const problems: string[] = [];
  const { status } = res;
  if (status >= 500) problems.push(`server error ${status}`);
  if (!d.op.statuses.includes(String(status)))
    problems.push(
      `status ${status} is not documented for ${d.op.operationId} (documented: ${d.op.statuses.join(', ')})`,
    );
  if (d.expect === 'reject' && (status < 400 || status > 499))
    problems.push(`an invalid request (${d.kind}) was answered ${status} instead of a 4xx`);
  // A nonce that is not a number at all is a malformed request (400 `invalid_nonce_format`), not a wrong credential.
  const malformedNonce =
    status === 400 &&
    (d.auth === 'garbage-nonce' || d.auth === 'replayed-nonce') &&
    res.text.includes('invalid_nonce_format');
  if (d.expect === 'unauthorized' && status !== 401 && !malformedNonce)
    problems.push(`bad credentials (${d.auth}) were answered ${status} instead of 401`);
  if (d.expect === 'forbidden' && status !== 403)
    problems.push(`a cross-site control request (${d.kind}) was answered ${status} instead of 403`);
  if (status === 204) return problems;
  if (res.stream) return [...problems, ...streamProblems(d, res, streams)];
  // A CSV answer (the balance statement) is fine where the document says so; its text is not checked further.
  if (/^text\/csv\b/i.test(res.contentType)) {
    return streams(d.op.operationId, status, 'text/csv')
      ? problems
      : [...problems, `text/csv is not documented for ${d.op.operationId} ${status}`];
  }
  if (!/^application\/json\b/i.test(res.contentType)) {
    problems.push(`content type ${JSON.stringify(res.contentType)} is not application/json`);
    return problems;
  }
  let body: unknown;
  try {
    body = JSON.parse(res.text);
  } catch {
    problems.push('body is not JSON');
    return problems;
  }
  const validate = validators.response(d.op.operationId, status);
  if (validate && !validate(body)) {
    const errors = (validate.errors ?? [])
      .slice(0, 3)
      .map((e) => `${e.instancePath || '/'} ${e.message}`);
    problems.push(`body does not match the ${status} response schema: ${errors.join('; ')}`);
  }
  return problems;
}

/**
 * An event stream (read up to its first event): the document must list `text/event-stream` for the
 * status, and the first event must be the `ready` message, whose data is JSON.
 */
function streamProblems(d: Draft, res: WireResponse, streams: StreamsDocumented): string[] {
  if (!streams(d.op.operationId, res.status))
    return [`an event stream is not documented for ${d.op.operationId} ${res.status}`];
  const ready = /(?:^|\n)event: ready\ndata: ([^\n]*)\n\n/.exec(res.text);
  if (!ready)
    return [
      `the stream does not start with a ready event: ${JSON.stringify(res.text.slice(0, 120))}`,
    ];
  try {
    JSON.parse(itemAt(ready, 1));
    return [];
  } catch {
    return [`the ready event's data is not JSON: ${itemAt(ready, 1).slice(0, 120)}`];
  }
}
