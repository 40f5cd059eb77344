import type { Context } from 'hono';
import type { AppEnv } from './operation.js';

/**
 * The full URL the client used, for the HMAC message (sandbox.md §3): scheme, host and port, the path
 * exactly as sent (trailing slash included) and the raw query string. Behind a proxy the scheme and
 * host come from X-Forwarded-Proto/X-Forwarded-Host only when trustProxy is set.
 */
export function requestUrl(c: Context<AppEnv>, trustProxy: boolean): string {
  const parsed = new URL(c.req.url);
  const rawPath = c.env?.incoming?.url ?? parsed.pathname + parsed.search;
  let scheme = parsed.protocol.replace(/:$/, '');
  let host = c.req.header('host') ?? parsed.host;
  if (trustProxy) {
    const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim();
    const fwdHost = c.req.header('x-forwarded-host')?.split(',')[0]?.trim();
    if (proto) scheme = proto;
    if (fwdHost) host = fwdHost;
  }
  return `${scheme}://${host}${rawPath}`;
}
