import { trimEnd } from '../shared/trim.js';
import { createHmacSigner, type HmacSigner } from '../client/hmac.signer.js';

/** Where parity sends its requests: a sandbox in this process, or one at a URL. */
export interface Target {
  /** Scheme, host and port, no trailing slash: the base every recorded path is sent under. */
  baseUrl: string;
  fetch: typeof fetch;
  /** `X-Sandbox-Token` for the control API, when the target guards it. */
  controlHeaders: Record<string, string>;
  close(): Promise<void>;
}

/** What one fresh workspace gives parity to authenticate with. */
export interface Credentials {
  merchantToken: string;
  apiKey: string;
  signer: HmacSigner;
  bearer: string;
  /** An application that is not MFA-whitelisted (the two-factor failures). */
  mfaSigner: HmacSigner;
  /** An application whose owner is not a business account (HMAC sell orders refused). */
  nonBusinessSigner: HmacSigner;
  /** The app owner's wallet accounts by currency. */
  accounts: Record<string, string>;
  customerEmail: string;
  customerPhone: string;
}

const IN_PROCESS_BASE = 'http://127.0.0.1:7070';

/**
 * A fresh in-memory sandbox with the committed fixtures; requests go straight to its app (no socket).
 * Loaded lazily so that the CLI's other commands never build one.
 */
export async function inProcessTarget(): Promise<Target> {
  const { createSandbox } = await import('../sandbox.js');
  const sandbox = createSandbox({
    config: { db: ':memory:', publicUrl: IN_PROCESS_BASE, quiet: true },
  });
  return {
    baseUrl: IN_PROCESS_BASE,
    fetch: (input, init) => Promise.resolve(sandbox.app.fetch(new Request(input, init))),
    controlHeaders: {},
    close: () => sandbox.close(),
  };
}

/** A service at a URL; `inner` is the fetch to send with (replay: paced). */
export function urlTarget(
  baseUrl: string,
  controlToken?: string,
  inner: typeof fetch = globalThis.fetch,
): Target {
  return {
    baseUrl: trimEnd(baseUrl, '/'),
    fetch: (input, init) =>
      inner(input, { ...init, redirect: 'manual', signal: AbortSignal.timeout(15_000) }),
    controlHeaders: controlToken ? { 'x-sandbox-token': controlToken } : {},
    close: () => Promise.resolve(),
  };
}

async function control<T>(t: Target, method: string, path: string, body?: unknown): Promise<T> {
  const res = await t.fetch(`${t.baseUrl}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...t.controlHeaders,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300)
    throw new Error(
      `the target's control API answered ${method} ${path} with ${res.status}: ${text.slice(0, 200)}`,
    );
  return JSON.parse(text) as T;
}

interface WorkspaceBody {
  workspace: {
    merchant: { merchant_api_token: string };
    app: {
      api_key: string;
      api_secret: string;
      owner: { accounts: Array<{ id: string; currency: string }> };
    };
    customer: { email: string; mobile_number: string };
  };
}

/**
 * A fresh workspace (`POST /_sandbox/workspaces`), a bearer token of its app, an app with MFA and one of a
 * developer that is not a business account (with a daily buy limit of PHP 400,000).
 */
export async function freshCredentials(t: Target): Promise<Credentials> {
  const { workspace: ws } = await control<WorkspaceBody>(t, 'POST', '/_sandbox/workspaces', {});
  const token = await control<{ access_token: string }>(
    t,
    'POST',
    `/_sandbox/apps/${ws.app.api_key}/tokens`,
    {},
  );
  const mfa = await control<{ app: { api_key: string; api_secret: string } }>(
    t,
    'POST',
    '/_sandbox/apps',
    { mfa_whitelisted: false },
  );
  const plain = await control<{ app: { api_key: string; api_secret: string } }>(
    t,
    'POST',
    '/_sandbox/apps',
    // A personal account, with a daily cash-in limit like a real verified one (PHP 400,000).
    { mfa_whitelisted: true, business_account: false, daily_buy_limit: '400000' },
  );
  return {
    merchantToken: ws.merchant.merchant_api_token,
    apiKey: ws.app.api_key,
    signer: createHmacSigner({ apiKey: ws.app.api_key, apiSecret: ws.app.api_secret }),
    bearer: token.access_token,
    mfaSigner: createHmacSigner({ apiKey: mfa.app.api_key, apiSecret: mfa.app.api_secret }),
    nonBusinessSigner: createHmacSigner({
      apiKey: plain.app.api_key,
      apiSecret: plain.app.api_secret,
    }),
    accounts: Object.fromEntries(ws.app.owner.accounts.map((a) => [a.currency, a.id])),
    customerEmail: ws.customer.email,
    customerPhone: ws.customer.mobile_number,
  };
}

/** A buy order of the workspace's app, made through the control API. */
export async function provisionBuyOrder(t: Target, creds: Credentials): Promise<string> {
  const body = await control<{ order: { id: string } }>(t, 'POST', '/_sandbox/buyorders', {
    api_key: creds.apiKey,
    amount: '624',
  });
  return body.order.id;
}
