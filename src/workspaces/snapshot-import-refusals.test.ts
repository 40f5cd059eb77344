import { describe, expect, it } from 'vitest';
import { itemAt } from '../shared/defined.js';
import type { TestApp } from '../testing/test-app.js';
import { rowCounts } from './snapshot.test-support.js';
import { importPerTest, type Spoilt } from './snapshot-import.test-support.js';

/**
 * A document the import refuses for its format, its ledger or its integrity, and a merchant URL on this
 * sandbox's own address: each bad one is a 400 naming the field, and nothing changes. A copy of an export
 * is spoilt one way per test. A value the API itself holds to a rule is in
 * snapshot-import-field-rules.test.ts.
 */
let t: TestApp;
const { copy, importing, refuses } = importPerTest((app) => (t = app));

describe('snapshot documents refused', () => {
  // Each bad document: the field the 400 names, and how to spoil a copy of the export.
  const cases: Array<Spoilt<any>> = [
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
  refuses(cases);
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
