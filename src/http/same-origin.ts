import type { Context } from 'hono';
import type { AppConfig } from '../config.js';
import type { AppEnv } from './operation.js';
import { headerReader } from './request-url.js';

export type OriginConfig = Pick<AppConfig, 'publicUrl' | 'trustProxy'>;

/** `{hostname, host}` of the public URL, or null when it does not parse. */
export function publicHost(publicUrl: string): { hostname: string; host: string } | null {
  try {
    const url = new URL(publicUrl);
    return { hostname: url.hostname, host: url.host };
  } catch {
    return null;
  }
}

/**
 * The host the request was addressed to: X-Forwarded-Host with `--trust-proxy`, else Host; in-process
 * requests (tests) have no Host header, and the request URL's host stands in.
 */
export function requestHost(
  c: Context<AppEnv>,
  trustProxy: boolean,
  read = headerReader(c),
): string {
  const forwarded = trustProxy ? read('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  return (forwarded || read('host') || new URL(c.req.url).host).trim();
}

/** The host of an `Origin` or `Referer` value; null for `null`, an opaque origin or a value that does not parse. */
function hostOfOrigin(value: string): string | null {
  if (value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.host : null;
  } catch {
    return null;
  }
}

/**
 * Who sent a browser request, when it is not this sandbox (a cross-site request, CSRF): the `Origin`
 * header when it names another origin (`Origin: null` included), or, with `referer` and no Origin, a
 * `Referer` that does. This sandbox is the request's own host or the public URL's. Undefined when the
 * request is same-origin or carries neither header (clients that are not browsers: curl, SDKs, CI).
 *
 * @example
 * foreignSource(c, config, { referer: true }); // → 'http://evil.example' | undefined
 */
export function foreignSource(
  c: Context<AppEnv>,
  config: OriginConfig,
  opts: { referer: boolean },
): string | undefined {
  const read = headerReader(c);
  const origin = read('origin');
  const source = origin ?? (opts.referer ? read('referer') : undefined);
  if (source === undefined) return undefined;
  const host = hostOfOrigin(source);
  const own = requestHost(c, config.trustProxy, read).toLowerCase();
  if (host !== null && (host === own || host === publicHost(config.publicUrl)?.host))
    return undefined;
  return source;
}

/** How the sandbox names its own origin in a refusal. */
export function ownOriginText(c: Context<AppEnv>, config: OriginConfig): string {
  const pub = publicHost(config.publicUrl);
  return pub ? `http(s)://${pub.host}` : requestHost(c, config.trustProxy);
}
