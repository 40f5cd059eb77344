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

/** A callback target on the sandbox itself is only ever its example receiver (never, say, /_sandbox/reset). */
export function isInboxPath(url: string): boolean {
  return isSandboxPath(url) && url.startsWith(INBOX_PREFIX) && !/[?#]|\/\.\.?(\/|$)/.test(url);
}

/**
 * What is wrong with a merchant's `callback_url` or `redirect_url` (null when nothing): an absolute
 * http(s) URL, or a path on the sandbox itself — for callbacks only the example receiver, for redirects
 * any page. The one rule of PATCH /_sandbox/merchants and of a snapshot's merchant rows.
 */
export function merchantUrlProblem(
  url: string,
  field: 'callback_url' | 'redirect_url',
): string | null {
  if (isSandboxPath(url)) {
    return field === 'redirect_url' || isInboxPath(url)
      ? null
      : `On the sandbox itself a callback_url can only be its example receiver, ${INBOX_PREFIX}<merchant id>.`;
  }
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {
    parsed = null;
  }
  if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) return null;
  return field === 'callback_url'
    ? `Enter an absolute http:// or https:// URL, the example receiver ${INBOX_PREFIX}<merchant id>, or null.`
    : 'Enter an absolute http:// or https:// URL, a path on this sandbox (/…), or null.';
}

/** `url` made absolute against `base` when it is a sandbox path; an absolute URL as it is. */
export function resolveSandboxUrl(url: string, base: string): string {
  return isSandboxPath(url) ? new URL(url, `${base.replace(/\/+$/, '')}/`).href : url;
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
