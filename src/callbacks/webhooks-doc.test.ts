import { afterEach, describe, expect, it } from 'vitest';
import {
  startMerchantReceiver,
  type MerchantReceiver,
} from '../../examples/merchant-callback/server.js';
import { loadSpec } from '../spec/load.js';
import { createAjv, SPEC_ID } from '../spec/validators.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { until } from './callbacks.test-support.js';

/**
 * The callbacks the sandbox sends are what the document's `webhooks` say: each body validates against
 * its event's schema (compiled with the server's own Ajv setup), the headers against its parameters, and
 * the `Authorization` header is the document's `callbackToken` scheme.
 */

const PHP = 100_000_000n;
const spec = loadSpec();
const ajv = createAjv(spec);
type Webhook = {
  post: { security: Array<Record<string, string[]>>; parameters: Array<{ $ref: string }> };
};
const webhooks = spec.document.webhooks as Record<string, Webhook>;

const bodyValidator = (event: string) =>
  ajv.compile({
    $ref: `${SPEC_ID}#/webhooks/${event}/post/requestBody/content/application~1json/schema`,
  });
/** A header parameter of the document, with a validator of its schema (refs resolve in the document). */
const parameter = (ref: string) => {
  const p = spec.document.components!.parameters![ref.split('/').at(-1)!] as {
    name: string;
    in: string;
  };
  return { ...p, validate: ajv.compile({ $ref: `${SPEC_ID}${ref}/schema` }) };
};

let t: TestApp;
let receiver: MerchantReceiver;
afterEach(async () => {
  await receiver?.close();
  t?.close();
});

describe('the webhooks of openapi/openapi.yaml', () => {
  it('describe every event the sandbox can send, one POST each', () => {
    const names = (spec.document.components!.schemas!.EventName as { enum: string[] }).enum;
    expect(Object.keys(webhooks).sort()).toEqual([...names].sort());
    for (const name of names) expect(Object.keys(webhooks[name]!)).toEqual(['post']);
  });

  it('validate the callbacks the sandbox actually sends: bodies, event headers and the Token', async () => {
    t = createTestApp({ config: { retrySchedule: [10, 60, 300] } });
    receiver = await startMerchantReceiver({
      token: t.merchant.merchant_api_token,
      port: 0,
      requireToken: true,
    });
    t.services.identities.updateMerchant(t.merchant.id, {
      callback_url: receiver.url,
      callback_auth: 'always',
    });
    t.sandbox.startBackground();

    const merchant = t.services.identities.merchantById(t.merchant.id)!;
    const inv = t.services.invoices.create(merchant, {
      amount: '20',
      currency: 'PHP',
      external_transaction_id: 'webhooks-doc-1',
    });
    const customer = t.services.payments.customer();
    t.services.payments.issueReference(inv.id);
    t.services.payments.payFromWallet(inv.id, customer, 5n * PHP);
    t.services.payments.payFromWallet(inv.id, customer);
    const received = await until(
      () => receiver.received,
      (r) => r.length === 4 && r.every((cb) => cb.status !== undefined),
      '4 callbacks',
    );

    const sent = received.map((cb) => JSON.parse(cb.body) as { event: { name: string } });
    expect(sent.map((b) => b.event.name)).toEqual([
      'invoice.created',
      'invoice.payment_reference_number_generated',
      'invoice.updated',
      'invoice.fully_paid',
    ]);
    received.forEach((cb, i) => {
      const name = sent[i]!.event.name;
      const validate = bodyValidator(name);
      expect(validate(sent[i]), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
      const op = webhooks[name]!.post;
      for (const p of op.parameters.map((x) => parameter(x.$ref))) {
        expect(p.in).toBe('header');
        const value = cb.headers[p.name.toLowerCase()];
        expect(value, `${name}: ${p.name}`).toBeDefined();
        expect(p.validate(value), `${name}: ${p.name}=${String(value)}`).toBe(true);
      }
      expect(op.security).toEqual([{ callbackToken: [] }, {}]);
      const scheme = spec.document.components!.securitySchemes!.callbackToken as {
        in: string;
        name: string;
      };
      expect(cb.headers[scheme.name.toLowerCase()]).toBe(`Token ${t.merchant.merchant_api_token}`);
      expect(cb.status).toBe(200);
    });
  });

  it('are strict enough to catch a wrong body', () => {
    const good = {
      event: {
        name: 'invoice.fully_paid',
        data: {
          id: 'a'.repeat(32),
          currency: 'PHP',
          amount: '20',
          amount_received: '20',
          external_transaction_id: 'x',
        },
      },
    };
    expect(bodyValidator('invoice.fully_paid')(good)).toBe(true);
    // Another event's body, an amount as a number or with 2 decimals, a missing or an extra field: all refused.
    expect(bodyValidator('invoice.created')(good)).toBe(false);
    const withData = (data: object) => ({
      event: { ...good.event, data: { ...good.event.data, ...data } },
    });
    expect(bodyValidator('invoice.fully_paid')(withData({ amount: 20 }))).toBe(false);
    expect(bodyValidator('invoice.fully_paid')(withData({ amount_received: '20.00' }))).toBe(false);
    // Padded as the invoice API writes it: the recorded callbacks are unpadded.
    expect(bodyValidator('invoice.fully_paid')(withData({ amount: '20.00000000' }))).toBe(false);
    expect(bodyValidator('invoice.fully_paid')(withData({ status: 'paid' }))).toBe(false);
    const { external_transaction_id: _omit, ...partial } = good.event.data;
    expect(
      bodyValidator('invoice.fully_paid')({ event: { name: good.event.name, data: partial } }),
    ).toBe(false);
  });
});
