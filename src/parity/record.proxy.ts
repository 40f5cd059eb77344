import { trimEnd } from '../shared/trim.js';
import { renameSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { HmacSigner } from '../client/hmac.signer.js';
import type { HarEntry, HarHeader, HarLog } from './har.js';
import { scrubBody, scrubHeaders, scrubParams, type ScrubOptions } from './scrub.js';

export interface RecorderOptions {
  /** Scheme, host, port (and base path) of the service recorded. */
  upstream: string;
  out: string;
  port: number;
  host?: string;
  maskPii: boolean;
  /** Re-sign HMAC requests for the upstream URL (the app signed the proxy's URL). */
  signer?: HmacSigner;
  /** Milliseconds since the epoch, for `startedDateTime` (injected in tests). */
  now?: () => number;
  fetch?: typeof fetch;
  version: string;
}

export interface Recorder {
  url: string;
  entries: HarEntry[];
  close(): Promise<void>;
}

// Not forwarded: hop-by-hop headers, and the body framing and encoding fetch redoes.
const HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'accept-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);
const HMAC_HEADERS = /^access[-_](key|signature|nonce)$/i;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

const harHeaders = (h: Iterable<[string, string]>): HarHeader[] =>
  [...h].map(([name, value]) => ({ name, value }));

/**
 * A recording proxy (`paysandbox record`): every request is forwarded to the upstream and the exchange
 * appended to a HAR 1.2 file, secrets scrubbed (README, "Parity with the real service"). The file is rewritten
 * after each exchange, so it is complete whenever the proxy stops.
 */
export async function startRecorder(o: RecorderOptions): Promise<Recorder> {
  const upstream = new URL(o.upstream);
  const base = trimEnd(upstream.href, '/');
  const doFetch = o.fetch ?? fetch;
  const now = o.now ?? Date.now;
  const entries: HarEntry[] = [];
  const write = () => {
    const har: HarLog = {
      log: {
        version: '1.2',
        creator: { name: 'paysandbox record', version: o.version },
        comment: `recorded from ${upstream.origin}`,
        entries,
      },
    };
    writeFileSync(`${o.out}.tmp`, `${JSON.stringify(har, null, 2)}\n`);
    renameSync(`${o.out}.tmp`, o.out);
  };
  write();
  const server: Server = createServer((req, res) => {
    void (async () => {
      const started = now();
      const body = await readBody(req);
      const target = `${base}${req.url ?? '/'}`;
      const headers = new Headers();
      for (const [k, v] of Object.entries(req.headers)) {
        if (HOP.has(k) || v === undefined) continue;
        if (o.signer && HMAC_HEADERS.test(k)) continue;
        headers.set(k, Array.isArray(v) ? v.join(', ') : v);
      }
      // Where the app sent the request: an upstream sandbox started with --trust-proxy verifies signatures against it.
      if (!headers.has('x-forwarded-host') && req.headers.host)
        headers.set('x-forwarded-host', req.headers.host);
      if (!headers.has('x-forwarded-proto')) headers.set('x-forwarded-proto', 'http');
      const hmac = Object.keys(req.headers).some((k) => /^access[-_]signature$/i.test(k));
      if (o.signer && hmac)
        for (const [k, v] of Object.entries(o.signer.sign(target, body))) headers.set(k, v);
      const method = req.method ?? 'GET';
      let upstreamRes: Response;
      try {
        upstreamRes = await doFetch(target, {
          method,
          headers,
          body: ['GET', 'HEAD'].includes(method) ? undefined : new Uint8Array(body),
          redirect: 'manual',
        });
      } catch (err) {
        const message = `paysandbox record: the upstream did not answer: ${(err as Error).message}`;
        res
          .writeHead(502, { 'content-type': 'application/json' })
          .end(JSON.stringify({ errors: { non_field_errors: [message] } }));
        return;
      }
      const answer = Buffer.from(await upstreamRes.arrayBuffer());
      const resHeaders: Record<string, string> = {};
      upstreamRes.headers.forEach((v, k) => {
        if (!HOP.has(k) && k !== 'content-encoding') resHeaders[k] = v;
      });
      res.writeHead(upstreamRes.status, resHeaders).end(answer);
      const reqType = req.headers['content-type'] ?? '';
      const resType = upstreamRes.headers.get('content-type') ?? '';
      const rq: ScrubOptions = { maskPii: o.maskPii, side: 'request' };
      const rs: ScrubOptions = { maskPii: o.maskPii, side: 'response' };
      const url = new URL(target);
      url.search = url.search ? `?${scrubParams(url.search.slice(1), rq)}` : '';
      const sent = Object.entries(req.headers).flatMap(([k, v]) =>
        v === undefined || HOP.has(k) ? [] : [[k, String(v)] as [string, string]],
      );
      const reqHeaders = harHeaders(sent);
      entries.push({
        startedDateTime: new Date(started).toISOString(),
        time: now() - started,
        request: {
          method,
          url: url.href,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: scrubHeaders(reqHeaders, rq),
          queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
          ...(body.length
            ? {
                postData: {
                  mimeType: reqType,
                  text: scrubBody(body.toString('utf8'), reqType, rq),
                },
              }
            : {}),
          headersSize: -1,
          bodySize: body.length,
        },
        response: {
          status: upstreamRes.status,
          statusText: upstreamRes.statusText,
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: scrubHeaders(harHeaders(Object.entries(resHeaders)), rs),
          content: {
            size: answer.length,
            mimeType: resType,
            text: scrubBody(answer.toString('utf8'), resType, rs),
          },
          redirectURL: upstreamRes.headers.get('location') ?? '',
          headersSize: -1,
          bodySize: answer.length,
        },
        cache: {},
        timings: { send: 0, wait: now() - started, receive: 0 },
        comment: `paysandbox record, ${upstream.origin}`,
        _evidence: 'recorded',
      });
      write();
    })().catch((err: Error) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ errors: { non_field_errors: [`paysandbox record: ${err.message}`] } }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host ?? '127.0.0.1', resolve);
  });
  const addr = server.address() as AddressInfo;
  return {
    url: `http://${addr.address}:${addr.port}`,
    entries,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
