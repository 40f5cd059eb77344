import { request, type ClientRequest, type RequestOptions } from 'node:http';
import { afterEach, beforeEach } from 'vitest';
import { listen, type RunningServer } from '../server.js';
import type { TestApp } from './test-app.js';

/** Test support for tests over a real socket (imported by *.test.ts only). */

/**
 * For the calling describe: before each test, the test's app listens on a free loopback port and the
 * running server is handed to `use`; it stops after the test.
 */
export function listenPerTest(app: () => TestApp, use: (server: RunningServer) => void): void {
  let server: RunningServer | undefined;
  beforeEach(async () => {
    app().sandbox.config.port = 0;
    server = await listen(app().sandbox);
    use(server);
  });
  afterEach(() => server?.stop());
}

/** What came back over the socket: the status and the body as text. */
export interface SocketAnswer {
  status: number;
  body: string;
}

/**
 * One request with Node's client, which sends the target and the headers as given; `send` writes
 * the body, if any, and ends the request (by default it sends none).
 */
export function overSocket(
  url: string,
  options: RequestOptions,
  send: (req: ClientRequest) => void = (req) => req.end(),
): Promise<SocketAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, options, (res) => {
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    send(req);
  });
}
