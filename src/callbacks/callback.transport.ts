import {
  Agent as HttpAgent,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
} from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { LookupFunction } from 'node:net';
import type { PinnedAddress } from './callback-target.guard.js';
import {
  EXCERPT_BYTES,
  type CallbackOutcome,
  type CallbackRequest,
  type CallbackTransport,
} from './callback.request.js';

// The request of an attempt and the fetch transport live beside this one; importers keep one path.
export {
  buildCallbackRequest,
  EXCERPT_BYTES,
  sendsToken,
  USER_AGENT,
  type CallbackOutcome,
  type CallbackRequest,
  type CallbackTransport,
} from './callback.request.js';
export { fetchTransport, sendCallback } from './callback.fetch-transport.js';

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
