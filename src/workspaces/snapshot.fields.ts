import { parseExpiry } from '../shared/clock.js';
import { MAX_MERCHANT_LIMIT_UNITS } from '../shared/money.js';
import type { SandboxAddresses } from '../shared/sandbox-url.js';
import { rowsOf, type SnapshotDocument } from './snapshot.capture.js';
import { unitsOf } from './snapshot.columns.js';
import {
  attemptsCount,
  collectors,
  COLLECTORS,
  currency,
  CURRENCIES,
  deliveredAt,
  deliveryEvent,
  deliveryOrder,
  deliveryUrl,
  type DocumentScope,
  EMAIL,
  enabled,
  eventName,
  flag,
  invoiceReceived,
  jsonObject,
  jsonText,
  length,
  MAX_LIFETIME_SECONDS,
  merchantUrl,
  MOBILE,
  nextAttempt,
  noOverdraft,
  notNegative,
  nullable,
  oneOf,
  otpSecret,
  paidWith,
  positiveAmount,
  tokenExpiredAt,
  type Rule,
} from './snapshot.field-rules.js';
import { SNAPSHOT_TABLES } from './snapshot.tables.js';

/** What the checks need of the sandbox: its addresses (whose example receivers a merchant URL may name). */
export type SnapshotSandbox = SandboxAddresses;

/** How far a saved state's `taken_at` may be from the sandbox's time (its clock must stay a real date). */
export const TAKEN_AT_RANGE_YEARS = 100;

/** The rules (snapshot.field-rules.ts) each column of a table is held to, in order: the first broken one is reported. */
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
  accounts: { name: [length(1, 200)], currency: [currency], allow_negative: [noOverdraft] },
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
    disabled: [enabled('a merchant')],
  },
  apps: {
    name: [length(1, 100)],
    otp_secret: [otpSecret],
    last_nonce: [
      nullable((v) => (/^\d{1,19}$/.test(v as string) ? null : 'Enter a nonce (digits).')),
    ],
    mfa_whitelisted: [flag],
    disabled: [enabled('an application')],
    business_account: [flag],
  },
  app_access_tokens: { expired_at: [tokenExpiredAt] },
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
  outbox_events: { name: [eventName], payload: [jsonObject] },
  deliveries: {
    event: [deliveryEvent],
    url: [nullable(deliveryUrl)],
    body: [jsonObject],
    ordered: [deliveryOrder],
    attempts_count: [attemptsCount],
    next_attempt_at: [nextAttempt],
    delivered_at: [deliveredAt],
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
    status: [oneOf(['pending', 'success', 'failed'])],
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
    ledger_transaction_id: [paidWith],
  },
};

/**
 * Every field of the document against the API's rules: each bad one is reported through `fail` with its
 * whole path (`tables.invoices[0].metadata`). `nowMicros` is the sandbox's time, which `taken_at` must
 * stay near; `own` its addresses (an absolute URL to them is the sandbox itself) and its retry schedule.
 */
export function checkFields(
  doc: SnapshotDocument,
  nowMicros: number,
  own: SnapshotSandbox,
  fail: (field: string, message: string) => void,
): void {
  const merchants = new Set(rowsOf(doc, 'merchants').map((m) => m.id));
  const scope: DocumentScope = {
    merchantUrls: {
      own,
      // The copy's tenant is the document's merchants: any other (even of this sandbox) is unknown to it.
      tenantOf: (id) => (merchants.has(id) ? 'same' : 'unknown'),
      unknownWhere: ' in the document',
    },
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
