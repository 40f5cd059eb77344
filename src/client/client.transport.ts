import { trimEnd } from '../shared/trim.js';
import { PaySandboxApiError } from './client.errors.js';
import type { ApiResponse } from './client.transport.types.js';

export type { ApiResponse } from './client.transport.types.js';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestSpec {
  method: string;
  /** Path under the base URL, exactly as it should be sent (trailing slash included). */
  path: string;
  query?: Record<string, QueryValue>;
  /** Serialized once with JSON.stringify; those exact bytes are signed and sent. */
  body?: unknown;
  /** Sent as is (takes precedence over `body`). */
  rawBody?: string;
  headers?: Record<string, string>;
  operationId?: string;
}

/** Headers that depend on the exact URL and body of one attempt (HMAC signs each attempt anew). */
export type Authorizer = (url: string, body: string) => Record<string, string>;

export interface RetryOptions {
  /** Repeats after a 429 or 503 that carries Retry-After (default 2). */
  retries?: number;
  /** Give up (return the 429/503) when Retry-After asks for longer than this (default 30 s). */
  maxWaitMs?: number;
}

export interface TransportOptions {
  baseUrl: string;
  /** Default the global fetch (Node 20). */
  fetch?: typeof fetch;
  /** Called with every final response (logging, contract checks). */
  onResponse?: (res: ApiResponse) => void | Promise<void>;
  /** Honour Retry-After on 429/503; `false` turns repeats off. */
  retry?: RetryOptions | false;
  /** Per attempt (default 30 s). */
  timeoutMs?: number;
  /** Sent with every request. */
  headers?: Record<string, string>;
}

export interface Transport {
  readonly baseUrl: string;
  /** The full URL of a path and query, as it will be sent. */
  url(path: string, query?: Record<string, QueryValue>): string;
  send<T = unknown>(spec: RequestSpec, authorize?: Authorizer): Promise<ApiResponse<T>>;
}

/**
 * A Retry-After value (seconds or an HTTP date) → milliseconds to wait, or undefined.
 *
 * @example
 * retryAfterMs('2'); // 2000
 * retryAfterMs('Wed, 21 Oct 2026 07:28:00 GMT'); // ms until then (0 if past)
 */
export function retryAfterMs(value: string | null, nowMs = Date.now()): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/**
 * The full URL of a request, serialized the way fetch sends it (so it is also the URL to sign).
 *
 * @example
 * buildUrl('http://127.0.0.1:7070', '/v3/transfers', { page: 2, per_page: 20 }); // 'http://127.0.0.1:7070/v3/transfers?page=2&per_page=20'
 */
export function buildUrl(
  baseUrl: string,
  path: string,
  query?: Record<string, QueryValue>,
): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {}))
    if (v !== undefined && v !== null) qs.append(k, String(v));
  const q = qs.toString();
  // WHATWG serialization is what fetch sends on the wire, so this is also the URL to sign.
  return new URL(
    `${trimEnd(baseUrl, '/')}${path.startsWith('/') ? path : `/${path}`}${q ? `?${q}` : ''}`,
  ).href;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The HTTP layer of the clients: serializes the body once, lets an authorizer sign the exact URL and
 * bytes of each attempt, parses the answer, honours Retry-After on 429/503 (bounded).
 *
 * @example
 * const t = createTransport({ baseUrl: 'http://127.0.0.1:7070' });
 * const res = await t.send({ method: 'GET', path: '/healthz' });
 * res.status; // 200
 */
export function createTransport(opts: TransportOptions): Transport {
  const doFetch = opts.fetch ?? globalThis.fetch;
  const retry =
    opts.retry === false
      ? { retries: 0, maxWaitMs: 0 }
      : { retries: 2, maxWaitMs: 30_000, ...opts.retry };
  const timeoutMs = opts.timeoutMs ?? 30_000;

  async function attempt<T>(
    spec: RequestSpec,
    url: string,
    body: string | undefined,
    authorize?: Authorizer,
    n = 1,
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...opts.headers,
      ...spec.headers,
    };
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['content-type'] = 'application/json';
    Object.assign(headers, authorize?.(url, body ?? ''));
    const res = await doFetch(url, {
      method: spec.method,
      headers,
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    const wait =
      res.status === 429 || res.status === 503
        ? retryAfterMs(res.headers.get('retry-after'))
        : undefined;
    if (wait !== undefined && n <= retry.retries && wait <= retry.maxWaitMs) {
      await sleep(wait);
      return attempt(spec, url, body, authorize, n + 1);
    }
    return {
      operationId: spec.operationId,
      method: spec.method,
      url,
      status: res.status,
      headers: res.headers,
      text,
      body: parsed as T,
      request: { headers, body },
      attempts: n,
    };
  }

  return {
    baseUrl: opts.baseUrl,
    url: (path, query) => buildUrl(opts.baseUrl, path, query),
    async send<T>(spec: RequestSpec, authorize?: Authorizer) {
      const url = buildUrl(opts.baseUrl, spec.path, spec.query);
      const body =
        spec.rawBody ?? (spec.body !== undefined ? JSON.stringify(spec.body) : undefined);
      const res = await attempt<T>(spec, url, body, authorize);
      await opts.onResponse?.(res as ApiResponse);
      return res;
    },
  };
}

/**
 * The body of a 2xx response, or a {@link PaySandboxApiError}.
 *
 * @example
 * const { invoice } = unwrap<{ invoice: Invoice }>(await merchant.request({ method: 'GET', path: `/v1/invoices/${id}` }));
 */
export function unwrap<T>(res: ApiResponse): T {
  if (res.status < 200 || res.status >= 300) throw new PaySandboxApiError(res);
  return res.body as T;
}
