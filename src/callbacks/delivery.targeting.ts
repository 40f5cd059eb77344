import type { CallbackOutcome } from './callback.request.js';
import {
  callbackUrlProblem,
  checkCallbackTarget,
  type TargetCheck,
} from './callback-target.guard.js';
import type { AttemptEnd } from './delivery-queue.repo.js';
import type { DispatcherDeps } from './delivery.dispatcher.types.js';
import { isInboxPath, resolveSandboxUrl } from '../shared/sandbox-url.js';

/**
 * Where an attempt goes and what follows it (docs/design.md#callbacks): the URL to send to, whether it may
 * be sent there, and the delivery's next step after the answer (delivered, a retry on the schedule, or
 * failed).
 */
export function createDeliveryTargeting(d: Pick<DispatcherDeps, 'config' | 'lookup'>) {
  // Without --block-private-callbacks the target check depends on the URL alone: remembered per URL.
  const urlProblems = new Map<string, string | null>();

  function nextStep(attempt: number, outcome: CallbackOutcome, now: number): AttemptEnd['next'] {
    if (outcome.delivered) return { status: 'delivered', next_attempt_at: null, at: now };
    const delay = d.config.retrySchedule[attempt - 1];
    if (delay === undefined) return { status: 'failed', next_attempt_at: null, at: now };
    return { status: 'pending', next_attempt_at: now + Math.round(delay * 1_000_000), at: now };
  }

  /** With --block-private-callbacks the name is resolved and checked per attempt (and pinned); else per URL. */
  function targetCheck(url: string): TargetCheck | Promise<TargetCheck> {
    if (d.config.blockPrivateCallbacks)
      return checkCallbackTarget(url, { blockPrivate: true, lookup: d.lookup });
    let problem = urlProblems.get(url);
    if (problem === undefined) {
      problem = callbackUrlProblem(url);
      if (urlProblems.size >= 1000) urlProblems.clear();
      urlProblems.set(url, problem);
    }
    return { problem };
  }

  /**
   * The URL to send to: a merchant URL that is a path of the sandbox (its example receiver) is resolved
   * against the sandbox's own address now, so it follows the port the sandbox listens on.
   */
  function targetOf(callbackUrl: string): { url: string; own: boolean } {
    return isInboxPath(callbackUrl)
      ? { url: resolveSandboxUrl(callbackUrl, d.config.internalUrl), own: true }
      : { url: callbackUrl, own: false };
  }

  return { nextStep, targetCheck, targetOf };
}
