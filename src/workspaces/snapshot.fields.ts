import { currentOtp } from '../auth/otp.js';
import { COUNTER_COLLECTORS, WALLET_COLLECTOR } from '../invoices/invoice.model.js';
import { parseExpiry } from '../shared/clock.js';
import { PESOS_PER_COIN } from '../shared/rates.js';
import { MAX_MERCHANT_LIMIT_UNITS } from '../shared/money.js';
import {
  isInboxPath,
  merchantUrlProblem,
  type MerchantUrlScope,
  type SandboxAddresses,
} from '../shared/sandbox-url.js';
import { rowsOf, type SnapshotDocument, type SnapshotRow } from './snapshot.capture.js';
import { unitsOf } from './snapshot.columns.js';
import { SNAPSHOT_TABLES } from './snapshot.tables.js';

/**
 * The rules of the API for the values a document carries (docs/design.md#saved-states): what the schema
 * of the document leaves as plain text or numbers (JSON held in a text column, enums, URLs, lengths,
 * limits, secrets) is held to what the API itself accepts when the value is written through it, so that
 * no later request fails on a restored value. A rule answers the message of a bad value, or null.
 */
type Rule = (value: unknown, row: SnapshotRow, doc: DocumentScope) => string | null;

/** What a rule may need of the whole document: whose example receiver a merchant URL may name. */
interface DocumentScope {
  merchantUrls: MerchantUrlScope;
}

const COLLECTORS = [WALLET_COLLECTOR, ...COUNTER_COLLECTORS];
const CURRENCIES = ['PHP', ...Object.keys(PESOS_PER_COIN)];
/** The `email` format of the document's inputs (ajv-formats' fast email). */
const EMAIL =
  /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
const MOBILE = /^\+?[0-9]{7,15}$/;
/** `invoice_lifetime_seconds` of a merchant, as PATCH /_sandbox/merchants takes it. */
const MAX_LIFETIME_SECONDS = 31_622_400;
/** `max_invoice_amount` of a merchant, as PATCH /_sandbox/merchants takes it (control-input.ts). */
/** How far a saved state's `taken_at` may be from the sandbox's time (its clock must stay a real date). */
export const TAKEN_AT_RANGE_YEARS = 100;

const nullable =
  (rule: Rule): Rule =>
  (v, row, doc) =>
    v === null ? null : rule(v, row, doc);

const length =
  (min: number, max: number): Rule =>
  (v) =>
    typeof v === 'string' && v.length >= min && v.length <= max
      ? null
      : min > 0
        ? `Ensure this field has between ${min} and ${max} characters.`
        : `Ensure this field has no more than ${max} characters.`;

const oneOf =
  (choices: readonly (string | number)[]): Rule =>
  (v) =>
    choices.includes(v as string | number) ? null : `"${String(v)}" is not a valid choice.`;

const flag = oneOf([0, 1]);
const currency = oneOf(CURRENCIES);

function parsed(v: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(v as string) };
  } catch {
    return { ok: false };
  }
}

const jsonText: Rule = (v) => (parsed(v).ok ? null : 'Enter valid JSON (as text).');

const jsonObject: Rule = (v) => {
  const p = parsed(v);
  return p.ok && p.value !== null && typeof p.value === 'object' && !Array.isArray(p.value)
    ? null
    : 'Enter a JSON object (as text).';
};

/** A list of payment collectors as the API takes it: at least one, each known, none twice. */
const collectors: Rule = (v) => {
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
const merchantUrl =
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
const deliveryUrl: Rule = (v) =>
  httpUrl(v as string) || isInboxPath(v as string)
    ? null
    : 'Enter an absolute http:// or https:// URL or the example receiver.';

const positiveAmount: Rule = (v) =>
  unitsOf(v as string) > 0n ? null : 'Ensure this value is greater than 0.';
const notNegative: Rule = (v) =>
  unitsOf(v as string) >= 0n ? null : 'Ensure this value is at least 0.';

const otpSecret: Rule = (v) => {
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
const invoiceReceived: Rule = (v, row) => {
  const received = unitsOf(v as string);
  const amount = unitsOf(row.amount as string);
  if (received < 0n) return 'Ensure this value is at least 0.';
  if ((row.status === 'fully_paid') !== received >= amount)
    return `An invoice that received ${v as string} of ${row.amount as string} cannot be ${String(row.status)}.`;
  return null;
};

const RULES: Record<string, Record<string, Rule[]>> = {
  users: {
    name: [length(0, 200)],
    email: [
      nullable(length(3, 254)),
      nullable((v) => (EMAIL.test(v as string) ? null : 'Enter a valid email address.')),
    ],
    mobile_number: [
      nullable((v) => (MOBILE.test(v as string) ? null : 'Enter a valid mobile number.')),
    ],
    password: [nullable(length(4, 128))],
  },
  accounts: { name: [length(1, 200)], currency: [currency], allow_negative: [flag] },
  merchants: {
    name: [length(1, 100)],
    callback_url: [nullable(merchantUrl('callback_url'))],
    redirect_url: [nullable(merchantUrl('redirect_url'))],
    enabled_payment_collectors: [collectors],
    max_invoice_amount: [
      positiveAmount,
      (v) =>
        unitsOf(v as string) <= MAX_MERCHANT_LIMIT_UNITS
          ? null
          : 'Ensure this value is at most 10000000.',
    ],
    invoice_lifetime_seconds: [
      (v) =>
        Number.isInteger(v) && (v as number) >= 1 && (v as number) <= MAX_LIFETIME_SECONDS
          ? null
          : `Ensure this value is between 1 and ${MAX_LIFETIME_SECONDS}.`,
    ],
    disabled: [flag],
  },
  apps: {
    name: [length(1, 100)],
    otp_secret: [otpSecret],
    last_nonce: [
      nullable((v) => (/^\d{1,19}$/.test(v as string) ? null : 'Enter a nonce (digits).')),
    ],
    mfa_whitelisted: [flag],
    disabled: [flag],
    business_account: [flag],
  },
  invoices: {
    amount: [positiveAmount],
    amount_received: [invoiceReceived],
    currency: [oneOf(['PHP'])],
    external_transaction_id: [length(1, 255)],
    description: [length(0, 1000)],
    metadata: [jsonObject],
    supported_payment_collectors: [collectors],
    current_payment_collector: [nullable(oneOf(COLLECTORS))],
  },
  payments: { amount: [positiveAmount], payment_collector: [oneOf(COLLECTORS)] },
  outbox_events: { payload: [jsonObject] },
  deliveries: {
    url: [nullable(deliveryUrl)],
    body: [jsonObject],
    ordered: [flag],
    attempts_count: [(v) => ((v as number) >= 0 ? null : 'Ensure this value is at least 0.')],
  },
  delivery_attempts: {
    attempt: [(v) => ((v as number) >= 1 ? null : 'Ensure this value is at least 1.')],
    request_headers: [jsonObject],
    request_body: [jsonText],
  },
  sell_orders: {
    amount: [positiveAmount],
    fee: [notNegative],
    currency: [currency],
    fields: [jsonObject],
    auto_advance: [flag],
  },
  buy_orders: { amount: [positiveAmount], currency: [currency], auto_release: [flag] },
  transfers: { amount: [positiveAmount], currency: [currency] },
  crypto_exchanges: {
    source_amount: [positiveAmount],
    target_amount: [positiveAmount],
    source_currency: [currency],
    target_currency: [currency],
  },
  crypto_payments: { amount: [positiveAmount], currency: [currency], message: [length(0, 500)] },
  payment_requests: {
    amount: [positiveAmount],
    currency: [currency],
    message: [length(0, 500)],
  },
};

/**
 * Every field of the document against the API's rules: each bad one is reported through `fail` with its
 * whole path (`tables.invoices[0].metadata`). `nowMicros` is the sandbox's time, which `taken_at` must
 * stay near; `own` its addresses (an absolute URL to them is the sandbox itself).
 */
export function checkFields(
  doc: SnapshotDocument,
  nowMicros: number,
  own: SandboxAddresses,
  fail: (field: string, message: string) => void,
): void {
  const merchants = new Set(rowsOf(doc, 'merchants').map((m) => m.id));
  const scope: DocumentScope = {
    merchantUrls: { own, sameTenant: (id) => merchants.has(id) },
  };
  const takenAt = parseExpiry(doc.taken_at, 0);
  const range = TAKEN_AT_RANGE_YEARS * 365.25 * 86_400 * 1_000_000;
  if (takenAt === null) fail('taken_at', 'Enter a valid date and time.');
  else if (Math.abs(takenAt - nowMicros) > range)
    fail(
      'taken_at',
      `Ensure this time is within ${TAKEN_AT_RANGE_YEARS} years of the sandbox's time.`,
    );
  doc.system_accounts.forEach((a, i) => {
    if (!CURRENCIES.includes(a.currency))
      fail(`system_accounts[${i}].currency`, `"${a.currency}" is not a valid choice.`);
  });
  for (const t of SNAPSHOT_TABLES) {
    const rules = RULES[t.name] ?? {};
    rowsOf(doc, t.name).forEach((row, i) => {
      for (const [col, c] of Object.entries(t.columns)) {
        const v = row[col];
        if (v === undefined) continue;
        const path = `tables.${t.name}[${i}].${col}`;
        if (c.kind === 'time' && v !== null && parseExpiry(v as string, 0) === null) {
          fail(path, 'Enter a valid date and time.');
          continue;
        }
        for (const rule of rules[col] ?? []) {
          const problem = rule(v, row, scope);
          if (problem) {
            fail(path, problem);
            break;
          }
        }
      }
    });
  }
}
