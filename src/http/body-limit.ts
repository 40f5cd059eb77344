import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * Hono's `bodyLimit`, without its cost on requests that cannot be too large. Reading `c.req.raw.body`
 * (its first step) makes @hono/node-server build a full WHATWG Request for every request, GETs
 * included, and then the body is read through a web stream instead of straight from the socket.
 * Same answers: a GET or HEAD has no body (Hono's middleware lets it through), and a declared
 * `Content-Length` without `Transfer-Encoding` is judged on the header, as Hono does; anything else
 * (chunked uploads, in-process `app.request` bodies) goes through Hono's counting middleware.
 *
 * @example
 * app.use('*', cheapBodyLimit(64 * 1024, (c) => c.json({ error: 'too large' }, 413)))
 */
export function cheapBodyLimit<E extends { Variables: object }>(
  maxSize: number,
  onError: (c: Context<E>) => Response | Promise<Response>,
): MiddlewareHandler<E> {
  const counting = bodyLimit({ maxSize, onError: onError as (c: Context) => Response | Promise<Response> }) as unknown as MiddlewareHandler<E>;
  return (c, next) => {
    const method = c.req.method;
    if (method === 'GET' || method === 'HEAD') return next();
    const length = c.req.header('content-length');
    if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
      return parseInt(length || '0', 10) > maxSize ? Promise.resolve(onError(c)) : next();
    }
    return counting(c, next);
  };
}
