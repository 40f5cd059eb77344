import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  path: string;
  headers: IncomingHttpHeaders;
  text: string;
  /** Parsed JSON body, or undefined when it is not JSON. */
  body: unknown;
}

export interface CallbackReceiver {
  /** `http://127.0.0.1:<port>/callbacks/<label>`. */
  url: string;
  received: ReceivedCallback[];
  /** Resolves with the first callback that matches, or rejects after `timeoutMs` with what did arrive. */
  waitFor(match: (c: ReceivedCallback) => boolean, timeoutMs: number): Promise<ReceivedCallback>;
  close(): Promise<void>;
}

/**
 * A merchant callback endpoint on 127.0.0.1 that answers 200 `OK` and keeps every request,
 * for the lifecycle cases (docs/design.md#callbacks).
 */
export async function startCallbackReceiver(label: string): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      received.push({ path: req.url ?? '/', headers: req.headers, text, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
      for (const w of waiters) w();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks/${encodeURIComponent(label)}`,
    received,
    waitFor(match, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const hit = received.find(match);
          if (!hit) return;
          cleanup();
          resolve(hit);
        };
        const timer = setTimeout(() => {
          cleanup();
          const names = received.map(
            (c) =>
              (c.body as { event?: { name?: string } } | undefined)?.event?.name ??
              c.text.slice(0, 40),
          );
          reject(
            new Error(
              `no matching callback within ${timeoutMs} ms; received ${received.length}: ${JSON.stringify(names)}`,
            ),
          );
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
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
