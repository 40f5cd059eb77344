import { describe } from 'vitest';
import { itemAt, required } from '../shared/defined.js';
import type { TestApp } from '../testing/test-app.js';
import { importPerTest, type Spoilt } from './snapshot-import.test-support.js';

/**
 * A value the API itself holds to a rule, in a document the import refuses: each bad one is a 400 naming
 * the field, and nothing changes. A copy of an export is spoilt one way per test. Documents refused for
 * their format, ledger or integrity are in snapshot-import-refusals.test.ts.
 */
let t: TestApp;
const { refuses } = importPerTest((app) => (t = app));

describe('snapshot documents refused for a field the API holds to a rule', () => {
  // Each field the API itself holds to a rule (src/workspaces/snapshot.fields.ts): a value it would refuse,
  // or that would make a later request fail, is refused by the import too.
  type Doc = { taken_at: string; tables: Record<string, Array<Record<string, unknown>>> };
  const set =
    (table: string, i: number, column: string, value: unknown) =>
    (d: Doc): void => {
      itemAt(required(d.tables[table], table), i)[column] = value;
    };
  /** An access token of the document's app, issued an hour before the export, as the API issues one. */
  const withToken =
    (fields: Record<string, unknown>) =>
    (d: Doc): void => {
      required(d.tables.app_access_tokens, 'app_access_tokens').push({
        access_token: 'a'.repeat(48),
        api_key: itemAt(required(d.tables.apps, 'apps'), 0).api_key,
        scope: 'read write',
        created_at: '2026-11-20T08:00:00.000000Z',
        expires_at: '2026-11-20T08:40:00.000000Z',
        revoked_at: null,
        expired_at: null,
        ...fields,
      });
    };
  const fieldCases: Array<Spoilt<Doc>> = [
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
    [
      'a flag that is not 0 or 1',
      'tables.apps[0].mfa_whitelisted',
      set('apps', 0, 'mfa_whitelisted', 7),
    ],
    // Only a deleted or expired workspace has disabled ones, and it cannot be saved: a disabled copy
    // would answer 500 (no application to show) or print a merchant token that gets 401.
    ['a disabled application', 'tables.apps[0].disabled', set('apps', 0, 'disabled', 1)],
    ['a disabled merchant', 'tables.merchants[0].disabled', set('merchants', 0, 'disabled', 1)],
    [
      'a merchant wallet that may go negative',
      'tables.accounts[0].allow_negative',
      set('accounts', 0, 'allow_negative', 1),
    ],
    [
      'an unknown outbox event name',
      'tables.outbox_events[0].name',
      set('outbox_events', 0, 'name', 'bogus.event'),
    ],
    // Delivery rows the dispatcher never writes (src/callbacks/delivery-queue.repo.ts).
    [
      'an unknown delivery event (it would be sent to the merchant as such)',
      'tables.deliveries[0].event',
      set('deliveries', 0, 'event', 'bogus.event'),
    ],
    [
      'a delivery event that is not the one its body names',
      'tables.deliveries[0].event',
      set('deliveries', 0, 'event', 'invoice.fully_paid'),
    ],
    [
      'a pending delivery without a next attempt (never sent, and holding back its invoice)',
      'tables.deliveries[0].next_attempt_at',
      set('deliveries', 0, 'next_attempt_at', null),
    ],
    [
      'a negative attempts count',
      'tables.deliveries[0].attempts_count',
      set('deliveries', 0, 'attempts_count', -1),
    ],
    [
      'a delivered delivery without delivered_at',
      'tables.deliveries[0].delivered_at',
      set('deliveries', 0, 'status', 'delivered'),
    ],
    [
      'a delivered delivery that made no attempt',
      'tables.deliveries[0].attempts_count',
      set('deliveries', 0, 'status', 'delivered'),
    ],
    [
      'a delivered delivery with a next attempt',
      'tables.deliveries[0].next_attempt_at',
      set('deliveries', 0, 'status', 'delivered'),
    ],
    [
      'a pending delivery with delivered_at',
      'tables.deliveries[0].delivered_at',
      set('deliveries', 0, 'delivered_at', '2026-11-20T09:00:01.000000Z'),
    ],
    [
      'a failed delivery with a next attempt',
      'tables.deliveries[0].next_attempt_at',
      set('deliveries', 0, 'status', 'failed'),
    ],
    [
      'a delivery in flight that made no attempt',
      'tables.deliveries[0].attempts_count',
      set('deliveries', 0, 'status', 'delivering'),
    ],
    [
      'an event delivery out of its invoice order',
      'tables.deliveries[0].ordered',
      set('deliveries', 0, 'ordered', 0),
    ],
    [
      'a redelivery in its invoice order',
      'tables.deliveries[1].ordered',
      (d) => {
        const rows = required(d.tables.deliveries, 'deliveries');
        itemAt(rows, 1).redelivery_of = itemAt(rows, 0).id;
      },
    ],
    [
      'a pending payment request with a ledger transaction',
      'tables.payment_requests[0].ledger_transaction_id',
      set('payment_requests', 0, 'ledger_transaction_id', '0'.repeat(32)),
    ],
    [
      'a paid payment request without its ledger transaction',
      'tables.payment_requests[0].ledger_transaction_id',
      set('payment_requests', 0, 'status', 'paid'),
    ],
    [
      'a crypto conversion of an unknown status',
      'tables.crypto_exchanges[0].status',
      (d) => {
        const [account] = required(d.tables.accounts, 'accounts');
        required(d.tables.crypto_exchanges, 'crypto_exchanges').push({
          id: 'f'.repeat(32),
          owner_id: itemAt(required(d.tables.users, 'users'), 0).id,
          source_account_id: required(account, 'an account').id,
          target_account_id: required(account, 'an account').id,
          rate: '1',
          source_amount: '1.00000000',
          target_amount: '1.00000000',
          source_currency: 'PHP',
          target_currency: 'PHP',
          owner_payment: '{}',
          trader_payment: '{}',
          status: 'settled',
          created_at: d.taken_at,
        });
      },
    ],
    [
      'an access token that expired at another time than its expires_at',
      'tables.app_access_tokens[0].expired_at',
      withToken({ expired_at: '2026-11-20T08:00:00.000000Z' }),
    ],
    [
      'an access token both revoked and expired',
      'tables.app_access_tokens[0].expired_at',
      withToken({
        revoked_at: '2026-11-20T08:30:00.000000Z',
        expired_at: '2026-11-20T08:40:00.000000Z',
      }),
    ],
    [
      'taken_at at the end of year 9999',
      'taken_at',
      (d) => (d.taken_at = '9999-12-31T23:59:59.999999Z'),
    ],
    ['taken_at in year 0', 'taken_at', (d) => (d.taken_at = '0000-01-01T00:00:00.000000Z')],
  ];
  refuses(fieldCases);
});
