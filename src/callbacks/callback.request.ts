import type { MerchantRow } from '../identities/identities.repo.js';

/** Bytes of a receiver's answer kept in the delivery log; the rest is never read. */
export const EXCERPT_BYTES = 2048;
export const USER_AGENT = 'paysandbox-callbacks/1';

export interface CallbackRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface CallbackOutcome {
  /** A 2xx within the timeout. */
  delivered: boolean;
  statusCode: number | null;
  excerpt: string | null;
  error: string | null;
  durationMs: number;
}

/** Whether the merchant token goes with a callback to `url` (sandbox.md §7, merchant `callback_auth`). */
export function sendsToken(mode: MerchantRow['callback_auth'], url: string): boolean {
  if (mode === 'always') return true;
  if (mode === 'never') return false;
  return /^https:/i.test(url);
}

/**
 * The request of one attempt: the stored event body byte for byte, and the headers the real service
 * sends (Content-Type, the `Token` when due) plus the sandbox's event id (stable across attempts and
 * redeliveries, for the receiver's de-duplication) and attempt number.
 */
export function buildCallbackRequest(
  delivery: { event_id: string; body: string },
  merchant: Pick<MerchantRow, 'callback_auth' | 'merchant_api_token'>,
  url: string,
  attempt: number,
): CallbackRequest {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Sandbox-Event-Id': delivery.event_id,
    'X-Sandbox-Delivery-Attempt': String(attempt),
  };
  if (sendsToken(merchant.callback_auth, url)) headers.Authorization = `Token ${merchant.merchant_api_token}`;
  return { url, headers, body: delivery.body };
}

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
 * a failure (sandbox.md §7); only the first 2 KiB of the answer are read.
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
    res = await fetchFn(req.url, { method: 'POST', headers: req.headers, body: req.body, redirect: 'manual', signal });
  } catch (err) {
    return { delivered: false, statusCode: null, excerpt: null, error: describeFailure(err, timeout.aborted, opts.timeoutMs), durationMs: took() };
  }
  const excerpt = await readExcerpt(res);
  const status = res.status;
  let error: string | null = null;
  if (res.type === 'opaqueredirect' || status === 0) error = 'redirect not followed (redirects count as failures)';
  else if (status >= 300 && status < 400) {
    const to = res.headers.get('location');
    error = `redirect ${status}${to ? ` to ${to}` : ''} not followed (redirects count as failures)`;
  } else if (status < 200 || status >= 300) error = `receiver answered ${status}`;
  return { delivered: error === null, statusCode: status === 0 ? null : status, excerpt, error, durationMs: took() };
}
