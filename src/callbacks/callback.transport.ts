import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { LookupFunction } from 'node:net';
import type { Merchant } from '../identities/identities.api.js';
import type { PinnedAddress } from './callback-target.guard.js';

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

/** Whether the merchant token goes with a callback to `url` (docs/design.md#callbacks, merchant `callback_auth`). */
export function sendsToken(mode: Merchant['callback_auth'], url: string): boolean {
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
  merchant: Pick<Merchant, 'callback_auth' | 'merchant_api_token'>,
  url: string,
  attempt: number,
): CallbackRequest {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'User-Agent': USER_AGENT,
    'X-Sandbox-Event-Id': delivery.event_id,
    'X-Sandbox-Delivery-Attempt': String(attempt),
  };
  if (sendsToken(merchant.callback_auth, url))
    headers.Authorization = `Token ${merchant.merchant_api_token}`;
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

/**
 * How the dispatcher sends one attempt; `close` ends every request still running (the sandbox stops).
 * `pinned`: the address the private-callback guard checked; the connection goes there and nowhere else.
 */
export interface CallbackTransport {
  send(req: CallbackRequest, timeoutMs: number, pinned?: PinnedAddress): Promise<CallbackOutcome>;
  close(): void;
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

interface Target {
  https: boolean;
  hostname: string;
  port: string;
  path: string;
}

const decoder = new TextDecoder();
const REDIRECT_NOT_FOLLOWED = 'redirects count as failures';

/** What `sendCallback` makes of a status: null for a 2xx, else the logged error. */
function statusError(status: number, location: string | undefined): string | null {
  if (status >= 300 && status < 400)
    return `redirect ${status}${location ? ` to ${location}` : ''} not followed (${REDIRECT_NOT_FOLLOWED})`;
  if (status < 200 || status >= 300) return `receiver answered ${status}`;
  return null;
}

/**
 * A `lookup` for node:net that answers with the checked address whatever the name, in both shapes
 * net asks for (one address, or `all: true` for happy-eyeballs). A pooled keep-alive socket may still
 * be reused for the same host and port: it was itself connected to an address checked before.
 */
function pinnedLookup(pinned: PinnedAddress): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: pinned.address, family: pinned.family }]);
    else callback(null, pinned.address, pinned.family);
  }) as unknown as LookupFunction;
}

/**
 * Callbacks over node:http/node:https with keep-alive agents (one connection pool per transport):
 * the same request and the same outcome as `sendCallback` over the global fetch, at a fraction of its
 * CPU (undici's fetch builds a WHATWG Request, Response, web streams and two AbortSignals per call;
 * it was the largest single cost of a delivery: ~600 µs of CPU per callback in bench/scenarios/callbacks.ts).
 *
 * Same semantics as `sendCallback`: POST of the body bytes with the given headers (plus the
 * `Content-Length` and `Accept: *\/*` fetch sends), success is a 2xx within `timeoutMs`, redirects are
 * never followed, only the first 2 KiB of the answer are read (decoded as fetch would: gzip, deflate and
 * br bodies are inflated, a UTF-8 BOM dropped); the timeout covers the answer's head, and a body still
 * arriving when it hits keeps what arrived (the status decides).
 */
export function createHttpTransport(opts: {
  nowMs: () => number;
  maxSockets?: number;
}): CallbackTransport {
  const agentOptions = {
    keepAlive: true,
    scheduling: 'lifo' as const,
    timeout: 5000,
    maxSockets: opts.maxSockets ?? Infinity,
  };
  const httpAgent = new HttpAgent(agentOptions);
  const httpsAgent = new HttpsAgent(agentOptions);
  const active = new Set<ClientRequest>();
  // A merchant's callback URL is parsed once, not once per attempt (bounded: URLs change rarely).
  const targets = new Map<string, Target>();
  let closed = false;

  function target(url: string): Target {
    let t = targets.get(url);
    if (!t) {
      const u = new URL(url);
      t = {
        https: u.protocol === 'https:',
        hostname: u.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: u.port,
        path: `${u.pathname}${u.search}`,
      };
      if (targets.size >= 1000) targets.clear();
      targets.set(url, t);
    }
    return t;
  }

  function send(
    req: CallbackRequest,
    timeoutMs: number,
    pinned: PinnedAddress | undefined,
  ): Promise<CallbackOutcome> {
    const t0 = opts.nowMs();
    const took = () => Math.round((opts.nowMs() - t0) * 1000) / 1000;
    return new Promise<CallbackOutcome>((resolve) => {
      let settled = false;
      let timedOut = false;
      let res: IncomingMessage | undefined;
      const chunks: Buffer[] = [];
      let size = 0;

      // The answer is in (or the excerpt full, or the body broke off): the status decides.
      const answered = () => {
        if (settled || !res) return;
        settled = true;
        clearTimeout(timer);
        active.delete(r);
        const status = res.statusCode ?? 0;
        const buf = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
        const excerpt = decoder.decode(buf.subarray(0, EXCERPT_BYTES));
        const error = statusError(status, res.headers.location);
        resolve({
          delivered: error === null,
          statusCode: status,
          excerpt,
          error,
          durationMs: took(),
        });
        // The rest of a long answer is never read: drop the connection rather than drain it.
        if (!res.complete) r.destroy();
      };
      const failed = (err: Error) => {
        if (settled) return;
        if (res) return answered(); // the head arrived: keep what came, as fetch's excerpt reader does
        settled = true;
        clearTimeout(timer);
        active.delete(r);
        const error = timedOut
          ? `timeout: no answer within ${timeoutMs} ms`
          : closed
            ? 'aborted: the sandbox stopped during this attempt'
            : `connection failed: ${err.message || (err as NodeJS.ErrnoException).code}`;
        resolve({ delivered: false, statusCode: null, excerpt: null, error, durationMs: took() });
      };

      const target_ = target(req.url);
      const headers: Record<string, string | number> = {
        Accept: '*/*',
        ...req.headers,
        'Content-Length': Buffer.byteLength(req.body),
      };
      const r = (target_.https ? httpsRequest : httpRequest)(
        {
          method: 'POST',
          hostname: target_.hostname,
          port: target_.port || undefined,
          path: target_.path,
          headers,
          agent: target_.https ? httpsAgent : httpAgent,
          // The name stays in Host and TLS SNI/certificate checks; only the address is fixed.
          ...(pinned ? { lookup: pinnedLookup(pinned) } : {}),
        },
        (incoming) => {
          res = incoming;
          const coding = (incoming.headers['content-encoding'] ?? '').trim().toLowerCase();
          const inflate =
            coding === 'gzip' || coding === 'x-gzip'
              ? createGunzip()
              : coding === 'deflate'
                ? createInflate()
                : coding === 'br'
                  ? createBrotliDecompress()
                  : null;
          // A broken-off answer keeps what arrived (fetch's excerpt reader does the same).
          incoming.on('error', answered);
          incoming.on('aborted', answered);
          if (inflate) {
            inflate.on('error', answered);
            inflate.on('close', answered);
            incoming.pipe(inflate);
          }
          // Without inflation the answer ends with the message; with it, once the inflater is done.
          incoming.on('close', () => {
            if (!inflate || !incoming.complete) answered();
          });
          const body = inflate ?? incoming;
          body.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            size += chunk.length;
            if (size >= EXCERPT_BYTES) answered();
          });
          body.on('end', answered);
        },
      );
      active.add(r);
      const timer = setTimeout(() => {
        timedOut = true;
        if (res) answered();
        else failed(new Error('timeout'));
        r.destroy();
      }, timeoutMs);
      r.on('error', failed);
      r.end(req.body);
    });
  }

  return {
    send(req, timeoutMs, pinned) {
      if (closed)
        return Promise.resolve({
          delivered: false,
          statusCode: null,
          excerpt: null,
          error: 'aborted: the sandbox stopped during this attempt',
          durationMs: 0,
        });
      return send(req, timeoutMs, pinned);
    },
    close() {
      closed = true;
      for (const r of active) r.destroy();
      active.clear();
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}
