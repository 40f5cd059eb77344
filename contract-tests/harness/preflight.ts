import { createHmacSigner, errorCodesOf } from '../../src/client/index.js';
import {
  ask,
  checkMerchantToken,
  describeAnswer as describe,
  hmacRefusal,
  PREFLIGHT_TIMEOUT_MS,
  PreflightError,
  signedRead,
} from '../../src/cli/preflight.checks.js';
import { urlTargetConfigFromEnv, type UrlTargetConfig } from './url.target.js';

/*
 * Before any case runs against a URL: is the URL a base, does it answer, and do the credentials
 * work? Each problem becomes one line a person can act on, instead of a stack trace or dozens of
 * "expected 200, observed 401" drifts (docs/contract-tests.md, "Preflight"). The checks themselves are
 * shared with `paysandbox replay` (src/cli/preflight.checks.ts).
 */
export { PREFLIGHT_TIMEOUT_MS, PreflightError } from '../../src/cli/preflight.checks.js';

export interface PreflightResult {
  config: UrlTargetConfig;
  /** The last nonce the preflight's signed request used: the suite starts above it. */
  lastNonce: string;
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
  await checkMerchantToken(fetchFn, base, config.creds.merchantToken);
  const invoices = `${base}/v3/invoices/?page=1&per_page=1`;

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
  const h = await signedRead(fetchFn, base, signer);
  const lastNonce = signer.nonces.last();
  if (h.status === 200) {
    if (nonceBefore === null) await forgetNonce(fetchFn, base, controlHeaders, config.creds.apiKey);
    return { config, lastNonce };
  }
  throw hmacRefusal(base, h);
}
