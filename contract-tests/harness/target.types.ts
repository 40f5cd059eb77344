import type { HmacSigner } from '../../src/client/index.js';

/**
 * Tags of the contract cases (docs/design.md#contract-test-kit): `read` is safe anywhere, `write` creates invoices,
 * `money` moves money (only with CONTRACT_ALLOW_MONEY=1 outside the sandbox), `sandbox` needs `/_sandbox`.
 */
export type Tag = 'read' | 'write' | 'money' | 'sandbox';
export const TAGS: readonly Tag[] = ['read', 'write', 'money', 'sandbox'];

export interface Credentials {
  /** `Authorization: Token <merchantToken>`. */
  merchantToken: string;
  /** The v3 bearer token, when the merchant has one besides its API token. */
  merchantBearer?: string;
  /** A second merchant, for scoping checks (another merchant's invoice is a 404). */
  merchantToken2?: string;
  apiKey: string;
  apiSecret: string;
  /** Floor of the nonce source, for keys locked to huge nonces. */
  nonceStart?: string;
  /** Base32 TOTP secret of the application, when it is not MFA-whitelisted (url targets). */
  otpSecret?: string;
  /** Who receives the test transfer (account id, email or mobile number). */
  transferTarget?: string;
  /** A funded customer (email or id) that pays invoices through the control API (sandbox only). */
  customer?: string;
  /** Control-API id of the merchant (sandbox only: callback_url is set through it). */
  merchantId?: string;
}

export interface TargetInfo {
  kind: 'sandbox' | 'url';
  baseUrl: string;
  /** `GET /_sandbox/clock` answered something other than 404. */
  hasControl: boolean;
  allowMoney: boolean;
  /** False with CONTRACT_READ_ONLY=1: `write` cases are skipped. */
  allowWrite: boolean;
  /** Unique per run; part of every external_transaction_id the suite sends. */
  runId: string;
  /** Where the credentials came from. */
  credentialSource: 'workspace' | 'fixtures' | 'env';
  /**
   * The run's own workspace, on a target with the control API: the credentials are its, and the cases
   * move only its clock (docs/contract-tests.md#sharing-a-sandbox). Deleted when the run ends.
   */
  workspaceId?: string;
  /** The target runs on this machine (a callback receiver on 127.0.0.1 is reachable from it). */
  loopback: boolean;
}

/**
 * What the suite runs against: the sandbox started in-process, or any base URL. One interface, two
 * implementations (house style: the unkey `apps/api` harness).
 */
export interface Target {
  info: TargetInfo;
  creds: Credentials;
  /** The fetch every client of this target uses (pacing; test-only response rewriting). */
  fetch: typeof fetch;
  /** One signer per key for the whole run: requests on the key are serialized with monotonic nonces. */
  signer: HmacSigner;
  /** `X-Sandbox-Token` for the control API, when the target needs one. */
  controlToken?: string;
  close(): Promise<void>;
}

export interface TargetOptions {
  /** Test-only: wrap the network (the meta-tests inject deviations through it). */
  fetch?: typeof fetch;
  runId?: string;
  /** The last nonce spent on the key before the run (by the preflight); the run's nonces start above it. */
  nonceFloor?: string;
  /** Sandbox target only (meta-tests): the fixtures' credentials with this merchant, instead of a workspace. */
  fixtureMerchant?: number;
}
