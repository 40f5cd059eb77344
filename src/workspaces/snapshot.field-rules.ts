import { currentOtp } from '../auth/otp.js';
import { EVENT_NAMES } from '../events/outbox.repo.js';
import { COUNTER_COLLECTORS, WALLET_COLLECTOR } from '../invoices/invoice.model.js';
import { PESOS_PER_COIN } from '../shared/rates.js';
import { isInboxPath, merchantUrlProblem, type MerchantUrlScope } from '../shared/sandbox-url.js';
import type { SnapshotRow } from './snapshot.capture.js';
import { unitsOf } from './snapshot.columns.js';

/**
 * The rules of the API for the values a document carries (docs/design.md#saved-states): what the schema
 * of the document leaves as plain text or numbers (JSON held in a text column, enums, URLs, lengths,
 * limits, secrets) is held to what the API itself accepts when the value is written through it, so that
 * no later request fails on a restored value. A rule answers the message of a bad value, or null.
 * Which field is held to which rule: snapshot.fields.ts.
 */
export type Rule = (value: unknown, row: SnapshotRow, doc: DocumentScope) => string | null;

/** What a rule may need beyond its row: whose example receiver a merchant URL may name. */
export interface DocumentScope {
  merchantUrls: MerchantUrlScope;
}

export const COLLECTORS = [WALLET_COLLECTOR, ...COUNTER_COLLECTORS];
export const CURRENCIES = ['PHP', ...Object.keys(PESOS_PER_COIN)];
/** The `email` format of the document's inputs (ajv-formats' fast email). */
export const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
export const MOBILE = /^\+?[0-9]{7,15}$/;
/** `invoice_lifetime_seconds` of a merchant, as PATCH /_sandbox/merchants takes it. */
export const MAX_LIFETIME_SECONDS = 31_622_400;

export const nullable =
  (rule: Rule): Rule =>
  (v, row, doc) =>
    v === null ? null : rule(v, row, doc);

export const length =
  (min: number, max: number): Rule =>
  (v) =>
    typeof v === 'string' && v.length >= min && v.length <= max
      ? null
      : min > 0
        ? `Ensure this field has between ${min} and ${max} characters.`
        : `Ensure this field has no more than ${max} characters.`;

export const oneOf =
  (choices: readonly (string | number)[]): Rule =>
  (v) =>
    choices.includes(v as string | number) ? null : `"${String(v)}" is not a valid choice.`;

export const flag = oneOf([0, 1]);
export const eventName = oneOf(EVENT_NAMES);

/**
 * `disabled` of a merchant or an application: always 0 in a saved state. The sandbox disables them only
 * when their workspace is deleted or its TTL runs out, and such a workspace cannot be saved; a disabled
 * copy would hand out credentials that cannot work (or none at all).
 */
export const enabled =
  (what: 'a merchant' | 'an application'): Rule =>
  (v) =>
    v === 0
      ? null
      : `Ensure this value is 0: the sandbox disables ${what} only with its deleted or expired workspace, which cannot be saved.`;
export const currency = oneOf(CURRENCIES);

function parsed(v: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(v as string) };
  } catch {
    return { ok: false };
  }
}

export const jsonText: Rule = (v) => (parsed(v).ok ? null : 'Enter valid JSON (as text).');

export const jsonObject: Rule = (v) => {
  const p = parsed(v);
  return p.ok && p.value !== null && typeof p.value === 'object' && !Array.isArray(p.value)
    ? null
    : 'Enter a JSON object (as text).';
};

/** A list of payment collectors as the API takes it: at least one, each known, none twice. */
export const collectors: Rule = (v) => {
  const p = parsed(v);
  if (!p.ok || !Array.isArray(p.value) || p.value.length === 0)
    return 'Enter a non-empty JSON list of payment collectors (as text).';
  const unknown = p.value.find((c) => !COLLECTORS.includes(c as string));
  if (unknown !== undefined) return `"${String(unknown)}" is not a valid choice.`;
  if (new Set(p.value).size !== p.value.length) return 'A payment collector is listed twice.';
  return null;
};

/**
 * A merchant URL as PATCH /_sandbox/merchants accepts it (the one rule, src/shared/sandbox-url.ts): the
 * copy's tenant is the document's merchants, so its URLs may name the example receiver of those only
 * (the restore points them at their copies).
 */
export const merchantUrl =
  (field: 'callback_url' | 'redirect_url'): Rule =>
  (v, _row, doc) => {
    const text = v as string;
    if (text.length > 2000) return 'Ensure this field has no more than 2000 characters.';
    return merchantUrlProblem(text, field, doc.merchantUrls);
  };

function httpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Where a delivery goes: an absolute http(s) URL or the example receiver. */
export const deliveryUrl: Rule = (v) =>
  httpUrl(v as string) || isInboxPath(v as string)
    ? null
    : 'Enter an absolute http:// or https:// URL or the example receiver.';

export const positiveAmount: Rule = (v) =>
  unitsOf(v as string) > 0n ? null : 'Ensure this value is greater than 0.';
export const notNegative: Rule = (v) =>
  unitsOf(v as string) >= 0n ? null : 'Ensure this value is at least 0.';

export const otpSecret: Rule = (v) => {
  const text = v as string;
  if (!/^[A-Z2-7]{16,128}=*$/.test(text)) return 'Enter a base32 secret (16 to 128 of A-Z, 2-7).';
  try {
    currentOtp(text, 0);
    return null;
  } catch {
    return 'Enter a base32 secret (16 to 128 of A-Z, 2-7).';
  }
};

/**
 * An invoice's status agrees with what it received: fully paid exactly when nothing is due (an
 * over-payment is kept, as a payment keeps it: src/invoices/invoice.model.ts).
 */
export const invoiceReceived: Rule = (v, row) => {
  const received = unitsOf(v as string);
  const amount = unitsOf(row.amount as string);
  if (received < 0n) return 'Ensure this value is at least 0.';
  if ((row.status === 'fully_paid') !== received >= amount)
    return `An invoice that received ${v as string} of ${row.amount as string} cannot be ${String(row.status)}.`;
  return null;
};

/**
 * `allow_negative` of a wallet: always 0. Only the sandbox's own system accounts (`system_accounts`, not a
 * table of the document) may go negative.
 */
export const noOverdraft: Rule = (v) =>
  v === 0
    ? null
    : "Ensure this value is 0: only the sandbox's system accounts may go negative, never a wallet.";

/** A delivery's event is a known one, and the one its body names (the body is what the merchant gets). */
export const deliveryEvent: Rule = (v, row, doc) => {
  const known = eventName(v, row, doc);
  if (known) return known;
  const body = parsed(row.body);
  const named =
    body.ok && body.value !== null && typeof body.value === 'object'
      ? (body.value as { event?: { name?: unknown } }).event?.name
      : undefined;
  return named === undefined || named === v
    ? null
    : `The body names the event "${String(named)}", not "${String(v)}".`;
};

/**
 * When a delivery's next attempt is due: a pending one (or one in flight, pending again once restored)
 * has a time, or it would never be sent and would hold back its invoice's later callbacks; a delivered
 * or failed one has none.
 */
export const nextAttempt: Rule = (v, row) => {
  const waiting = row.status === 'pending' || row.status === 'delivering';
  if (waiting && v === null)
    return `A ${String(row.status)} delivery needs the time of its next attempt.`;
  if (!waiting && v !== null) return `A ${String(row.status)} delivery has no next attempt.`;
  return null;
};

/** Set exactly when the delivery was delivered, as the dispatcher records it. */
export const deliveredAt: Rule = (v, row) => {
  if (row.status === 'delivered' && v === null) return 'A delivered delivery needs delivered_at.';
  if (row.status !== 'delivered' && v !== null)
    return `A ${String(row.status)} delivery has no delivered_at.`;
  return null;
};

/**
 * Attempts made so far: a whole number, at least one for a delivery delivered or in flight. No upper
 * bound: an attempt cut short by a crash is made again (at least once), so a real sandbox's count can
 * pass its schedule, and the document may come from a sandbox with a longer `--retry-schedule`.
 */
export const attemptsCount: Rule = (v, row) => {
  const n = v as number;
  if (!Number.isInteger(n) || n < 0) return 'Ensure this value is greater than or equal to 0.';
  if ((row.status === 'delivered' || row.status === 'delivering') && n === 0)
    return `A ${String(row.status)} delivery made at least one attempt.`;
  return null;
};

/** Only a redelivery (`redelivery_of` set) goes out of its invoice's order (`ordered` 0). */
export const deliveryOrder: Rule = (v, row) => {
  if (v !== 0 && v !== 1) return `"${String(v)}" is not a valid choice.`;
  if ((row.redelivery_of !== null) !== (v === 0))
    return row.redelivery_of !== null
      ? 'A redelivery is sent out of order: ordered is 0.'
      : 'Only a redelivery (redelivery_of set) is sent out of order: ordered is 1.';
  return null;
};

/** A payment request's ledger transaction: there exactly when it was paid. */
export const paidWith: Rule = (v, row) => {
  if (row.status === 'paid' && v === null) return 'A paid request needs its ledger transaction.';
  if (row.status !== 'paid' && v !== null)
    return `A ${String(row.status)} request moved no money: no ledger transaction.`;
  return null;
};

/**
 * An access token's `expired_at`: the sweep sets it to `expires_at`, and only on a token not revoked
 * (src/identities/app-tokens.repo.ts).
 */
export const tokenExpiredAt: Rule = (v, row) => {
  if (v === null) return null;
  if (row.revoked_at !== null)
    return 'A revoked token does not expire as well: expired_at is null.';
  return v === row.expires_at ? null : 'A token expires at its expires_at.';
};
