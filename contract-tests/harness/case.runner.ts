import { MONEY_SKIP_REASON } from '../../src/cli/target-rules.js';
import { buildCaseContext, ContractFailure, type ContractCase } from './case.context.js';
import { describeObservation, type Recorder } from './drift.recorder.js';
import type { Target, TargetInfo } from './target.types.js';

/** Every case ends within this bound (callbacks and long-polls included). */
export const CASE_TIMEOUT_MS = 60_000;

export interface CaseResult {
  name: string;
  tags: string[];
  state: 'pass' | 'fail' | 'skip';
  /** Why the case was skipped, or the failure message (with its drift entries). */
  message?: string;
  /** Operations that answered 501 not_implemented during the case. */
  notImplemented: string[];
  durationMs: number;
}

/** Why a case does not run on this target (its tags, then its own needs), or undefined. */
export function skipReason(c: ContractCase, target: Target): string | undefined {
  const info: TargetInfo = target.info;
  if (c.tags.includes('sandbox') && !info.hasControl)
    return `needs the control API: GET ${info.baseUrl}/_sandbox/clock answered 404`;
  if (c.tags.includes('money') && !info.allowMoney) return MONEY_SKIP_REASON;
  if (c.tags.includes('write') && !info.allowWrite)
    return 'creates data and CONTRACT_READ_ONLY=1 is set';
  return c.needs?.(target);
}

/** The 2FA failure's shape (`{"errors": {"code": "Two-factor code invalid!"}, "success": false}`). */
const OTP_FAILURE = /Two-factor code invalid/;

/**
 * A case that failed on the 2FA answer when the suite had no way to make a code (no control API,
 * no CONTRACT_OTP_SECRET) did not find drift: the key needs an OTP. Such a case is skipped, saying so.
 * Whether a key is whitelisted cannot be read from the public API, so this is known only once asked.
 */
function otpUnavailable(
  target: Target,
  observations: Array<{ status: number; excerpt: string; operationId: string | null }>,
): string | undefined {
  if (target.info.hasControl || target.creds.otpSecret) return undefined;
  const refused = observations.find((o) => o.status === 422 && OTP_FAILURE.test(o.excerpt));
  if (!refused) return undefined;
  return `the application needs an OTP (${refused.operationId ?? 'the call'} answered 422 Two-factor code invalid!): set CONTRACT_OTP_SECRET to its TOTP secret to run it`;
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new ContractFailure(`${what} did not finish within ${ms / 1000} s`)),
      ms,
    );
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

/**
 * Run one case: its own clients, every response checked. The case fails on its own assertions, on an
 * error, or on any finding of the checker it did not already report (status, content type, schema).
 */
export async function runCase(
  c: ContractCase,
  target: Target,
  recorder: Recorder,
  timeoutMs = CASE_TIMEOUT_MS,
): Promise<CaseResult> {
  const started = performance.now();
  const reason = skipReason(c, target);
  const base = { name: c.name, tags: c.tags };
  if (reason) return { ...base, state: 'skip', message: reason, notImplemented: [], durationMs: 0 };
  const { ctx, cleanup } = buildCaseContext(target, recorder, c.name);
  let error: unknown;
  try {
    await withTimeout(c.run(ctx), timeoutMs, `case "${c.name}"`);
  } catch (err) {
    error = err;
  } finally {
    await cleanup();
  }
  const observations = recorder.forCase(c.name);
  const otpSkip = error ? otpUnavailable(target, observations) : undefined;
  if (otpSkip) {
    for (const o of observations) o.reported = true;
    return {
      ...base,
      state: 'skip',
      message: otpSkip,
      notImplemented: [],
      durationMs: performance.now() - started,
    };
  }
  const notImplemented = [
    ...new Set(observations.filter((o) => o.status === 501).map((o) => o.operationId ?? o.path)),
  ];
  const unreported = observations.filter((o) => !o.reported && o.findings.length > 0);
  for (const o of unreported) o.reported = true;
  const durationMs = performance.now() - started;
  if (!error && unreported.length === 0)
    return { ...base, state: 'pass', notImplemented, durationMs };

  const parts: string[] = [];
  if (error)
    parts.push(
      error instanceof ContractFailure
        ? error.message
        : `${(error as Error).name ?? 'Error'}: ${(error as Error).message ?? String(error)}`,
    );
  if (unreported.length) {
    // The same finding on the same operation and status is one entry, with a count.
    const entries = new Map<string, { text: string; count: number }>();
    for (const o of unreported) {
      const key = `${o.operationId ?? o.path} ${o.status} ${o.findings.map((f) => f.message).join('|')}`;
      const e = entries.get(key) ?? { text: describeObservation(o), count: 0 };
      e.count += 1;
      entries.set(key, e);
    }
    parts.push(
      `Contract drift (${unreported.length} response${unreported.length > 1 ? 's' : ''}):`,
    );
    for (const e of entries.values())
      parts.push(e.count > 1 ? `${e.text}\n  (×${e.count} responses)` : e.text);
  }
  if (notImplemented.length)
    parts.push(`(not implemented on this target yet: ${notImplemented.join(', ')})`);
  return { ...base, state: 'fail', message: parts.join('\n'), notImplemented, durationMs };
}

/** Run cases one after another (the HMAC key and the sandbox clock are shared). */
export async function runCases(
  cases: ContractCase[],
  target: Target,
  recorder: Recorder,
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const c of cases) results.push(await runCase(c, target, recorder));
  return results;
}

/** For vitest: a failing case throws its message. */
export async function runCaseOrThrow(
  c: ContractCase,
  target: Target,
  recorder: Recorder,
): Promise<CaseResult> {
  const result = await runCase(c, target, recorder);
  if (result.state === 'fail') throw new ContractFailure(result.message);
  return result;
}
