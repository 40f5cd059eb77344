import type { HarHeader } from './har.js';

/** Headers whose value is a secret: never written to a recording. The nonce reveals nothing and stays. */
const SECRET_HEADERS =
  /^(access[-_]key|access[-_]signature|access[-_]otp|x-sandbox-token|cookie|set-cookie|proxy-authorization)$/i;
/** Body, form and query keys whose value is a secret (tokens, secrets, passwords, one-time codes). */
const SECRET_KEYS =
  /^(access_token|refresh_token|token|[a-z_]*_token|[a-z_]*secret|password|otp|otp_code)$/i;
/** In requests only: a sell order's or transfer's two-factor `code` (in answers `code` is an error message). */
const REQUEST_SECRET_KEYS = /^(code|verification_code)$/i;

export const REDACTED = '<redacted>';

export interface ScrubOptions {
  /** Mask emails and phone numbers too (`--mask-pii`). */
  maskPii: boolean;
  /** A request (its `code` is a one-time password) or an answer. */
  side: 'request' | 'response';
}

const LOCAL_CHAR = /^[A-Za-z0-9._%+-]$/;
/** An email's domain, tried right after an `@` (sticky: at that one position). */
const DOMAIN = /[A-Za-z0-9.-]+\.[A-Za-z]{2,}/y;
// International (+63 917 …), Philippine mobile without the plus (63 917 …, 12 digits) or local (0917 …)
// numbers only: amounts, epochs and nonces never start so.
const PHONE = /(?<![\w+.])(?:\+\d{10,14}|639\d{9}|0\d{9,11})(?![\d.])/g;
/** A form body whatever its declared type (`a=1&otp=2`: a client that posts a dict as "application/json"). */
const FORM_TEXT = /^[\w.%[\]-]+=[^&]*(?:&[\w.%[\]-]+=[^&]*)*$/;

/**
 * Mask emails (`d***@example.com`) and phone numbers (`+639*****34`): the format stays, so a parity
 * comparison still sees a string of the same kind.
 */
export function maskPii(text: string): string {
  return maskEmails(text).replace(
    PHONE,
    (m) => `${m.slice(0, 4)}${'*'.repeat(m.length - 6)}${m.slice(-2)}`,
  );
}

/**
 * Every `local@domain.tld` as `d***@domain.tld`: what
 * `text.replace(/([A-Za-z0-9._%+-])[A-Za-z0-9._%+-]*@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g, '$1***@$2')`
 * writes, found from each `@` instead of from each character: that expression is quadratic on a long
 * run of local-part characters without an `@` (a recorded body is anyone's text;
 * docs/design.md#input-handling). The local part of a match starts where the previous match ended
 * or where its run of local-part characters starts, whichever is later, as in a global scan.
 */
function maskEmails(text: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('@'); at !== -1;) {
    let start = at;
    while (start > from && LOCAL_CHAR.test(text.charAt(start - 1))) start--;
    DOMAIN.lastIndex = at + 1;
    const domain = start < at ? DOMAIN.exec(text) : null;
    if (domain) {
      out += `${text.slice(from, start)}${text.charAt(start)}***@${domain[0]}`;
      from = at + 1 + domain[0].length;
      at = text.indexOf('@', from);
    } else at = text.indexOf('@', at + 1);
  }
  return out + text.slice(from);
}

const isSecretKey = (key: string, o: ScrubOptions) =>
  SECRET_KEYS.test(key) || (o.side === 'request' && REQUEST_SECRET_KEYS.test(key));

function scrubValue(value: unknown, key: string, o: ScrubOptions): unknown {
  if (key && isSecretKey(key, o) && value !== null && typeof value !== 'object') return REDACTED;
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, '', o));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, k, o)]));
  if (typeof value === 'string' && o.maskPii) return maskPii(value);
  return value;
}

/** Authorization keeps its scheme (`<redacted: Token>`) so that a replay knows which credential to use. */
export function scrubHeaders(headers: HarHeader[], o: ScrubOptions): HarHeader[] {
  return headers.map(({ name, value }) => {
    if (/^authorization$/i.test(name))
      return { name, value: `<redacted: ${/^\s*(\w+)/.exec(value)?.[1] ?? 'credential'}>` };
    if (SECRET_HEADERS.test(name)) return { name, value: REDACTED };
    return { name, value: o.maskPii ? maskPii(value) : value };
  });
}

/**
 * A body as text: JSON and form bodies key by key, whatever the declared type (a form sent as JSON or
 * with none is still a form), anything else (when masking) as text.
 */
export function scrubBody(text: string, mimeType: string, o: ScrubOptions): string {
  if (!text) return text;
  if (/json/i.test(mimeType) || /^\s*[[{]/.test(text)) {
    try {
      return JSON.stringify(scrubValue(JSON.parse(text), '', o));
    } catch {
      // not JSON after all: scrubbed as text below
    }
  }
  if (/x-www-form-urlencoded/i.test(mimeType) || FORM_TEXT.test(text.trim()))
    return scrubParams(text.trim(), o);
  return o.maskPii ? maskPii(text) : text;
}

/** A query string or form body (`a=1&otp=123456`), secrets redacted. */
export function scrubParams(query: string, o: ScrubOptions): string {
  const params = new URLSearchParams(query);
  const out = new URLSearchParams();
  for (const [k, v] of params)
    out.append(k, isSecretKey(k, o) ? REDACTED : o.maskPii ? maskPii(v) : v);
  return out.toString();
}
