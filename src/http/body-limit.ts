import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { AppEnv } from './operation.js';
import { headerReader } from './request-url.js';

/** The largest request body accepted (413 past it). */
export const MAX_BODY_BYTES = 64 * 1024;
/** An imported snapshot document (`POST /_sandbox/snapshots`) may be larger: a whole workspace's state. */
export const MAX_IMPORT_BYTES = 8 * 1024 * 1024;
const LARGE_BODY_PATH = /^\/_sandbox\/snapshots\/?$/;

/** The body limit of a request path. */
export const bodyLimitOf = (path: string) =>
  LARGE_BODY_PATH.test(path) ? MAX_IMPORT_BYTES : MAX_BODY_BYTES;

// Requests whose size was judged on their Content-Length (nothing wraps their body).
const DECLARED_LENGTH = new WeakSet<object>();

/**
 * The raw request body. Over a socket, with a Content-Length judged by `cheapBodyLimit`, the bytes are
 * read straight from Node's request: building a WHATWG Request and a web stream for them costs more
 * than the rest of a small POST's parsing. Otherwise (chunked bodies under Hono's counting limit,
 * in-process `app.request`) through the Request, as Hono reads it.
 */
export async function readBody(c: Context<AppEnv>): Promise<Buffer> {
  const incoming = c.env?.incoming;
  if (!incoming || !DECLARED_LENGTH.has(c) || incoming.readableDidRead)
    return Buffer.from(await c.req.arrayBuffer());
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    incoming.once('error', reject);
  });
}

/**
 * The body of a GET or DELETE, when the client sent one (a Content-Length above 0, or chunked). Some
 * public clients of the real service send a JSON body with their signed GETs and sign over it, so the
 * signature check needs those bytes; nothing else reads them. A WHATWG Request carries no GET body,
 * so the bytes come from Node's request (in-process `app.request` cannot send one at all).
 * At most `maxSize` bytes: past that, `onTooLarge` is thrown.
 */
export async function readBodilessMethodBody(
  c: Context<AppEnv>,
  maxSize: number,
  onTooLarge: () => Error,
): Promise<Buffer | undefined> {
  const incoming = c.env?.incoming;
  if (!incoming || incoming.readableDidRead) return undefined;
  const read = headerReader(c);
  const length = read('content-length');
  if (read('transfer-encoding') === undefined && (length === undefined || length === '0'))
    return undefined;
  if (length !== undefined && parseInt(length, 10) > maxSize) throw onTooLarge();
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    incoming.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxSize) {
        incoming.pause();
        reject(onTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    incoming.once('end', () => resolve(Buffer.concat(chunks)));
    incoming.once('error', reject);
  });
}

/**
 * Hono's `bodyLimit`, without its cost on requests that cannot be too large. Reading `c.req.raw.body`
 * (its first step) makes @hono/node-server build a full WHATWG Request for every request, GETs
 * included, and then the body is read through a web stream instead of straight from the socket.
 * Same answers: a GET or HEAD has no body (Hono's middleware lets it through), and a declared
 * `Content-Length` without `Transfer-Encoding` is judged on the header, as Hono does; anything else
 * (chunked uploads, in-process `app.request` bodies) goes through Hono's counting middleware.
 *
 * @example
 * app.use('*', cheapBodyLimit(() => 64 * 1024, (c) => c.json({ error: 'too large' }, 413)))
 */
export function cheapBodyLimit<E extends { Variables: object }>(
  limitOf: (path: string) => number,
  onError: (c: Context<E>) => Response | Promise<Response>,
): MiddlewareHandler<E> {
  const countingBy = new Map<number, MiddlewareHandler<E>>();
  const countingFor = (maxSize: number) => {
    let m = countingBy.get(maxSize);
    if (!m)
      countingBy.set(
        maxSize,
        (m = bodyLimit({
          maxSize,
          onError: onError as (c: Context) => Response | Promise<Response>,
        }) as unknown as MiddlewareHandler<E>),
      );
    return m;
  };
  return (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const maxSize = limitOf(c.req.path);
    const counting = countingFor(maxSize);
    const read = headerReader(c as unknown as Context<AppEnv>);
    const length = read('content-length');
    if (length !== undefined && read('transfer-encoding') === undefined) {
      if (parseInt(length || '0', 10) > maxSize) return Promise.resolve(onError(c));
      // Judged on the header: the body may be read straight from the socket (see `readBody`).
      DECLARED_LENGTH.add(c);
      return next();
    }
    return counting(c, next);
  };
}
