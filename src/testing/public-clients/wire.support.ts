import { createHmac } from 'node:crypto';
import { request } from 'node:http';

export interface WireResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON (as a client's `json: true` would). */
  body: T;
}

/**
 * One HTTP/1.1 request sent exactly as given: the header names keep their spelling (`ACCESS_KEY` with
 * underscores), and a GET may carry a body (fetch() refuses that; some public clients do it). Bounded
 * in time so that a hung server fails the test instead of holding it.
 */
export function sendRaw(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string,
): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const all = { ...headers };
    if (body !== undefined) all['content-length'] = String(Buffer.byteLength(body));
    const req = request(url, { method, headers: all, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within 10 s`)));
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

let lastMs = 0;
/**
 * Wait until the wall clock has moved past the millisecond of the previous call. The clients build
 * their nonce from the current time (ms, µs or seconds × 1e8 at ms resolution), so two calls within
 * one millisecond would send the same nonce and the second would be refused, on the real service too;
 * a script calls one after the other over the network, which never happens that fast.
 */
export async function nextMillisecond(): Promise<number> {
  while (Date.now() <= lastMs) await new Promise((r) => setTimeout(r, 1));
  lastMs = Date.now();
  return lastMs;
}

/** What an HMAC client is configured with. */
export interface Credentials {
  /** The server's base without a trailing slash (a script's `BASE_URL`). */
  base: string;
  key: string;
  secret: string;
}

/** The hex HMAC-SHA256 every client signs with. */
export const hmacHex = (secret: string, message: string) =>
  createHmac('sha256', secret).update(message).digest('hex');

/** A microsecond nonce, as the example scripts and the PHP client make it, never repeated. */
export const microsecondNonce = async () => String((await nextMillisecond()) * 1000);
