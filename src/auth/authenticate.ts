import { timingSafeEqual } from 'node:crypto';
import { ApiError, NonceTooLowError } from '../shared/api-error.js';
import type { App, IdentitiesApi, Merchant } from '../identities/identities.api.js';
import { parseNonce, sha256Hex, signatureMatches, signRequest } from './hmac.js';

type HeaderReader = (name: string) => string | undefined;

const TOKEN_HEADER = /^(token|bearer)\s+(\S+)\s*$/i;

/** `Authorization: Token <t>` or `Bearer <t>`, on v1 and v3 alike (docs/design.md#authentication). */
export function authenticateMerchant(
  identities: IdentitiesApi,
  authorization: string | undefined,
): Merchant {
  const m = authorization ? TOKEN_HEADER.exec(authorization) : null;
  const merchant = m ? identities.merchantByToken(m[2]!) : undefined;
  if (!merchant) throw ApiError.general('invalid_token', 'Invalid token.');
  return merchant;
}

const BEARER_SCHEME = /^bearer(\s|$)/i;
const BEARER = /^bearer\s+(\S+)\s*$/i;

/**
 * The OAuth2 alternative on a developer (HMAC) operation: the `Authorization: Bearer` value to check, or
 * undefined when the request is to be checked as HMAC. When an HMAC credential (the key or the signature)
 * is present HMAC wins (a documented fact of the real service), so a request carrying both is judged by
 * its signature alone. A lone `ACCESS_NONCE` beside a Bearer token is an OAuth call: the official OAuth
 * examples send one, and the token is what authenticates (the nonce is ignored).
 */
export function developerBearer(read: HeaderReader): string | undefined {
  if (hmacHeader(read, 'KEY') ?? hmacHeader(read, 'SIGNATURE')) return undefined;
  const authorization = read('authorization');
  return authorization !== undefined && BEARER_SCHEME.test(authorization)
    ? authorization
    : undefined;
}

/**
 * The app of a live OAuth2 access token (not expired on the sandbox clock `now`, not revoked, its app
 * enabled); anything else is the same 401 as a wrong merchant token. No nonce is involved.
 */
export function authenticateBearerApp(
  identities: IdentitiesApi,
  authorization: string,
  now: number,
): App {
  const m = BEARER.exec(authorization);
  const app = m ? identities.appTokens.appOfToken(m[1]!, now) : undefined;
  if (!app) throw ApiError.general('invalid_token', 'Invalid token.');
  return app;
}

/** Either spelling of an HMAC header: `ACCESS_KEY` or `Access-Key`. */
function hmacHeader(read: HeaderReader, name: 'KEY' | 'SIGNATURE' | 'NONCE'): string | undefined {
  // Stryker disable next-line MethodExpression: header names are case-insensitive, so the case of the name asked for cannot change the answer
  return read(`access_${name.toLowerCase()}`) ?? read(`access-${name.toLowerCase()}`);
}

/**
 * Verify an HMAC-signed request (docs/design.md#authentication). The signature is checked before the nonce moves, and
 * the nonce advance is one conditional UPDATE: concurrent requests with one nonce succeed at most once,
 * and a badly signed request never burns a key.
 */
export function authenticateHmac(
  identities: IdentitiesApi,
  read: HeaderReader,
  url: string,
  rawBody: Buffer,
  opts: { debugErrors: boolean; beforeNonce?: () => void },
): App {
  const key = hmacHeader(read, 'KEY');
  const signature = hmacHeader(read, 'SIGNATURE');
  const nonceText = hmacHeader(read, 'NONCE');
  if (!key || !signature || !nonceText) {
    const missing = [
      !key && 'ACCESS_KEY',
      !signature && 'ACCESS_SIGNATURE',
      !nonceText && 'ACCESS_NONCE',
    ].filter(Boolean);
    throw ApiError.general(
      'missing_credentials',
      `Authentication credentials were not provided (missing ${missing.join(', ')}).`,
    );
  }
  const app = identities.appForAuth(key);
  if (!app) throw ApiError.general('invalid_access_key', 'Incorrect access key');
  // Stryker disable next-line MethodExpression: header values arrive trimmed (HTTP parsing and Fetch Headers strip surrounding whitespace)
  const nonce = parseNonce(nonceText.trim());
  if (nonce === null) {
    throw ApiError.field(
      'nonce',
      'Nonce must be a non-negative integer below 1e309, in decimal or exponent form (e.g. 1700000000000 or 1.7e+25).',
      'invalid_nonce_format',
    );
  }
  // The message uses the nonce exactly as sent in the header.
  const expected = signRequest(app.api_secret, nonceText, url, rawBody);
  // Stryker disable next-line MethodExpression: header values arrive trimmed (HTTP parsing and Fetch Headers strip surrounding whitespace)
  if (!signatureMatches(expected, signature.trim())) {
    const debug = opts.debugErrors
      ? {
          signed_message: {
            nonce: nonceText,
            url,
            body_length: rawBody.length,
            body_sha256: sha256Hex(rawBody),
          },
          hint: 'The server signed nonce + url + body with HMAC-SHA256 and the API secret; compare with your message.',
        }
      : undefined;
    throw ApiError.general('invalid_signature', 'The access signature cannot be matched', debug);
  }
  // A request refused after its signature matched but before the nonce moves (a body that cannot be
  // parsed) leaves the nonce free for the corrected request.
  opts.beforeNonce?.();
  if (!identities.advanceNonce(key, nonce)) {
    // Stryker disable next-line OptionalChaining,StringLiteral: the app was found enabled earlier in this synchronous call, so the update only fails against a stored nonce
    const last = identities.appByKey(key)?.last_nonce ?? '0';
    throw new NonceTooLowError(last);
  }
  return { ...app, last_nonce: nonce };
}

/** The control token, when one is configured, compared in constant time. */
export function authenticateControl(expected: string | null, given: string | undefined): void {
  if (expected === null) return;
  const a = Buffer.from(expected);
  // Stryker disable next-line StringLiteral: any stand-in for a missing header is refused, unless it is the configured token itself
  const b = Buffer.from(given ?? '');
  if (a.length !== b.length || !timingSafeEqual(a, b)) {
    throw ApiError.general(
      'control_token_required',
      'A valid X-Sandbox-Token header is required for the control API.',
    );
  }
}
