import { trimEnd } from '../../src/shared/trim.js';
import {
  createControlClient,
  createHmacSigner,
  type ControlClient,
} from '../../src/client/index.js';
import { assertBaseUrl, DEFAULT_MIN_INTERVAL_MS } from '../../src/cli/target-rules.js';
import { takeRunWorkspaces, workspaceCredentials } from './run.workspace.js';
import { createSandboxTarget } from './sandbox.target.js';
import {
  assertNotProduction,
  flag,
  intFromEnv,
  isLoopbackHost,
  newRunId,
  pacedFetch,
} from './target.safety.js';
import type { Credentials, Target, TargetOptions } from './target.types.js';

export { assertBaseUrl, DEFAULT_MIN_INTERVAL_MS } from '../../src/cli/target-rules.js';

export interface UrlTargetConfig {
  baseUrl: string;
  creds: Credentials;
  allowMoney: boolean;
  allowWrite: boolean;
  minIntervalMs: number;
  controlToken?: string;
  /** Set from CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1. */
  productionConfirmed?: boolean;
  /** CONTRACT_WORKSPACE_LEDGER: where `paysandbox contract` reads the run's live workspaces. */
  workspaceLedger?: string;
}

/** Read the url target from CONTRACT_* variables; says which required ones are missing. */
export function urlTargetConfigFromEnv(env: Record<string, string | undefined>): UrlTargetConfig {
  const baseUrl = trimEnd(env.CONTRACT_BASE_URL ?? '', '/');
  const {
    CONTRACT_BASE_URL: base,
    CONTRACT_API_KEY: apiKey,
    CONTRACT_API_SECRET: apiSecret,
    CONTRACT_MERCHANT_TOKEN: merchantToken,
  } = env;
  if (!base || !apiKey || !apiSecret || !merchantToken) {
    const missing = [
      'CONTRACT_BASE_URL',
      'CONTRACT_API_KEY',
      'CONTRACT_API_SECRET',
      'CONTRACT_MERCHANT_TOKEN',
    ].filter((n) => !env[n]);
    throw new Error(`The url target needs ${missing.join(', ')} (see docs/contract-tests.md).`);
  }
  assertBaseUrl(base);
  assertNotProduction(baseUrl, env);
  const opt = (name: string) => env[name] || undefined;
  return {
    baseUrl,
    creds: {
      merchantToken,
      merchantBearer: opt('CONTRACT_MERCHANT_BEARER_TOKEN'),
      merchantToken2: opt('CONTRACT_MERCHANT_TOKEN_2'),
      apiKey,
      apiSecret,
      nonceStart: opt('CONTRACT_NONCE_START'),
      otpSecret: opt('CONTRACT_OTP_SECRET'),
      transferTarget: opt('CONTRACT_TRANSFER_TARGET'),
    },
    allowMoney: flag(env, 'CONTRACT_ALLOW_MONEY'),
    allowWrite: !flag(env, 'CONTRACT_READ_ONLY'),
    minIntervalMs: intFromEnv(env, 'CONTRACT_MIN_INTERVAL_MS', DEFAULT_MIN_INTERVAL_MS),
    controlToken: opt('CONTRACT_CONTROL_TOKEN'),
    productionConfirmed: env.CONTRACT_I_KNOW_THIS_IS_PRODUCTION === '1',
    workspaceLedger: opt('CONTRACT_WORKSPACE_LEDGER'),
  };
}

/** The control-API id of the merchant with this token (a sandbox behind a URL), best effort. */
async function merchantIdOf(control: ControlClient, token: string): Promise<string | undefined> {
  for (let page: number | null = 1, i = 0; page !== null && i < 20; i++) {
    const res: Awaited<ReturnType<ControlClient['listMerchants']>> | undefined = await control
      .listMerchants({ page, per_page: 100 })
      .catch(() => undefined);
    if (!res) return undefined;
    const found = res.merchants.find((m) => m.merchant_api_token === token);
    if (found) return found.id;
    page = res.meta.next_page;
  }
  return undefined;
}

/**
 * Any base URL (a sandbox started elsewhere, or the real staging service), reached with the
 * credentials given. Requests are paced; `/_sandbox` cases run only when the target has it.
 */
export async function createUrlTarget(
  config: UrlTargetConfig,
  opts: TargetOptions = {},
): Promise<Target> {
  assertNotProduction(config.baseUrl, {
    CONTRACT_I_KNOW_THIS_IS_PRODUCTION: config.productionConfirmed ? '1' : undefined,
  });
  const fetchFn = pacedFetch(opts.fetch ?? globalThis.fetch, config.minIntervalMs);
  const control = createControlClient({
    baseUrl: config.baseUrl,
    fetch: fetchFn,
    controlToken: config.controlToken,
  });
  const hasControl = await control.available();
  // A sandbox behind the URL: the run takes its own workspaces and works in them alone, so that runs
  // side by side share nothing and nothing global changes (the clock, faults, the fixture merchants).
  const workspaces = hasControl
    ? await takeRunWorkspaces(control, undefined, config.workspaceLedger)
    : undefined;
  const creds = workspaces ? workspaceCredentials(workspaces) : { ...config.creds };
  if (hasControl && !creds.merchantId)
    creds.merchantId = await merchantIdOf(control, creds.merchantToken);
  const signer = createHmacSigner({
    apiKey: creds.apiKey,
    apiSecret: creds.apiSecret,
    nonceStart: creds.nonceStart,
  });
  // The preflight (another process) already spent a nonce on the given key: start above it (harmless on
  // a workspace's fresh key).
  if (opts.nonceFloor) signer.nonces.advancePast(opts.nonceFloor);
  return {
    info: {
      kind: 'url',
      baseUrl: config.baseUrl,
      hasControl,
      allowMoney: config.allowMoney,
      allowWrite: config.allowWrite,
      runId: opts.runId ?? newRunId(),
      credentialSource: workspaces ? 'workspace' : 'env',
      workspaceId: workspaces?.main.id,
      loopback: isLoopbackHost(new URL(config.baseUrl).hostname),
    },
    creds,
    fetch: fetchFn,
    signer,
    controlToken: config.controlToken,
    close: async () => workspaces?.release(),
  };
}

/** CONTRACT_BASE_URL set → the url target; otherwise the sandbox in-process. */
export async function createTargetFromEnv(
  env: Record<string, string | undefined>,
  opts: TargetOptions = {},
): Promise<Target> {
  const runId = opts.runId ?? (env.CONTRACT_RUN_ID || undefined);
  if (env.CONTRACT_BASE_URL)
    return createUrlTarget(urlTargetConfigFromEnv(env), { ...opts, runId });
  return createSandboxTarget({ ...opts, runId });
}
