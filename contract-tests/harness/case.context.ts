import { RETRY_AFTER } from '../../src/cli/target-rules.js';
import {
  createControlClient,
  createDeveloperClient,
  createHmacSigner,
  createMerchantClient,
  createTransport,
  errorCodesOf,
  PaySandboxApiError,
  type ApiResponse,
  type ControlClient,
  type DeveloperClient,
  type HmacSigner,
  type MerchantClient,
  type Transport,
} from '../../src/client/index.js';
import { currentOtp } from '../../src/auth/otp.js';
import { startCallbackReceiver, type CallbackReceiver } from './callback.receiver.js';
import { describeObservation, type Recorder } from './drift.recorder.js';
import { referenceMaker } from './target.safety.js';
import type { Credentials, Tag, Target, TargetInfo } from './target.types.js';

/** A failed expectation of the contract; its message is the readable drift entry. */
export class ContractFailure extends Error {
  override readonly name = 'ContractFailure';
}

export interface CaseContext {
  name: string;
  info: TargetInfo;
  creds: Credentials;
  /** The merchant with `Authorization: Token …`, v1 paths. */
  merchant: MerchantClient;
  /** The same merchant with `Authorization: Bearer …`, v3 paths. */
  merchantV3: MerchantClient;
  /** A second merchant (scoping), when the target has one. */
  merchant2?: MerchantClient;
  dev: DeveloperClient;
  /** A developer client of another application (its own key queue and nonces). */
  devFor(apiKey: string, apiSecret: string): DeveloperClient;
  control: ControlClient;
  /** No credentials at all. */
  anon: Transport;
  /** A reference unique to this run (`ct-<run>-<label>-<n>`). */
  ref(label: string): string;
  /** The response must have this status (and pass the document's checks). */
  expectStatus(res: ApiResponse, status: number): void;
  /**
   * The response must be this error: the status; the code, wherever the body names one (`error_codes`,
   * or the sandbox's `sandbox_debug.code`; a real body that names none is judged by status and field);
   * and the field in `errors` when given.
   */
  expectError(res: ApiResponse, status: number, code: string, field?: string): void;
  /** A typed call must fail like this; returns the error. */
  rejects(
    call: Promise<unknown>,
    status: number,
    code?: string,
    field?: string,
  ): Promise<PaySandboxApiError>;
  /** A condition on the last response (of `operationId`, when given); a false one is drift. */
  check(condition: boolean, message: string, operationId?: string): void;
  /**
   * A value the contract says is there (an item of a list, a wallet of the application): returned when
   * present, else `message` is drift (on the last response of `operationId`, when given).
   */
  expectPresent<T>(value: T | null | undefined, message: string, operationId?: string): T;
  /** The most recent response of this case (of `operationId`, when given). */
  lastResponse(operationId?: string): ApiResponse | undefined;
  /** The most recent response of `operationId` must have this status; no such response is drift too. */
  expectLastStatus(operationId: string, status: number): void;
  /** An OTP for money endpoints: from the control API (sandbox clock) or the TOTP secret. */
  otp(): Promise<string | undefined>;
  /** A callback receiver on 127.0.0.1, closed after the case. */
  receiver(label: string): Promise<CallbackReceiver>;
  /** Run after the case, pass or fail. */
  defer(cleanup: () => Promise<void> | void): void;
}

export interface ContractCase {
  name: string;
  tags: Tag[];
  /** Why this case cannot run on a target beyond what its tags say, or undefined. */
  needs?: (target: Target) => string | undefined;
  run(ctx: CaseContext): Promise<void>;
}

/** One signer per application key for the whole run, so every request on a key shares its queue and nonces. */
const signersByTarget = new WeakMap<Target, Map<string, HmacSigner>>();
function signerFor(target: Target, apiKey: string, apiSecret: string): HmacSigner {
  let signers = signersByTarget.get(target);
  if (!signers)
    signersByTarget.set(target, (signers = new Map([[target.signer.apiKey, target.signer]])));
  let signer = signers.get(apiKey);
  if (!signer) signers.set(apiKey, (signer = createHmacSigner({ apiKey, apiSecret })));
  return signer;
}

/** One reference maker per run: a label used by two cases still gives two references. */
const refsByTarget = new WeakMap<Target, (label: string) => string>();
function refMaker(target: Target): (label: string) => string {
  let make = refsByTarget.get(target);
  if (!make) refsByTarget.set(target, (make = referenceMaker(target.info.runId)));
  return make;
}

export interface BuiltContext {
  ctx: CaseContext;
  cleanup(): Promise<void>;
}

/** Clients bound to one case: every response goes through the checker, recorded under the case name. */
export function buildCaseContext(target: Target, recorder: Recorder, name: string): BuiltContext {
  const { info, creds } = target;
  const responses: ApiResponse[] = [];
  const onResponse = (res: ApiResponse) => {
    responses.push(res);
    recorder.observe(res, name);
  };
  // Retry-After: honour short waits; a longer one ends the case with the 429/503 as its finding.
  const common = {
    baseUrl: info.baseUrl,
    fetch: target.fetch,
    onResponse,
    retry: { ...RETRY_AFTER },
    timeoutMs: 20_000,
  };
  const cleanups: Array<() => Promise<void> | void> = [];
  // Plumbing (OTP lookup) is not part of the contract under test: no checker on it.
  const quietControl = createControlClient({
    ...common,
    onResponse: undefined,
    controlToken: target.controlToken,
  });
  const makeRef = refMaker(target);

  function fail(res: ApiResponse | undefined, message: string): never {
    const obs = res ? recorder.expectationFailed(res, message) : undefined;
    if (obs) obs.reported = true;
    throw new ContractFailure(obs ? `${message}\n${describeObservation(obs)}` : message);
  }

  const codesOf = (res: ApiResponse): string[] => errorCodesOf(res.body);

  const ctx: CaseContext = {
    name,
    info,
    creds,
    merchant: createMerchantClient({ ...common, token: creds.merchantToken }),
    merchantV3: createMerchantClient({
      ...common,
      token: creds.merchantBearer ?? creds.merchantToken,
      scheme: 'Bearer',
      version: 'v3',
    }),
    merchant2: creds.merchantToken2
      ? createMerchantClient({ ...common, token: creds.merchantToken2 })
      : undefined,
    dev: createDeveloperClient({ ...common, signer: target.signer }),
    devFor: (apiKey, apiSecret) =>
      createDeveloperClient({ ...common, signer: signerFor(target, apiKey, apiSecret) }),
    control: createControlClient({ ...common, controlToken: target.controlToken }),
    anon: createTransport({ ...common }),
    ref: (label) => makeRef(label),
    expectStatus(res, status) {
      recorder.expected(res, status);
      if (res.status !== status) fail(res, `expected ${status}, observed ${res.status}`);
    },
    expectError(res, status, code, field) {
      recorder.expected(res, status);
      const want = `${status} ${code}${field ? ` on "${field}"` : ''}`;
      if (res.status !== status)
        fail(res, `expected ${want}, observed ${res.status} ${JSON.stringify(codesOf(res))}`);
      const codes = codesOf(res);
      if (codes.length > 0 && !codes.includes(code))
        fail(res, `expected ${want}, observed codes ${JSON.stringify(codes)}`);
      const errors = (res.body as { errors?: Record<string, unknown> } | null)?.errors;
      if (field && !(errors && field in errors))
        fail(
          res,
          `expected ${want}, observed errors on ${JSON.stringify(Object.keys(errors ?? {}))}`,
        );
    },
    async rejects(call, status, code, field) {
      let outcome: unknown;
      try {
        outcome = await call;
      } catch (err) {
        if (!(err instanceof PaySandboxApiError)) throw err;
        if (code) ctx.expectError(err.response, status, code, field);
        else ctx.expectStatus(err.response, status);
        return err;
      }
      return fail(
        responses.at(-1),
        `expected ${status}${code ? ` ${code}` : ''}, the call succeeded: ${JSON.stringify(outcome)?.slice(0, 160)}`,
      );
    },
    check(condition, message, operationId) {
      if (!condition) fail(ctx.lastResponse(operationId), message);
    },
    expectPresent(value, message, operationId) {
      if (value === undefined || value === null)
        return fail(ctx.lastResponse(operationId), message);
      return value;
    },
    lastResponse: (operationId) =>
      [...responses].reverse().find((r) => !operationId || r.operationId === operationId),
    expectLastStatus(operationId, status) {
      const res = ctx.lastResponse(operationId);
      if (!res) return fail(undefined, `expected a ${status} response of ${operationId}, saw none`);
      ctx.expectStatus(res, status);
    },
    async otp() {
      if (info.hasControl) {
        const res = await quietControl.getAppOtp(creds.apiKey).catch(() => undefined);
        if (res) return res.otp;
      }
      return creds.otpSecret ? currentOtp(creds.otpSecret, Date.now()).otp : undefined;
    },
    async receiver(label) {
      const r = await startCallbackReceiver(`${info.runId}-${label}`);
      cleanups.push(() => r.close());
      return r;
    },
    defer: (fn) => void cleanups.push(fn),
  };

  return {
    ctx,
    async cleanup() {
      for (const fn of cleanups.splice(0).reverse())
        await Promise.resolve(fn()).catch(() => undefined);
    },
  };
}
