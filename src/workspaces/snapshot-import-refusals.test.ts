import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { itemAt, required } from '../shared/defined.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { exportedScenario, rowCounts } from './snapshot.test-support.js';

/**
 * A document the import refuses: each bad one is a 400 naming the field, and nothing changes. A copy
 * of an export is spoilt one way per test.
 */
let t: TestApp;
let doc: unknown;
// Real time stands still (the sandbox clock moves by its offset only): two copies restored and read one
// after the other count the same seconds left and the same order times.
const NOW_MS = Date.parse('2026-11-20T09:00:00.000Z');
// The document is exported once, from a sandbox of its own (as a team's committed scenario file is), and
// each test imports it into a fresh sandbox.
beforeAll(async () => {
  doc = await exportedScenario(NOW_MS);
});
beforeEach(() => {
  t = createTestApp({ realNowMs: () => NOW_MS });
});
afterEach(() => t.close());

const importing = (body: unknown) => t.request('POST', '/_sandbox/snapshots', { body });
const copy = () => JSON.parse(JSON.stringify(doc));

describe('snapshot documents refused', () => {
  // Each bad document: the field the 400 names, and how to spoil a copy of the export.
  const cases: Array<[string, string, (d: any) => void]> = [
    [
      'an unknown status',
      'tables.invoices[0].status',
      (d) => (d.tables.invoices[0].status = 'paid'),
    ],
    [
      'an amount with 9 digits',
      'tables.payments[0].amount',
      (d) => (d.tables.payments[0].amount = '1.000000001'),
    ],
    [
      'a field the format lacks',
      'tables.merchants[0].nickname',
      (d) => (d.tables.merchants[0].nickname = 'x'),
    ],
    // Found by the fuzzer: a field named like a property every object has (a 500 once).
    ['a top-level field named constructor', 'constructor', (d) => (d.constructor = 'x')],
    [
      'a row field named __proto__',
      'tables.users[0].__proto__',
      (d) => Object.defineProperty(d.tables.users[0], '__proto__', { value: 1, enumerable: true }),
    ],
    ['a missing column', 'tables.users[0].email', (d) => delete d.tables.users[0].email],
    ['another version', 'version', (d) => (d.version = 2)],
    [
      'a payment of an invoice the document lacks',
      'tables.payments[0].invoice_id',
      (d) => (d.tables.payments[0].invoice_id = 'f'.repeat(32)),
    ],
    [
      'a balance that is not the sum of its entries',
      'tables.accounts[0].balance',
      (d) => (d.tables.accounts[0].balance = '1.00000000'),
    ],
    [
      'an unbalanced ledger transaction',
      'tables.ledger_transactions[0]',
      (d) => (d.tables.ledger_entries[0].amount = '1.00000000'),
    ],
    [
      'a ledger transaction in two currencies (its first entry moved to a BTC wallet: the second one disagrees)',
      'tables.ledger_entries[1].account_id',
      (d) =>
        (d.tables.ledger_entries[0].account_id = d.tables.accounts.find(
          (a: any) => a.currency !== 'PHP',
        ).id),
    ],
    [
      'two invoices with one id',
      'tables.invoices[1].id',
      (d) => (d.tables.invoices[1].id = d.tables.invoices[0].id),
    ],
    ['no merchant', 'tables.merchants', (d) => (d.tables.merchants = [])],
    // Only the trial restore finds this one (a unique key of the storage): the row is named.
    [
      'two invoices with one external id',
      'tables.invoices[1]',
      (d) =>
        (d.tables.invoices[1].external_transaction_id =
          d.tables.invoices[0].external_transaction_id),
    ],
  ];
  // Each field the API itself holds to a rule (src/workspaces/snapshot.fields.ts): a value it would refuse,
  // or that would make a later request fail, is refused by the import too.
  type Doc = { taken_at: string; tables: Record<string, Array<Record<string, unknown>>> };
  const set =
    (table: string, i: number, column: string, value: unknown) =>
    (d: Doc): void => {
      itemAt(required(d.tables[table], table), i)[column] = value;
    };
  const fieldCases: Array<[string, string, (d: Doc) => void]> = [
    [
      'metadata that is not JSON',
      'tables.invoices[0].metadata',
      set('invoices', 0, 'metadata', '[1'),
    ],
    [
      'metadata that is a JSON list',
      'tables.invoices[0].metadata',
      set('invoices', 0, 'metadata', '[1]'),
    ],
    [
      'collectors that are not a JSON list',
      'tables.invoices[0].supported_payment_collectors',
      set('invoices', 0, 'supported_payment_collectors', 'oops'),
    ],
    [
      'an unknown collector of an invoice',
      'tables.invoices[0].supported_payment_collectors',
      set('invoices', 0, 'supported_payment_collectors', '["nope"]'),
    ],
    [
      'an unknown collector of a merchant',
      'tables.merchants[0].enabled_payment_collectors',
      set('merchants', 0, 'enabled_payment_collectors', '["nope"]'),
    ],
    [
      'no collector of a merchant',
      'tables.merchants[0].enabled_payment_collectors',
      set('merchants', 0, 'enabled_payment_collectors', '[]'),
    ],
    [
      'a delivery body that is not JSON',
      'tables.deliveries[0].body',
      set('deliveries', 0, 'body', 'not json'),
    ],
    [
      'an outbox payload that is not JSON',
      'tables.outbox_events[0].payload',
      set('outbox_events', 0, 'payload', '{'),
    ],
    [
      'an OTP secret that is not base32',
      'tables.apps[0].otp_secret',
      set('apps', 0, 'otp_secret', '!!!'),
    ],
    [
      'an ftp callback_url',
      'tables.merchants[0].callback_url',
      set('merchants', 0, 'callback_url', 'ftp://x'),
    ],
    [
      'a callback_url on the sandbox that is not its inbox',
      'tables.merchants[0].callback_url',
      set('merchants', 0, 'callback_url', '/_sandbox/reset'),
    ],
    [
      "a callback_url on the example receiver of this sandbox's merchant outside the document",
      'tables.merchants[0].callback_url',
      (d) =>
        (itemAt(required(d.tables.merchants, 'merchants'), 0).callback_url =
          `/_sandbox/inbox/${t.merchant.id}`),
    ],
    [
      'a redirect_url on the thank-you page of a merchant outside the document, as an absolute URL to this sandbox',
      'tables.merchants[0].redirect_url',
      set(
        'merchants',
        0,
        'redirect_url',
        `http://127.0.0.1:7070/_sandbox/inbox/${'0'.repeat(32)}/thank-you`,
      ),
    ],
    [
      'a redirect_url that is no URL',
      'tables.merchants[0].redirect_url',
      set('merchants', 0, 'redirect_url', 'thank you'),
    ],
    [
      'a negative invoice lifetime',
      'tables.merchants[0].invoice_lifetime_seconds',
      set('merchants', 0, 'invoice_lifetime_seconds', -1),
    ],
    [
      'a zero invoice lifetime',
      'tables.merchants[0].invoice_lifetime_seconds',
      set('merchants', 0, 'invoice_lifetime_seconds', 0),
    ],
    [
      'a merchant maximum of 0',
      'tables.merchants[0].max_invoice_amount',
      set('merchants', 0, 'max_invoice_amount', '0.00000000'),
    ],
    [
      'an unknown invoice currency',
      'tables.invoices[0].currency',
      set('invoices', 0, 'currency', 'XYZ'),
    ],
    [
      'an unknown account currency',
      'tables.accounts[0].currency',
      set('accounts', 0, 'currency', 'XYZ'),
    ],
    [
      'a fully paid invoice that received nothing (its status edited)',
      'tables.invoices[4].amount_received',
      set('invoices', 4, 'status', 'fully_paid'),
    ],
    [
      'a pending invoice that received its whole amount (its status edited)',
      'tables.invoices[0].amount_received',
      set('invoices', 0, 'status', 'pending'),
    ],
    [
      'an invoice that received less than nothing',
      'tables.invoices[4].amount_received',
      set('invoices', 4, 'amount_received', '-1.00000000'),
    ],
    ['an email that is not one', 'tables.users[1].email', set('users', 1, 'email', 'not-an-email')],
    [
      'a mobile number that is not one',
      'tables.users[1].mobile_number',
      set('users', 1, 'mobile_number', 'call me'),
    ],
    [
      'a description over the 1000 characters the API allows',
      'tables.invoices[0].description',
      set('invoices', 0, 'description', 'x'.repeat(1001)),
    ],
    ['an empty merchant name', 'tables.merchants[0].name', set('merchants', 0, 'name', '')],
    [
      'a payment request message over 500 characters',
      'tables.payment_requests[0].message',
      set('payment_requests', 0, 'message', 'x'.repeat(501)),
    ],
    [
      'a time that is no date',
      'tables.invoices[0].expires_at',
      set('invoices', 0, 'expires_at', '2026-13-45T09:00:00.000000Z'),
    ],
    ['a flag that is not 0 or 1', 'tables.apps[0].disabled', set('apps', 0, 'disabled', 7)],
    [
      'taken_at at the end of year 9999',
      'taken_at',
      (d) => (d.taken_at = '9999-12-31T23:59:59.999999Z'),
    ],
    ['taken_at in year 0', 'taken_at', (d) => (d.taken_at = '0000-01-01T00:00:00.000000Z')],
  ];
  for (const [what, field, spoil] of [...cases, ...fieldCases]) {
    it(`${what}: 400 naming ${field}, and nothing changes`, async () => {
      const bad = copy();
      spoil(bad);
      const before = rowCounts(t);
      const res = await importing(bad);
      expect(res.status, res.text).toBe(400);
      expect(res.body.error_codes).toEqual(['validation_error']);
      expect(Object.keys(res.body.errors), res.text).toContain(field);
      expect(rowCounts(t)).toEqual(before);
    });
  }
});

describe("a snapshot's merchant URL on this sandbox's own address", () => {
  const NOT_THE_RECEIVER =
    'On the sandbox itself a callback_url can only be its example receiver, /_sandbox/inbox/<merchant id>, written plainly (no empty segment, escaped slash, dot segment, query or fragment: a callback there would not reach it).';
  /** The test app's address (the port the import reads "this sandbox" by). */
  const SELF = 'http://127.0.0.1:7070';
  type Doc = { tables: { merchants: Array<Record<string, unknown>> } };
  const merchantOf = (d: Doc) => itemAt(d.tables.merchants, 0);

  // [what, callback_url or redirect_url (of the document's first merchant id), the message (null: imported)]
  const cases: Array<
    [string, 'callback_url' | 'redirect_url', (id: string) => string, string | null]
  > = [
    ['the reset of this sandbox', 'callback_url', () => `${SELF}/_sandbox/reset`, NOT_THE_RECEIVER],
    [
      'the clock reset, by name',
      'callback_url',
      () => 'http://localhost:7070/_sandbox/clock/reset',
      NOT_THE_RECEIVER,
    ],
    ['an empty segment', 'callback_url', (id) => `/_sandbox/inbox//${id}`, NOT_THE_RECEIVER],
    [
      'an empty segment after the host',
      'callback_url',
      (id) => `${SELF}//_sandbox/inbox/${id}`,
      NOT_THE_RECEIVER,
    ],
    [
      'an escaped slash',
      'callback_url',
      (id) => `${SELF}/_sandbox%2finbox/${id}`,
      NOT_THE_RECEIVER,
    ],
    [
      'a merchant of this sandbox that the document lacks',
      'callback_url',
      () => `/_sandbox/inbox/${t.merchant.id}`,
      'Names the example receiver of merchant <this sandbox>, but there is no merchant with that id in the document.',
    ],
    ['its own inbox, absolute', 'callback_url', (id) => `${SELF}/_sandbox/inbox/${id}`, null],
    ['a page of this sandbox, as a redirect', 'redirect_url', () => `${SELF}/_sandbox/reset`, null],
  ];

  it.each(cases)('%s (%s)', async (_what, field, url, message) => {
    const d = copy() as Doc;
    const merchant = merchantOf(d);
    merchant[field] = url(String(merchant.id));
    const before = rowCounts(t);
    const res = await importing(d);
    if (message === null) {
      expect(res.status, res.text).toBe(201);
      return;
    }
    expect(res.status, res.text).toBe(400);
    expect(res.body.error_codes).toEqual(['validation_error']);
    expect(res.body.errors[`tables.merchants[0].${field}`]).toEqual([
      message.replace('<this sandbox>', t.merchant.id),
    ]);
    expect(rowCounts(t)).toEqual(before);
  });
});
