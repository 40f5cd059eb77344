import { formatTimestamp } from '../shared/clock.js';
import type { Blocker, DeliveryRow } from './deliveries.repo.js';

/** The cause of the last failure, cut to one readable line. */
function cause(error: string | null): string {
  if (!error) return 'no answer yet';
  return error.length > 160 ? `${error.slice(0, 157)}…` : error;
}

/** Why the earlier delivery holds this one: failing (with its next attempt), being sent, or queued itself. */
function blockerState(b: Blocker, attempts: number): string {
  if (b.status === 'delivering')
    return `which is being sent (attempt ${b.attempts_count} of ${attempts})`;
  if (b.attempts_count > 0) {
    const next =
      b.next_attempt_at === null
        ? ''
        : `; its attempt ${b.attempts_count + 1} of ${attempts} is at ${formatTimestamp(b.next_attempt_at)}`;
    return `which is failing (${b.attempts_count} attempt(s), last: ${cause(b.last_error)}${next})`;
  }
  return 'which has not been sent yet';
}

/**
 * Why a delivery that is not finished waits (docs/design.md#callbacks), or null once it is delivered
 * or failed: queued behind an earlier delivery of its invoice (per-invoice order), the time of its
 * next attempt, or being sent now. Never a bare time in the past.
 *
 * @example
 * // 'queued behind delivery 01a2… (invoice.created), which is failing (1 attempt(s), last: receiver answered 503; …)'
 */
export function waitingReason(
  row: Pick<DeliveryRow, 'status' | 'attempts_count' | 'next_attempt_at' | 'last_error'>,
  blocker: Blocker | undefined,
  now: number,
  attempts: number,
): string | null {
  const n = row.attempts_count + 1;
  if (row.status === 'delivering')
    return `attempt ${row.attempts_count} of ${attempts} is being sent`;
  if (row.status !== 'pending') return null;
  if (blocker)
    return `queued behind delivery ${blocker.id} (${blocker.event}), ${blockerState(blocker, attempts)}`;
  const failed =
    row.attempts_count > 0
      ? `attempt ${row.attempts_count} failed (${cause(row.last_error)}); `
      : '';
  if (row.next_attempt_at !== null && row.next_attempt_at > now) {
    return `${failed}next attempt at ${formatTimestamp(row.next_attempt_at)} (attempt ${n} of ${attempts})`;
  }
  return `${failed}due now: attempt ${n} of ${attempts} goes out as soon as a slot is free`;
}
