/**
 * The preflight checks the contract suite (contract-tests/harness/preflight.ts) and `paysandbox replay`
 * share: does the URL answer the payments API, and does it take the credentials? Each problem is one
 * line a person can act on (docs/contract-tests.md, "Preflight").
 */
import { errorCodesOf } from '../client/client.errors.js';
import type { HmacSigner } from '../client/hmac.signer.js';

export class PreflightError extends Error {
  override readonly name = 'PreflightError';
}

/** One request of the preflight may take this long. */
export const PREFLIGHT_TIMEOUT_MS = 10_000;

export interface PreflightAnswer {
  status: number;
  type: string;
  body: unknown;
}

/** `401 invalid_token (Invalid token.)` */
export function describeAnswer(a: PreflightAnswer): string {
  const body = a.body as { errors?: Record<string, unknown> } | null;
  const codes = errorCodesOf(a.body).join(', ');
  const first = body?.errors ? Object.values(body.errors).flat()[0] : undefined;
  const message = typeof first === 'string' ? first : '';
  return [String(a.status), codes, message && `(${message})`].filter(Boolean).join(' ');
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused — is the server running on that port?',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved now',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ETIMEDOUT: 'the connection timed out',
};

const causeOf = (err: unknown): string => {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
    return `no answer within ${PREFLIGHT_TIMEOUT_MS / 1000} s`;
  const code = e?.cause?.code;
  if (code && NETWORK_ERRORS[code]) return `${NETWORK_ERRORS[code]} (${code})`;
  if (code) return `${e.cause?.message ?? code} (${code})`;
  return e?.cause?.message ?? e?.message ?? String(err);
};

/** A GET of the preflight; a network failure is the one line `cannot reach <origin>: <cause>`. */
export async function ask(
  fetchFn: typeof fetch,
  url: string,
  headers: Record<string, string>,
): Promise<PreflightAnswer> {
  let res: Response;
  try {
    res = await fetchFn(url, {
      headers: { accept: 'application/json', ...headers },
      redirect: 'manual',
      signal: AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS),
    });
  } catch (err) {
    throw new PreflightError(`cannot reach ${new URL(url).origin}: ${causeOf(err)}`);
  }
  const type = res.headers.get('content-type') ?? '';
  const text = await res.text().catch(() => '');
  let body: unknown = null;
  if (type.includes('json')) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  return { status: res.status, type, body };
}

/** A wrong base shows as 404s, redirects or HTML where the API answers JSON. */
export function notTheApi(
  base: string,
  what: string,
  a: PreflightAnswer,
  setting = 'CONTRACT_BASE_URL',
): string | undefined {
  if (a.status === 404 || (a.status >= 300 && a.status < 400) || !a.type.includes('json')) {
    return `${base} does not look like the payments API: ${what} answered ${a.status} ${a.type || 'without a content type'} — is ${setting} the API's base URL?`;
  }
  return undefined;
}

/**
 * The merchant token, with the cheapest read there is (also tells whether the URL answers at all):
 * throws the line of a wrong base, a refused token or a service that is not ready.
 */
export async function checkMerchantToken(
  fetchFn: typeof fetch,
  base: string,
  token: string,
  setting = 'CONTRACT_BASE_URL',
): Promise<void> {
  const m = await ask(fetchFn, `${base}/v3/invoices/?page=1&per_page=1`, {
    authorization: `Token ${token}`,
  });
  const wrongBase = notTheApi(base, 'GET /v3/invoices/', m, setting);
  if (wrongBase) throw new PreflightError(wrongBase);
  if (m.status === 401 || m.status === 403)
    throw new PreflightError(
      `CONTRACT_MERCHANT_TOKEN is refused by ${base}: GET /v3/invoices/ answered ${describeAnswer(m)}`,
    );
  if (m.status !== 200)
    throw new PreflightError(
      `${base} is not ready: GET /v3/invoices/ with CONTRACT_MERCHANT_TOKEN answered ${describeAnswer(m)}`,
    );
}

/** Tries of a nonce refused by a concurrent run's (time-based nonces pass each other in milliseconds). */
const NONCE_RETRIES = 5;
const NONCE_RETRY_MS = 200;

/** The signed read of the preflight: `GET /v3/crypto-accounts/`. */
export const SIGNED_READ_PATH = '/v3/crypto-accounts/';

/**
 * The HMAC key and secret, with a signed read (its answer: the key's accounts). Runs started side by
 * side on one key race on its nonce: a refused nonce is tried again a little later, when ours has passed
 * theirs. A key locked to a huge nonce is still refused every time.
 */
export async function signedRead(
  fetchFn: typeof fetch,
  base: string,
  signer: HmacSigner,
  query = '?currency=PBTC&per_page=1',
): Promise<PreflightAnswer> {
  const url = `${base}${SIGNED_READ_PATH}${query}`;
  let h = await ask(fetchFn, url, signer.sign(url));
  for (
    let retry = 0;
    retry < NONCE_RETRIES && errorCodesOf(h.body).includes('invalid_nonce');
    retry++
  ) {
    await new Promise((r) => setTimeout(r, NONCE_RETRY_MS));
    h = await ask(fetchFn, url, signer.sign(url));
  }
  return h;
}

/** The line for a signed read that was not answered 200. */
export function hmacRefusal(base: string, h: PreflightAnswer): PreflightError {
  const codes = errorCodesOf(h.body);
  const what = `a signed GET ${SIGNED_READ_PATH} answered ${describeAnswer(h)}`;
  if (codes.includes('invalid_access_key'))
    return new PreflightError(`CONTRACT_API_KEY is not known to ${base}: ${what}`);
  if (codes.includes('invalid_signature'))
    return new PreflightError(
      `CONTRACT_API_SECRET does not match CONTRACT_API_KEY on ${base}: ${what}`,
    );
  if (codes.includes('invalid_nonce'))
    return new PreflightError(
      `the key has seen a larger nonce than ours: ${what} — set CONTRACT_NONCE_START above it (e.g. 1.8e+262)`,
    );
  return new PreflightError(
    `the HMAC credentials (CONTRACT_API_KEY, CONTRACT_API_SECRET) do not work on ${base}: ${what}`,
  );
}
