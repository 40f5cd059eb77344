import { trimEnd } from './trim.js';
import { addressRange, isLoopbackHost } from './ip-address.js';

/**
 * Merchant URLs that name a page of the sandbox itself (docs/design.md#callbacks): a `callback_url` or
 * `redirect_url` written as a path (`/_sandbox/inbox/<merchant id>`) rather than an absolute URL. It is
 * resolved each time it is used, against the sandbox's own address for callbacks (the port it really
 * listens on, so several sandboxes on one machine never reach each other's inbox) and its public URL
 * for the browser's redirect. A path stored in the database stays right when the port changes.
 */

/** Where the built-in example receiver takes a merchant's callbacks. */
export const INBOX_PREFIX = '/_sandbox/inbox/';

/** The example receiver of one merchant, as a merchant setting. */
export function inboxPath(merchantId: string): string {
  return `${INBOX_PREFIX}${merchantId}`;
}

/** The merchant "thank you" page the first fixture merchant redirects to. */
export function thankYouPath(merchantId: string): string {
  return `${INBOX_PREFIX}${merchantId}/thank-you`;
}

/** True when `url` is a path on the sandbox itself (`/…`, not a protocol-relative `//host`). */
export function isSandboxPath(url: string): boolean {
  return url.startsWith('/') && !url.startsWith('//') && !url.startsWith('/\\');
}

/**
 * A callback target on the sandbox itself is only ever its example receiver (never, say, /_sandbox/reset):
 * a path that a POST reaches the receiver at (`receiverMerchantOf`), with no query or fragment.
 */
export function isInboxPath(url: string): boolean {
  if (!isSandboxPath(url)) return false;
  try {
    return reachesReceiver(url, new URL(url, 'http://sandbox.invalid/'));
  } catch {
    return false;
  }
}

// A dot segment, plain or percent-escaped (the URL parser resolves `%2e%2e` as it does `..`).
const DOT_SEGMENT = /[/\\](?:\.|%2e){1,2}(?:[/\\?#]|$)/i;

/**
 * True when `u` (parsed from `text`, a path or an absolute URL to this sandbox) is a request the router
 * hands to the example receiver's POST, written plainly: no dot segment, query or fragment.
 */
function reachesReceiver(text: string, u: URL): boolean {
  return !/[?#]/.test(text) && !DOT_SEGMENT.test(text) && receiverMerchantOf(u.pathname) !== null;
}

/** A path segment as the router reads it: escapes decoded, except those of `/` and the other reserved characters. */
const routerSegment = (part: string) => {
  try {
    return decodeURI(part);
  } catch {
    return part;
  }
};

/**
 * The merchant id a POST to `pathname` (already resolved) is received for by the example receiver, as
 * the router matches it: exactly `/_sandbox/inbox/<id>` (or with one trailing `/`), the fixed segments
 * compared once unreserved escapes are decoded (`/%5fsandbox/…` reaches it); an empty segment, an
 * escaped `/` or anything after the id never does (404). Null when it does not reach the receiver.
 */
export function receiverMerchantOf(pathname: string): string | null {
  const segments = pathname.split('/');
  if (segments.length === 5 && segments[4] === '') segments.pop();
  if (segments.length !== 4) return null;
  const [root, sandbox, inbox, merchantId] = segments;
  return root === '' &&
    routerSegment(sandbox ?? '') === '_sandbox' &&
    routerSegment(inbox ?? '') === 'inbox' &&
    merchantId
    ? decoded(merchantId)
    : null;
}

/** The addresses of this sandbox (its config's): the public URL and the one it reaches itself at. */
export interface SandboxAddresses {
  publicUrl: string;
  internalUrl: string;
}

const effectivePort = (u: URL) => u.port || (u.protocol === 'https:' ? '443' : '80');

/**
 * True when the absolute URL `u` reaches this sandbox: the origin of its public URL or of its own
 * address, or a name or address of this machine (`localhost`, 127.0.0.0/8, ::1, 0.0.0.0) on the port it
 * listens on.
 */
export function isOwnAddress(u: URL, own: SandboxAddresses): boolean {
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  const origins = [own.publicUrl, own.internalUrl].flatMap((text) => {
    try {
      return [new URL(text)];
    } catch {
      return [];
    }
  });
  if (origins.some((o) => o.origin === u.origin)) return true;
  const host = u.hostname.replace(/\.$/, '');
  const local =
    isLoopbackHost(host) || host.endsWith('.localhost') || addressRange(host) === 'unspecified';
  return local && origins.some((o) => effectivePort(o) === effectivePort(u));
}

/** `url` parsed (a path against a placeholder origin) when it is on this sandbox; null otherwise. */
function parseOwn(url: string, own: SandboxAddresses): URL | null {
  try {
    if (isSandboxPath(url)) return new URL(url, 'http://sandbox.invalid/');
    const u = new URL(url);
    return isOwnAddress(u, own) ? u : null;
  } catch {
    return null;
  }
}

const decoded = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/**
 * The merchant whose example receiver (or thank-you page, or any page under it) `url` names on this
 * sandbox, written as a path or as an absolute URL to one of its own addresses; null when it names none.
 * Read as the sandbox's router reads a request's path: dot segments resolved, percent-escapes decoded.
 */
export function inboxMerchantOf(url: string, own: SandboxAddresses): string | null {
  const u = parseOwn(url, own);
  if (!u) return null;
  const [root, sandbox, inbox, merchantId] = u.pathname.split('/').map(decoded);
  return root === '' && sandbox === '_sandbox' && inbox === 'inbox' && merchantId
    ? merchantId
    : null;
}

/**
 * `url`, which names the example receiver of a merchant (`inboxMerchantOf`), naming `merchantId`'s
 * instead, written plainly (a path stays a path); what follows the merchant id is kept.
 */
export function withInboxMerchant(url: string, own: SandboxAddresses, merchantId: string): string {
  const u = parseOwn(url, own);
  if (!u) return url;
  const segments = u.pathname.split('/');
  segments[3] = encodeURIComponent(merchantId);
  u.pathname = segments.join('/');
  return isSandboxPath(url) ? `${u.pathname}${u.search}${u.hash}` : u.href;
}

/**
 * Whose example receiver a merchant's URL may name: this sandbox's addresses, and of a merchant id
 * whether it is a merchant of the same tenant (workspace, or the base data) as the merchant whose URL it
 * is (`same`), of another tenant (`other`), or no merchant at all (`unknown`). `unknownWhere` says where
 * merchants are looked for, in the message of an unknown one (" in the document" for a snapshot's).
 */
export interface MerchantUrlScope {
  own: SandboxAddresses;
  tenantOf(merchantId: string): 'same' | 'other' | 'unknown';
  unknownWhere?: string;
}

/** The message of a callback_url on this sandbox that is not its example receiver. */
export const NOT_THE_RECEIVER = `On the sandbox itself a callback_url can only be its example receiver, ${INBOX_PREFIX}<merchant id>, written plainly (no empty segment, escaped slash, dot segment, query or fragment: a callback there would not reach it).`;

/**
 * What is wrong with a merchant's `callback_url` or `redirect_url` (null when nothing): an absolute
 * http(s) URL, or a path on the sandbox itself — for callbacks only the example receiver, for redirects
 * any page. An absolute URL to one of the sandbox's own addresses is held to the same rule as the path
 * it names (a callback to `http://127.0.0.1:<port>/_sandbox/reset` would reset the sandbox). On this
 * sandbox the example receiver and the thank-you page must be those of a merchant of the same tenant:
 * one tenant's callbacks and redirects never land in another's inbox. The one rule of POST/PATCH
 * /_sandbox/merchants and of a snapshot's merchant rows.
 */
export function merchantUrlProblem(
  url: string,
  field: 'callback_url' | 'redirect_url',
  scope: MerchantUrlScope,
): string | null {
  const problem = urlFormProblem(url, field, scope.own);
  if (problem !== null) return problem;
  const merchantId = inboxMerchantOf(url, scope.own);
  if (merchantId === null) return null;
  const tenant = scope.tenantOf(merchantId);
  if (tenant === 'same') return null;
  const named = merchantId.slice(0, 64);
  return tenant === 'unknown'
    ? `Names the example receiver of merchant ${named}, but there is no merchant with that id${scope.unknownWhere ?? ''}.`
    : `Names the example receiver of merchant ${named}, which is not of this merchant's workspace (the base data counts as one): on this sandbox a merchant's callbacks and redirects go to its own example receiver or to that of a merchant of the same workspace.`;
}

function urlFormProblem(
  url: string,
  field: 'callback_url' | 'redirect_url',
  own: SandboxAddresses,
): string | null {
  if (isSandboxPath(url)) {
    return field === 'redirect_url' || isInboxPath(url) ? null : NOT_THE_RECEIVER;
  }
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) {
    // This sandbox's own address: the path it names is held to the path rule.
    return field === 'callback_url' && isOwnAddress(parsed, own) && !reachesReceiver(url, parsed)
      ? NOT_THE_RECEIVER
      : null;
  }
  return field === 'callback_url'
    ? `Enter an absolute http:// or https:// URL, the example receiver ${INBOX_PREFIX}<merchant id>, or null.`
    : 'Enter an absolute http:// or https:// URL, a path on this sandbox (/…), or null.';
}

/**
 * `url` written as a path when it is an absolute URL to one of this sandbox's own addresses (a saved
 * state is portable: restored on another sandbox, or another port, the path is resolved against the
 * copy's own address); any other URL, or one whose path would not read as a path of the sandbox, as it is.
 */
export function ownUrlAsPath(url: string, own: SandboxAddresses): string {
  if (isSandboxPath(url)) return url;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (!isOwnAddress(u, own)) return url;
  const path = `${u.pathname}${u.search}${u.hash}`;
  return isSandboxPath(path) ? path : url;
}

/** `url` made absolute against `base` when it is a sandbox path; an absolute URL as it is. */
export function resolveSandboxUrl(url: string, base: string): string {
  return isSandboxPath(url) ? new URL(url, `${trimEnd(base, '/')}/`).href : url;
}

/**
 * The address the sandbox reaches itself at: its listening host, with a wildcard or `localhost`
 * replaced by 127.0.0.1 (the loopback address a wildcard listen always includes).
 */
export function selfUrl(host: string, port: number): string {
  const h = host.trim().replace(/^\[|\]$/g, '');
  if (h === '' || h === '0.0.0.0' || h === '::' || h === '::0' || h === 'localhost')
    return `http://127.0.0.1:${port}`;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}
