import { connect } from 'node:net';
import fc from 'fast-check';
import { send } from './fuzz.request.js';
import type { FuzzWorld } from './fuzz.world.js';

/**
 * Requests written byte for byte on a socket, for what an HTTP client will not send: encoded dot
 * segments (`%2e%2e`, which URL parsers resolve before sending) and broken framing.
 */
export interface RawCase {
  surface: string;
  text: string;
  /** A route that must not be reached through a dot segment: the answer must be 404. */
  expect404: boolean;
}

const DOTS = ['%2e%2e', '%2E%2E', '.%2e', '%2e.', '%252e%252e'];

export function rawCase(world: FuzzWorld): fc.Arbitrary<RawCase> {
  const host = new URL(world.baseUrl).host;
  const auth = `Authorization: ${world.merchantTokens[0]}\r\nX-Sandbox-Token: ${world.controlToken}\r\n`;
  const head = (line: string, extra = '') =>
    `${line}\r\nHost: ${host}\r\n${auth}${extra}Connection: close\r\n\r\n`;
  return fc.oneof(
    // `/v3/invoices/x/%2e%2e/` must not become the list at `/v3/invoices/`.
    fc
      .tuple(
        fc.constantFrom(...DOTS),
        fc.constantFrom(
          '/v3/invoices/x/{d}/',
          '/v1/invoices/{d}/x',
          '/_sandbox/x/{d}/clock',
          '/healthz/{d}/v3/invoices/',
        ),
      )
      .map(([d, path]) => ({
        surface: 'raw: encoded dot segment',
        text: head(`GET ${path.replace('{d}', d)} HTTP/1.1`),
        expect404: true,
      })),
    fc
      .constantFrom(
        head(
          'POST /v1/invoices/ HTTP/1.1',
          'Content-Type: application/json\r\nContent-Length: 40\r\n',
        ) + '{"amount":',
        head(
          'POST /v1/invoices/ HTTP/1.1',
          'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n',
        ) + 'zz\r\n{}\r\n0\r\n\r\n',
        head(
          'POST /v1/invoices/ HTTP/1.1',
          'Content-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n',
        ) + '2\r\n{}\r\n0\r\n\r\n',
        head(
          'POST /_sandbox/clock/advance HTTP/1.1',
          'Content-Type: application/json\r\nContent-Length: -1\r\n',
        ) + '{}',
        head('GET /v3/invoices/?page=1 HTTP/1.1', 'X-Bad: a\u0000b\r\n'),
        head('GET /healthz HTTP/1.1', 'Content-Length: 5\r\nContent-Length: 6\r\n'),
        head('BREW /healthz HTTP/1.1'),
        head('GET /' + 'x'.repeat(20_000) + ' HTTP/1.1'),
      )
      .map((text) => ({ surface: 'raw: broken framing', text, expect404: false })),
  );
}

/** Write the bytes, read until the server closes; the status of the first answer (0 if none). */
export function sendRaw(
  baseUrl: string,
  text: string,
  deadlineMs: number,
): Promise<{ status: number; head: string } | { hang: true }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    let data = '';
    const socket = connect(Number(port), hostname);
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ hang: true });
    }, deadlineMs);
    const done = () => {
      clearTimeout(timer);
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(data);
      resolve({ status: m ? Number(m[1]) : 0, head: data.slice(0, 200) });
    };
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      data += d;
      if (data.length > 8192) socket.destroy(); // enough to judge; the close ends the read
    });
    socket.once('close', done);
    socket.once('error', () => undefined); // a reset after the answer is fine; close follows
    socket.write(text);
    socket.end();
  });
}

/**
 * Send a raw case and judge the answer: no 5xx, a 404 where a dot segment must not route, and no
 * hang — a socket left open on a cut body is not a frozen server, so a silent socket counts as a
 * hang only when `/healthz` does not answer either.
 */
export async function judgeRaw(
  baseUrl: string,
  c: RawCase,
  deadlineMs: number,
): Promise<{ problems: string[]; hang: boolean; status?: number; head?: string }> {
  const res = await sendRaw(baseUrl, c.text, deadlineMs);
  if ('hang' in res) {
    const health = await send(
      { method: 'GET', url: `${baseUrl}/healthz`, headers: {} },
      deadlineMs,
    );
    const hang = 'hang' in health;
    return {
      problems: hang ? [`no answer within ${deadlineMs} ms, and /healthz neither (hang)`] : [],
      hang,
    };
  }
  const problems: string[] = [];
  if (res.status >= 500) problems.push(`server error ${res.status}`);
  if (c.expect404 && res.status !== 404)
    problems.push(`an encoded dot segment changed the route: ${res.status} instead of 404`);
  return { problems, hang: false, status: res.status, head: res.head };
}
