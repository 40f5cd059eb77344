import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as a handler under test sees it. */
export interface TestRequest {
  headers: IncomingHttpHeaders;
  body: string;
  eventId: string | undefined;
  event: { event: { name: string; data: Record<string, string> } } | null;
}

export interface TestAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering, like a handler doing its slow work first. */
  delayMs?: number;
}

export type TestHandler = (req: TestRequest) => TestAnswer;

/** A callback handler on 127.0.0.1 (port 0); `close` also drops connections a slow answer holds open. */
export async function startTestReceiver(handle: TestHandler) {
  const received: TestRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: TestRequest['event'] = null;
      try {
        event = JSON.parse(body) as TestRequest['event'];
      } catch {
        event = null;
      }
      const request: TestRequest = {
        headers: req.headers,
        body,
        eventId: req.headers['x-sandbox-event-id'] as string | undefined,
        event,
      };
      received.push(request);
      const answer = handle(request);
      const reply = () => {
        if (!res.destroyed)
          res
            .writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers })
            .end(answer.body ?? '');
      };
      if (!answer.delayMs) return reply();
      const timer = setTimeout(() => {
        timers.delete(timer);
        reply();
      }, answer.delayMs);
      timers.add(timer);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type TestReceiver = Awaited<ReturnType<typeof startTestReceiver>>;

/** The reference rule: exactly `Token <token>`, else 401. */
function authorized(req: TestRequest, token: string): boolean {
  return req.headers.authorization === `Token ${token}`;
}

/** A handler that takes any callback, token or not: the auth checks must fail it. */
export const acceptsAnyToken = (): TestHandler => () => ({ status: 200, body: 'OK' });

/** Checks the token but refuses an event id it has seen (409): not idempotent. */
export function refusesDuplicates(token: string): TestHandler {
  const seen = new Set<string>();
  return (req) => {
    if (!authorized(req, token)) return { status: 401, body: 'Unauthorized' };
    if (req.eventId && seen.has(req.eventId)) return { status: 409, body: 'already processed' };
    if (req.eventId) seen.add(req.eventId);
    return { status: 200, body: 'OK' };
  };
}

/** Checks the token but refuses an event that would move an invoice back from fully paid. */
export function refusesOlderEvents(token: string): TestHandler {
  const paid = new Set<string>();
  return (req) => {
    if (!authorized(req, token)) return { status: 401, body: 'Unauthorized' };
    const e = req.event?.event;
    if (e?.name === 'invoice.fully_paid') paid.add(e.data.id ?? '');
    else if (e && paid.has(e.data.id ?? '')) return { status: 409, body: 'invoice already paid' };
    return { status: 200, body: 'OK' };
  };
}

/** A correct handler that answers only after `delayMs`. */
export function answersAfter(token: string, delayMs: number): TestHandler {
  return (req) =>
    authorized(req, token)
      ? { status: 200, body: 'OK', delayMs }
      : { status: 401, body: 'Unauthorized', delayMs };
}

/** A correct handler on the wrong URL: every callback is redirected. */
export const redirects = (): TestHandler => () => ({
  status: 308,
  headers: { location: 'https://merchant.example/callbacks/' },
});
