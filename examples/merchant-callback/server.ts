/**
 * An example merchant callback receiver: the reference handler of the API documentation.
 * It compares the `Authorization: Token …` header with its own merchant token (401 on mismatch),
 * answers 200 `OK`, and prints every event.
 *
 *   npx tsx examples/merchant-callback/server.ts [--port 4040] [--path /callbacks] [--token T]
 *                                               [--require-token] [--fail-first N]
 */
import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

export interface ReceivedCallback {
  headers: IncomingHttpHeaders;
  body: string;
  /** The parsed body, or null when it was not JSON. */
  event: { event: { name: string; data: Record<string, string> } } | null;
  eventId: string | undefined;
  attempt: string | undefined;
  /** The status this receiver answered (set once answered). */
  status?: number;
  duplicate: boolean;
}

/** A scripted answer (tests and demos): a status and body, or never answer at all. */
export interface ScriptedAnswer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  hang?: boolean;
}

export interface ReceiverOptions {
  /** The merchant's `merchant_api_token`. */
  token: string;
  host?: string;
  port?: number;
  path?: string;
  /**
   * Refuse a callback without a token too. The real service sends the token only to https URLs, so
   * by default a callback without one is accepted (a plain-http receiver should then confirm the
   * payment with GET /v1/invoices/{id}); a wrong token is always refused.
   */
  requireToken?: boolean;
  /** Answer 500 to the first N callbacks, to watch the retries. */
  failFirst?: number;
  /** Override the answer to a callback (return undefined for the reference behaviour). */
  respond?: (cb: ReceivedCallback) => ScriptedAnswer | undefined;
  log?: (line: string) => void;
}

const MAX_BODY = 1024 * 1024;

function tokenMatches(header: string, token: string): boolean {
  const expected = Buffer.from(`Token ${token}`);
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Start the receiver; `received` lists every callback in arrival order. */
export async function startMerchantReceiver(opts: ReceiverOptions) {
  const path = opts.path ?? '/callbacks';
  const log = opts.log ?? (() => undefined);
  const received: ReceivedCallback[] = [];
  const seen = new Set<string>();
  const listeners = new Set<() => void>();
  let failuresLeft = opts.failFirst ?? 0;

  function reference(cb: ReceivedCallback): ScriptedAnswer {
    const auth = cb.headers.authorization;
    if (auth !== undefined ? !tokenMatches(auth, opts.token) : opts.requireToken)
      return { status: 401, body: 'Unauthorized' };
    if (!cb.event?.event?.name) return { status: 400, body: 'Bad Request' };
    if (failuresLeft > 0) {
      failuresLeft -= 1;
      return { status: 500, body: 'Internal Server Error (--fail-first)' };
    }
    return { status: 200, body: 'OK' };
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://receiver');
    if (req.method !== 'POST' || url.pathname !== path) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: ReceivedCallback['event'] = null;
      try {
        event = JSON.parse(body) as ReceivedCallback['event'];
      } catch {
        event = null;
      }
      const eventId = req.headers['x-sandbox-event-id'] as string | undefined;
      const cb: ReceivedCallback = {
        headers: req.headers,
        body,
        event,
        eventId,
        attempt: req.headers['x-sandbox-delivery-attempt'] as string | undefined,
        duplicate: eventId !== undefined && seen.has(eventId),
      };
      received.push(cb);
      const answer = opts.respond?.(cb) ?? reference(cb);
      if (answer.hang) return; // never answer: the sender's timeout has to act
      cb.status = answer.status ?? 200;
      // Idempotency: remember an event only once it was accepted, so a duplicate is reported as such.
      if (eventId && cb.status >= 200 && cb.status < 300) seen.add(eventId);
      const d = event?.event?.data;
      log(
        `${event?.event?.name ?? '(not an event)'} invoice=${d?.id ?? '-'} amount_received=${d?.amount_received ?? '-'} ` +
          `event_id=${eventId ?? '-'} attempt=${cb.attempt ?? '-'}${cb.duplicate ? ' (duplicate)' : ''} -> ${cb.status}`,
      );
      res
        .writeHead(cb.status, { 'content-type': 'text/plain', ...answer.headers })
        .end(answer.body ?? '');
      for (const l of [...listeners]) l();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 4040, opts.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = opts.host ?? '127.0.0.1';

  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}${path}`,
    port,
    received,
    /** Resolve once a callback (answered) matches, or reject after `timeoutMs`. */
    waitFor(
      match: (cb: ReceivedCallback) => boolean,
      timeoutMs = 10_000,
    ): Promise<ReceivedCallback> {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = received.find((cb) => cb.status !== undefined && match(cb));
          if (!hit) return;
          listeners.delete(check);
          clearTimeout(timer);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(`no matching callback within ${timeoutMs} ms (received ${received.length})`),
          );
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type MerchantReceiver = Awaited<ReturnType<typeof startMerchantReceiver>>;

/** The first fixture merchant's token, so the receiver works with a fresh sandbox out of the box. */
function fixtureToken(): string | undefined {
  try {
    const file = fileURLToPath(new URL('../../fixtures/sandbox.json', import.meta.url));
    return (
      JSON.parse(readFileSync(file, 'utf8')) as { merchants: Array<{ merchant_api_token: string }> }
    ).merchants[0]?.merchant_api_token;
  } catch {
    return undefined;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '4040' },
      host: { type: 'string', default: '127.0.0.1' },
      path: { type: 'string', default: '/callbacks' },
      token: { type: 'string' },
      'require-token': { type: 'boolean', default: false },
      'fail-first': { type: 'string', default: '0' },
    },
  });
  const token = values.token ?? process.env.MERCHANT_API_TOKEN ?? fixtureToken();
  if (!token) throw new Error('give the merchant token with --token or MERCHANT_API_TOKEN');
  const receiver = await startMerchantReceiver({
    token,
    host: values.host,
    port: Number(values.port),
    path: values.path,
    requireToken: values['require-token'],
    failFirst: Number(values['fail-first']),
    log: (line) => console.log(`[merchant] ${line}`),
  });
  console.log(`merchant callback receiver on ${receiver.url} (token ${token.slice(0, 4)}…)`);
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((err: Error) => {
    console.error(err.message);
    process.exit(1);
  });
}
