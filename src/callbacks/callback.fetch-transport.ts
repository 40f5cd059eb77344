import type { CallbackOutcome, CallbackRequest, CallbackTransport } from './callback.request.js';
import { EXCERPT_BYTES } from './callback.request.js';

// Callbacks over a `fetch` (the receiver check, and tests that inject one); the sandbox's own
// dispatcher uses the node:http transport (callback.transport.ts), which gives the same outcomes.

async function readExcerpt(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < EXCERPT_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // The answer broke off (or the timeout hit) mid-body: keep what arrived; the status decides.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, EXCERPT_BYTES));
}

function describeFailure(err: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `timeout: no answer within ${timeoutMs} ms`;
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'AbortError') return 'aborted: the sandbox stopped during this attempt';
  return `connection failed: ${e.cause?.message ?? e.cause?.code ?? e.message}`;
}

/**
 * POST one callback. Success is a 2xx within `timeoutMs`; a redirect is never followed and counts as
 * a failure (docs/design.md#callbacks); only the first 2 KiB of the answer are read.
 */
export async function sendCallback(
  fetchFn: typeof fetch,
  req: CallbackRequest,
  opts: { timeoutMs: number; stop?: AbortSignal; nowMs: () => number },
): Promise<CallbackOutcome> {
  const t0 = opts.nowMs();
  const timeout = AbortSignal.timeout(opts.timeoutMs);
  const signal = opts.stop ? AbortSignal.any([timeout, opts.stop]) : timeout;
  const took = () => Math.round((opts.nowMs() - t0) * 1000) / 1000;
  let res: Response;
  try {
    res = await fetchFn(req.url, {
      method: 'POST',
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
      signal,
    });
  } catch (err) {
    return {
      delivered: false,
      statusCode: null,
      excerpt: null,
      error: describeFailure(err, timeout.aborted, opts.timeoutMs),
      durationMs: took(),
    };
  }
  const excerpt = await readExcerpt(res);
  const status = res.status;
  let error: string | null = null;
  if (res.type === 'opaqueredirect' || status === 0)
    error = 'redirect not followed (redirects count as failures)';
  else if (status >= 300 && status < 400) {
    const to = res.headers.get('location');
    error = `redirect ${status}${to ? ` to ${to}` : ''} not followed (redirects count as failures)`;
  } else if (status < 200 || status >= 300) error = `receiver answered ${status}`;
  return {
    delivered: error === null,
    statusCode: status === 0 ? null : status,
    excerpt,
    error,
    durationMs: took(),
  };
}

/** An injected `fetch` (tests) as a transport: exactly `sendCallback`, aborted by `close` (it cannot pin an address). */
export function fetchTransport(
  fetchFn: () => typeof fetch,
  nowMs: () => number,
): CallbackTransport {
  const stop = new AbortController();
  return {
    send: (req, timeoutMs) => sendCallback(fetchFn(), req, { timeoutMs, stop: stop.signal, nowMs }),
    close: () => stop.abort(),
  };
}
