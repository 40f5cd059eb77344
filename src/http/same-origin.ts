import type { Context } from 'hono';
import type { AppConfig } from '../config.js';
import type { AppEnv } from './operation.js';
import { headerReader } from './request-url.js';
import { isLoopbackHost } from '../shared/ip-address.js';

export type OriginConfig = Pick<AppConfig, 'publicUrl' | 'trustProxy' | 'allowedHosts'>;

type PublicHost = { hostname: string; host: string } | null;
let lastPublic: { url: string; host: PublicHost } | undefined;

/**
 * `{hostname, host}` of the public URL, or null when it does not parse. Every control request asks, with
 * the one public URL of the process: the last answer is kept (a URL parse per request saved).
 */
export function publicHost(publicUrl: string): PublicHost {
  if (lastPublic?.url === publicUrl) return lastPublic.host;
  let host: PublicHost;
  try {
    const url = new URL(publicUrl);
    host = { hostname: url.hostname, host: url.host };
  } catch {
    host = null;
  }
  lastPublic = { url: publicUrl, host };
  return host;
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

/** The origin (scheme, host, port) of an `Origin` or `Referer` value; null for `null`, an opaque origin or a value that does not parse. */
function originOfSource(value: string): string | null {
  if (value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The origin the request was addressed to: its scheme (X-Forwarded-Proto with `--trust-proxy`, else
 * the connection's) and `requestHost`. Null when the Host header does not make a URL.
 */
function requestOrigin(
  c: Context<AppEnv>,
  trustProxy: boolean,
  read: ReturnType<typeof headerReader>,
): string | null {
  const forwarded = trustProxy ? read('x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : undefined;
  try {
    const own = new URL(c.req.url);
    return new URL(`${scheme ?? own.protocol.slice(0, -1)}://${requestHost(c, trustProxy, read)}`)
      .origin;
  } catch {
    return null;
  }
}

/**
 * Who sent a browser request, when it is not this sandbox (a cross-site request, CSRF): the `Origin`
 * header when it names another origin (`Origin: null` included), or, with `referer` and no Origin, a
 * `Referer` that does. This sandbox is the request's own origin (scheme, host and port) or the public
 * URL's: `https://127.0.0.1:7070` is another origin than `http://127.0.0.1:7070`. Undefined when the
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
  const from = originOfSource(source);
  if (
    from !== null &&
    (from === requestOrigin(c, config.trustProxy, read) || from === publicOrigin(config.publicUrl))
  )
    return undefined;
  return source;
}

/** The public URL's origin, or null when it does not parse. */
function publicOrigin(publicUrl: string): string | null {
  try {
    return new URL(publicUrl).origin;
  } catch {
    return null;
  }
}

/** `host[:port]` → the host name as URLs spell it (lowercase, IPv6 in brackets), or null if it is not one. */
function hostnameOf(host: string): string | null {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return null;
  }
}

/**
 * Whether a browser may address the sandbox by the request's host (a defence against DNS rebinding: a page
 * on `evil.example` re-pointed at 127.0.0.1 is same-origin with itself but still sends
 * `Host: evil.example`): a loopback address (`localhost`, 127.0.0.0/8, ::1), the public URL's host, or a
 * host listed in `--allowed-hosts` (`*` allows any). Null when allowed, else the host refused.
 */
export function refusedHost(c: Context<AppEnv>, config: OriginConfig): string | null {
  if (config.allowedHosts.includes('*')) return null;
  const host = requestHost(c, config.trustProxy);
  let verdicts = hostVerdicts.get(config);
  if (!verdicts) hostVerdicts.set(config, (verdicts = new Map()));
  // The public URL is part of the key: `start` sets it once the port is known.
  const key = `${config.publicUrl} ${host}`;
  let allowed = verdicts.get(key);
  if (allowed === undefined) {
    const name = hostnameOf(host);
    allowed =
      name !== null &&
      (isLoopbackHost(name.replace(/^\[|\]$/g, '')) ||
        name === publicHost(config.publicUrl)?.hostname ||
        config.allowedHosts.includes(name));
    // A client can send any Host: keep a bounded number of verdicts.
    if (verdicts.size >= MAX_HOST_VERDICTS) verdicts.clear();
    verdicts.set(key, allowed);
  }
  return allowed ? null : host;
}

/**
 * The verdict of `refusedHost` per public URL and Host value, per configuration (its allowed hosts do
 * not change once the server runs): a URL and an IP-address parse per control request saved (~3 % of a wallet payment's
 * CPU in the bench's profile).
 */
const hostVerdicts = new WeakMap<OriginConfig, Map<string, boolean>>();
const MAX_HOST_VERDICTS = 64;

/** How the sandbox names its own origin in a refusal. */
export function ownOriginText(c: Context<AppEnv>, config: OriginConfig): string {
  const pub = publicHost(config.publicUrl);
  return pub ? `http(s)://${pub.host}` : requestHost(c, config.trustProxy);
}
