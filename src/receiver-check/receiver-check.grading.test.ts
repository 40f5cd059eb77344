import { describe, expect, it } from 'vitest';
import {
  gradeContentType,
  gradeDuplicate,
  gradeOutOfOrder,
  gradeRefusal,
  gradeSlow,
  gradeValid,
  type Answer,
} from './receiver-check.grading.js';

const answered = (status: number, o: Partial<Answer> = {}): Answer => ({
  status,
  error: status >= 200 && status < 300 ? null : `receiver answered ${status}`,
  timed_out: false,
  duration_ms: 12,
  content_type: 'text/plain',
  excerpt: status === 200 ? 'OK' : '',
  ...o,
});
const timedOut: Answer = {
  status: null,
  error: 'timeout: no answer within 500 ms',
  timed_out: true,
  duration_ms: 500,
  content_type: null,
  excerpt: null,
};
const refused: Answer = {
  status: null,
  error: 'connection failed: connect ECONNREFUSED 127.0.0.1:9',
  timed_out: false,
  duration_ms: 1,
  content_type: null,
  excerpt: null,
};

describe('grading', () => {
  it('valid event: 2xx passes, a redirect warns, anything else fails, with a hint for 401 and other 4xx', () => {
    expect(gradeValid(answered(204))).toEqual({ grade: 'PASS', reason: 'answered 204 in 12 ms' });
    expect(
      gradeValid(
        answered(302, { error: 'redirect 302 to /x not followed (redirects count as failures)' }),
      ).grade,
    ).toBe('WARN');
    expect(gradeValid(answered(401)).reason).toMatch(/is --token the merchant_api_token/);
    expect(gradeValid(answered(404, { excerpt: 'unknown invoice' })).reason).toMatch(
      /^answered 404 \(unknown invoice\): .* acknowledge events of unknown invoices/,
    );
    expect(gradeValid(answered(500)).grade).toBe('FAIL');
    expect(gradeValid(timedOut).grade).toBe('FAIL');
    expect(gradeValid(refused).reason).toMatch(/^connection failed/);
  });

  it('duplicate: judged only when the first delivery was acknowledged', () => {
    expect(gradeDuplicate(answered(200), answered(200)).grade).toBe('PASS');
    expect(gradeDuplicate(answered(200), answered(409)).grade).toBe('FAIL');
    expect(gradeDuplicate(answered(200), timedOut).grade).toBe('FAIL');
    expect(gradeDuplicate(answered(500), answered(500))).toEqual({
      grade: 'WARN',
      reason: 'not judged: the first delivery was not acknowledged (answered 500)',
    });
  });

  it('out of order: any unacknowledged event warns', () => {
    expect(gradeOutOfOrder(answered(200), answered(200)).grade).toBe('PASS');
    expect(gradeOutOfOrder(answered(200), answered(422)).grade).toBe('WARN');
    expect(gradeOutOfOrder(timedOut, answered(200)).grade).toBe('WARN');
  });

  it('refusals: 401 passes, acceptance fails, another refusal or no answer warns', () => {
    expect(gradeRefusal(answered(401), 'missing')).toEqual({
      grade: 'PASS',
      reason: 'refused with 401',
    });
    expect(gradeRefusal(answered(200), 'missing')).toEqual({
      grade: 'FAIL',
      reason:
        'answered 200 to a callback without Authorization: this handler accepts unauthenticated callbacks',
    });
    expect(gradeRefusal(answered(200), 'missing', { https: false }).grade).toBe('WARN');
    expect(gradeRefusal(answered(200), 'missing', { https: false }).reason).toMatch(
      /verify each payment with GET \/v1\/invoices/,
    );
    expect(gradeRefusal(answered(200), 'wrong', { https: false }).grade).toBe('FAIL');
    expect(gradeRefusal(answered(403), 'wrong')).toEqual({
      grade: 'WARN',
      reason: 'refused a callback with a wrong token, but answered 403 instead of 401',
    });
    expect(gradeRefusal(answered(500), 'wrong').grade).toBe('WARN');
    expect(gradeRefusal(timedOut, 'wrong').reason).toBe(
      'not judged: timeout: no answer within 500 ms',
    );
  });

  it('slow acknowledgement: PASS up to the threshold, WARN above it, FAIL at the timeout', () => {
    const limits = { slowMs: 3_000, timeoutMs: 10_000 };
    expect(gradeSlow(answered(200, { duration_ms: 3_000 }), limits).grade).toBe('PASS');
    expect(gradeSlow(answered(200, { duration_ms: 3_001 }), limits).grade).toBe('WARN');
    expect(gradeSlow(answered(500, { duration_ms: 9_000 }), limits).grade).toBe('WARN');
    expect(gradeSlow({ ...timedOut, duration_ms: 10_000 }, limits).grade).toBe('FAIL');
    expect(gradeSlow(refused, limits).grade).toBe('WARN');
  });

  it('content type is information only', () => {
    expect(gradeContentType(answered(200))).toEqual({
      grade: 'INFO',
      reason: '200 with Content-Type text/plain, body "OK"',
    });
    expect(
      gradeContentType(answered(200, { content_type: 'application/json', excerpt: '{"ok":true}' }))
        .reason,
    ).toBe(
      '200 with Content-Type application/json, body "{\\"ok\\":true}" (any 2xx body counts; the reference answer is OK)',
    );
    expect(
      gradeContentType(answered(500, { content_type: null, excerpt: 'x'.repeat(80) })).reason,
    ).toBe(`500 with Content-Type (none), body "${'x'.repeat(60)}"…`);
    expect(gradeContentType(timedOut)).toEqual({ grade: 'INFO', reason: 'no answer to describe' });
  });
});
