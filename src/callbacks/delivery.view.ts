import { formatTimestamp } from '../shared/clock.js';
import { isInboxPath, resolveSandboxUrl } from '../shared/sandbox-url.js';
import type { AttemptRow, DeliveryRow } from './deliveries.repo.js';

/** One attempt as the delivery log shows it (schema `DeliveryAttempt`). */
export function attemptResource(a: AttemptRow) {
  return {
    attempt: a.attempt,
    started_at: formatTimestamp(a.started_at),
    url: a.url,
    request_headers: JSON.parse(a.request_headers) as Record<string, string>,
    request_body: a.request_body,
    status_code: a.status_code,
    response_excerpt: a.response_excerpt,
    duration_ms: a.duration_ms,
    error: a.error,
  };
}

/** What made a delivery (schema `Delivery.kind`). */
export type DeliveryKind = 'event' | 'redelivery' | 'manual';

/** What the view needs besides the row: why it waits, what made it, and the sandbox's own address. */
export interface DeliveryContext {
  kind: DeliveryKind;
  waiting_reason: string | null;
  /** The address the sandbox reaches itself at (`config.internalUrl`), where its inbox paths go. */
  internalUrl: string;
}

/**
 * The URL a delivery goes (or went) to, always absolute: a merchant URL that is a path of the sandbox (its
 * example receiver) is resolved as the dispatcher resolves it, so a delivery reads the same before its
 * first attempt (a POST answer) as after it (the dispatcher records the URL it sent to).
 */
function deliveryUrl(url: string | null, internalUrl: string): string | null {
  return url !== null && isInboxPath(url) ? resolveSandboxUrl(url, internalUrl) : url;
}

/** A delivery (schema `Delivery`); `attempts` only when they were read. */
export function deliveryResource(d: DeliveryRow, ctx: DeliveryContext, attempts?: AttemptRow[]) {
  return {
    id: d.id,
    event_id: d.event_id,
    event: d.event,
    invoice_id: d.invoice_id,
    merchant_id: d.merchant_id,
    url: deliveryUrl(d.url, ctx.internalUrl),
    status: d.status,
    attempts_count: d.attempts_count,
    next_attempt_at: d.next_attempt_at === null ? null : formatTimestamp(d.next_attempt_at),
    created_at: formatTimestamp(d.created_at),
    delivered_at: d.delivered_at === null ? null : formatTimestamp(d.delivered_at),
    last_error: d.last_error,
    redelivery_of: d.redelivery_of,
    kind: ctx.kind,
    waiting_reason: ctx.waiting_reason,
    body: JSON.parse(d.body) as Record<string, unknown>,
    ...(attempts ? { attempts: attempts.map(attemptResource) } : {}),
  };
}

export type DeliveryResource = ReturnType<typeof deliveryResource>;
