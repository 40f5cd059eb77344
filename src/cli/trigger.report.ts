import type { AttemptMessage } from '../callbacks/event-stream.js';
import type { EventName } from '../events/outbox.repo.js';

// What `paysandbox trigger` (trigger.ts) prints: each attempt as it happens and the delivery's outcome.

/** A delivery of the control API (`GET /_sandbox/deliveries/{id}`), as much of it as trigger prints. */
export interface Delivery {
  id: string;
  event: EventName;
  created_at: string;
  status: 'pending' | 'delivering' | 'delivered' | 'failed';
  url: string | null;
  attempts_count: number;
  next_attempt_at: string | null;
  last_error: string | null;
  attempts?: Array<{
    attempt: number;
    status_code: number | null;
    duration_ms: number;
    response_excerpt: string | null;
    error: string | null;
  }>;
}

/** One attempt, as the event stream tells it. */
export function attemptLine(a: AttemptMessage): string {
  const answer = a.status_code !== null ? `${a.status_code}` : 'no answer';
  const next =
    a.status === 'pending' ? `, retry at ${a.next_attempt_at} (sandbox clock)` : `, ${a.status}`;
  return `→ ${a.event} attempt ${a.attempt} to ${a.url}: ${answer} in ${a.duration_ms.toFixed(1)} ms${a.error ? ` (${a.error})` : ''}${next}`;
}

/** The delivery's outcome: its status, then each attempt, the last error and the next attempt. */
export function describeDelivery(d: Delivery): string {
  const lines = [
    `delivery ${d.id} ${d.status} after ${d.attempts_count} attempt(s) to ${d.url ?? '(no callback_url)'}`,
  ];
  for (const a of d.attempts ?? []) {
    const answer = a.status_code !== null ? `${a.status_code}` : 'no answer';
    const said = a.response_excerpt
      ? `  receiver answered: ${a.response_excerpt.replace(/\s+/g, ' ').slice(0, 200)}`
      : '';
    lines.push(
      `  attempt ${a.attempt}  ${answer}  ${a.duration_ms.toFixed(1)} ms${a.error ? `  ${a.error}` : ''}${said}`,
    );
  }
  if (d.status !== 'delivered' && d.last_error) lines.push(`  last error: ${d.last_error}`);
  if (d.status === 'pending' && d.next_attempt_at && d.attempts_count > 0)
    lines.push(`  next attempt at ${d.next_attempt_at} (sandbox clock)`);
  return lines.join('\n');
}

/** An earlier delivery of the same invoice that this one waits for (callbacks of an invoice go out in order). */
export function waitingForLine(x: Delivery): string {
  return `  waiting for the earlier ${x.event} (delivery ${x.id}, ${x.status}, ${x.attempts_count} attempt(s)${x.last_error ? `: ${x.last_error}` : ''})`;
}
