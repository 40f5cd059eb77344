import { createHmacSigner, errorCodesOf } from '../../src/client/index.js';
import { urlTargetConfigFromEnv, type UrlTargetConfig } from './url.target.js';

/**
 * Before any case runs against a URL: is the URL a base, does it answer, and do the credentials
 * work? Each problem becomes one line a person can act on, instead of a stack trace or dozens of
 * "expected 200, observed 401" drifts (docs/contract-tests.md, "Preflight").
 */
export class PreflightError extends Error {
  override readonly name = 'PreflightError';
}

export interface PreflightResult {
  config: UrlTargetConfig;
  /** The last nonce the preflight's signed request used: the suite starts above it. */
  lastNonce: string;
}

/** One request of the preflight may take this long. */
export const PREFLIGHT_TIMEOUT_MS = 10_000;

interface Answer {
  status: number;
  type: string;
  body: unknown;
}

/** `401 invalid_token (Invalid token.)` */
function describe(a: Answer): string {
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

async function ask(
  fetchFn: typeof fetch,
  url: string,
  headers: Record<string, string>,
): Promise<Answer> {
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
function notTheApi(base: string, what: string, a: Answer): string | undefined {
  if (a.status === 404 || (a.status >= 300 && a.status < 400) || !a.type.includes('json')) {
    return `${base} does not look like the payments API: ${what} answered ${a.status} ${a.type || 'without a content type'} — is CONTRACT_BASE_URL the API's base URL?`;
  }
  return undefined;
}

/** Pages of `GET /_sandbox/apps` walked to find the key (100 a page). */
const MAX_APP_PAGES = 50;

/**
 * On a sandbox (the control API answers): the key's last nonce before the preflight, null when the key
 * has never been used; undefined when that cannot be read (not a sandbox, an unknown key).
 */
async function sandboxLastNonce(
  fetchFn: typeof fetch,
  base: string,
  headers: Record<string, string>,
  apiKey: string,
): Promise<string | null | undefined> {
  for (let page: number | null = 1, i = 0; page !== null && i < MAX_APP_PAGES; i++) {
    const r = await ask(fetchFn, `${base}/_sandbox/apps?page=${page}&per_page=100`, headers);
    if (r.status !== 200) return undefined;
    const body = r.body as {
      apps?: Array<{ api_key?: string; last_nonce?: string | null }>;
      meta?: { next_page?: number | null };
    } | null;
    const app = body?.apps?.find((a) => a.api_key === apiKey);
    if (app) return app.last_nonce === null ? null : undefined;
    page = body?.meta?.next_page ?? null;
  }
  return undefined;
}

/**
 * Put a sandbox key that had never been used back as it was after the preflight's signed read
 * (`POST /_sandbox/apps/{key}/nonce/reset`), so that the preflight changes nothing on a shared sandbox.
 * Best effort: a failure leaves the nonce advanced, which only refuses smaller nonces.
 */
async function forgetNonce(
  fetchFn: typeof fetch,
  base: string,
  headers: Record<string, string>,
  apiKey: string,
): Promise<void> {
  await fetchFn(`${base}/_sandbox/apps/${encodeURIComponent(apiKey)}/nonce/reset`, {
    method: 'POST',
    headers: { accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(PREFLIGHT_TIMEOUT_MS),
  })
    .then((res) => res.arrayBuffer())
    .catch(() => undefined);
}

/**
 * Run the checks in order; the first failure throws a PreflightError with its one line.
 * A configuration error (missing variable, production host, a URL with a path) is one too.
 */
/** Tries of a nonce refused by a concurrent run's (time-based nonces pass each other in milliseconds). */
const NONCE_RETRIES = 5;
const NONCE_RETRY_MS = 200;

export async function preflight(
  env: Record<string, string | undefined>,
  fetchFn: typeof fetch = globalThis.fetch,
): Promise<PreflightResult> {
  let config: UrlTargetConfig;
  try {
    config = urlTargetConfigFromEnv(env);
  } catch (err) {
    throw new PreflightError((err as Error).message);
  }
  const base = config.baseUrl;

  // The merchant token, with the cheapest read there is (also tells whether the URL answers at all).
  const invoices = `${base}/v3/invoices/?page=1&per_page=1`;
  const m = await ask(fetchFn, invoices, { authorization: `Token ${config.creds.merchantToken}` });
  const wrongBase = notTheApi(base, 'GET /v3/invoices/', m);
  if (wrongBase) throw new PreflightError(wrongBase);
  if (m.status === 401 || m.status === 403)
    throw new PreflightError(
      `CONTRACT_MERCHANT_TOKEN is refused by ${base}: GET /v3/invoices/ answered ${describe(m)}`,
    );
  if (m.status !== 200)
    throw new PreflightError(
      `${base} is not ready: GET /v3/invoices/ with CONTRACT_MERCHANT_TOKEN answered ${describe(m)}`,
    );

  // The second merchant (scoping), when given: another merchant, and a working token.
  const token2 = config.creds.merchantToken2;
  if (token2 === config.creds.merchantToken)
    throw new PreflightError(
      'CONTRACT_MERCHANT_TOKEN_2 is CONTRACT_MERCHANT_TOKEN: the scoping case needs another merchant (or leave it unset)',
    );
  if (token2) {
    const m2 = await ask(fetchFn, invoices, { authorization: `Token ${token2}` });
    if (m2.status !== 200)
      throw new PreflightError(
        `CONTRACT_MERCHANT_TOKEN_2 is refused by ${base}: GET /v3/invoices/ answered ${describe(m2)}`,
      );
  }

  // A sandbox that guards its control API: the token must be given, and right. (Any other answer —
  // a 404 from a service without /_sandbox — is for the run to see.)
  const control = await ask(
    fetchFn,
    `${base}/_sandbox/clock`,
    config.controlToken ? { 'x-sandbox-token': config.controlToken } : {},
  );
  if (control.status === 401 && errorCodesOf(control.body).includes('control_token_required')) {
    throw new PreflightError(
      config.controlToken
        ? `CONTRACT_CONTROL_TOKEN is refused by ${base}: GET /_sandbox/clock answered ${describe(control)}`
        : `${base} is a sandbox with a control token: set CONTRACT_CONTROL_TOKEN to its SANDBOX_CONTROL_TOKEN`,
    );
  }

  // The HMAC key and secret, with a signed read. On a sandbox, a key never used before is given back
  // unused afterwards (the run itself works with its workspace's key).
  const controlHeaders: Record<string, string> = config.controlToken
    ? { 'x-sandbox-token': config.controlToken }
    : {};
  const nonceBefore =
    control.status === 200
      ? await sandboxLastNonce(fetchFn, base, controlHeaders, config.creds.apiKey)
      : undefined;
  const signer = createHmacSigner({
    apiKey: config.creds.apiKey,
    apiSecret: config.creds.apiSecret,
    nonceStart: config.creds.nonceStart,
  });
  const accounts = `${base}/v3/crypto-accounts/?currency=PBTC&per_page=1`;
  let h = await ask(fetchFn, accounts, signer.sign(accounts));
  // Runs started side by side on one key (several CI jobs, each preflighting the same credentials)
  // race on its nonce: a refused nonce is tried again a little later, when ours has passed theirs. A key
  // locked to a huge nonce is still refused every time.
  for (
    let retry = 0;
    retry < NONCE_RETRIES && errorCodesOf(h.body).includes('invalid_nonce');
    retry++
  ) {
    await new Promise((r) => setTimeout(r, NONCE_RETRY_MS));
    h = await ask(fetchFn, accounts, signer.sign(accounts));
  }
  const lastNonce = signer.nonces.last();
  const codes = errorCodesOf(h.body);
  if (h.status === 200) {
    if (nonceBefore === null) await forgetNonce(fetchFn, base, controlHeaders, config.creds.apiKey);
    return { config, lastNonce };
  }
  const what = `a signed GET /v3/crypto-accounts/ answered ${describe(h)}`;
  if (codes.includes('invalid_access_key'))
    throw new PreflightError(`CONTRACT_API_KEY is not known to ${base}: ${what}`);
  if (codes.includes('invalid_signature'))
    throw new PreflightError(
      `CONTRACT_API_SECRET does not match CONTRACT_API_KEY on ${base}: ${what}`,
    );
  if (codes.includes('invalid_nonce'))
    throw new PreflightError(
      `the key has seen a larger nonce than ours: ${what} — set CONTRACT_NONCE_START above it (e.g. 1.8e+262)`,
    );
  throw new PreflightError(
    `the HMAC credentials (CONTRACT_API_KEY, CONTRACT_API_SECRET) do not work on ${base}: ${what}`,
  );
}
