import type { Context } from 'hono';
import type { AppEnv } from './operation.js';

/**
 * A request header, read from Node's parsed headers when the request came over a socket (cheaper
 * than building a fetch `Headers` for it), else from the Request (in-process `app.request`).
 */
export function headerReader(c: Context<AppEnv>): (name: string) => string | undefined {
  const headers = c.env?.incoming?.headers;
  if (!headers) return (name) => c.req.header(name);
  return (name) => {
    const v = headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  };
}

/**
 * The full URL the client used, for the HMAC message (docs/design.md#authentication): scheme, host and port, the path
 * exactly as sent (trailing slash included) and the raw query string. Behind a proxy the scheme and
 * host come from X-Forwarded-Proto/X-Forwarded-Host only when trustProxy is set.
 */
export function requestUrl(
  c: Context<AppEnv>,
  trustProxy: boolean,
  read = headerReader(c),
): string {
  const incoming = c.env?.incoming;
  let scheme: string;
  let host: string | undefined;
  let rawPath: string;
  if (incoming?.url !== undefined) {
    // Over a socket: the request line's target as sent; no URL parsing on the hot path.
    scheme = (incoming.socket as { encrypted?: boolean } | undefined)?.encrypted ? 'https' : 'http';
    host = read('host');
    rawPath = incoming.url;
    if (host === undefined) host = new URL(c.req.url).host;
  } else {
    const parsed = new URL(c.req.url);
    scheme = parsed.protocol.replace(/:$/, '');
    host = read('host') ?? parsed.host;
    rawPath = parsed.pathname + parsed.search;
  }
  if (trustProxy) {
    const proto = read('x-forwarded-proto')?.split(',')[0]?.trim();
    const fwdHost = read('x-forwarded-host')?.split(',')[0]?.trim();
    if (proto) scheme = proto;
    if (fwdHost) host = fwdHost;
  }
  return `${scheme}://${host}${rawPath}`;
}

/** The path as sent (percent-encoding and trailing slash kept), without the query; no URL parsing. */
export function rawPath(c: Context<AppEnv>): string {
  let target = c.env?.incoming?.url;
  if (target === undefined || target[0] !== '/') {
    const url = c.req.url; // absolute, as the Request normalized it
    const start = url.indexOf('/', url.indexOf('://') + 3);
    target = start < 0 ? '/' : url.slice(start);
  }
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/** The query string as sent (without `?`), or null when there is none; no URL parsing. */
export function rawQuery(c: Context<AppEnv>): string | null {
  const target = c.env?.incoming?.url ?? c.req.url;
  const q = target.indexOf('?');
  return q < 0 || q === target.length - 1 ? null : target.slice(q + 1);
}
