import { afterEach, describe, expect, it } from 'vitest';
import { as, newDeveloper } from '../testing/developer.test-support.js';
import { errorCode } from '../testing/error-code.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { parseAmount } from '../shared/money.js';

/**
 * The reads by id of the wallet resources (getCryptoExchange, getCryptoPayment, getPaymentRequest,
 * getPaymentRequestsItem): the single resource under the create's key, owner-scoped like the lists,
 * with the clock's due work done first, and the published clients' `?id=` echo.
 */
let t: TestApp;
afterEach(() => t.close());

type Dev = { php: string; btc: string; app: { api_key: string; api_secret: string } };

const customer = () => t.fixtures.customers[0]!;

/** One of each resource, created by `dev` through the developer API. */
async function oneOfEach(dev: Dev) {
  const x = await t.signed('POST', '/v3/crypto-exchanges/', {
    ...as(dev),
    body: { source_account: dev.php, target_account: dev.btc, amount: '200' },
  });
  const p = await t.signed('POST', '/v3/crypto-payments/', {
    ...as(dev),
    body: { account: dev.php, target_address: customer().email, amount: '5' },
  });
  const r = await t.signed('POST', '/v3/payment-requests/', {
    ...as(dev),
    body: {
      payer_contact_info: customer().email,
      receiving_account: dev.php,
      amount: '3',
      expires_in_seconds: 60,
    },
  });
  expect([x.status, p.status, r.status]).toEqual([201, 201, 201]);
  return {
    exchange: x.body['crypto-exchange'],
    payment: p.body['crypto-payment'],
    request: r.body['payment-request'],
  };
}

/** Every read by id of the three, as `[path, key, created resource]`. */
function reads(
  made: Awaited<ReturnType<typeof oneOfEach>>,
): Array<[string, string, Record<string, unknown>]> {
  return [
    [`/v3/crypto-exchanges/${made.exchange.id}/`, 'crypto-exchange', made.exchange],
    [`/v3/crypto-payments/${made.payment.id}/`, 'crypto-payment', made.payment],
    [`/v3/payment-requests/${made.request.id}/`, 'payment-request', made.request],
    [`/v3/getpayment-requests/${made.request.id}/`, 'payment-request', made.request],
  ];
}

describe('wallet reads by id', () => {
  it("answer the single resource as created, under the create's key, at every spelling the clients use", async () => {
    t = createTestApp();
    const dev = newDeveloper(t);
    const made = await oneOfEach(dev);
    for (const [path, key, created] of reads(made)) {
      const id = created.id as string;
      for (const spelling of [
        path,
        path.slice(0, -1),
        `${path}?id=${id}`,
        `/api${path}?id=${id}`,
        `/d/api${path.slice(3)}`,
      ]) {
        const res = await t.signed('GET', spelling, as(dev));
        expect(res.status, spelling).toBe(200);
        expect(res.body, spelling).toEqual({ [key]: created });
      }
    }
  });

  it("answer another owner's id, another workspace's id and an unknown id with the same 404; ?id= is ignored, the path decides", async () => {
    t = createTestApp();
    const dev = newDeveloper(t);
    const made = await oneOfEach(dev);
    const other = newDeveloper(t);
    const ws = await t.request('POST', '/_sandbox/workspaces', { body: {} });
    expect(ws.status).toBe(201);
    const tenant = { app: ws.body.workspace.app };
    const unknown = await t.signed('GET', '/v3/crypto-payments/' + '0'.repeat(32) + '/', as(dev));
    expect(unknown.status).toBe(404);
    for (const [path, key, created] of reads(made)) {
      for (const [who, spelling] of [
        [other, path],
        [tenant, path],
        [other, `${path}?id=${created.id as string}`],
      ] as const) {
        const res = await t.signed('GET', spelling, as(who));
        expect(res.status, spelling).toBe(404);
        expect(res.body.errors, spelling).toEqual(unknown.body.errors);
        expect(errorCode(res.body)).toBe(errorCode(unknown.body));
      }
      // The owner reads it, whatever `?id=` says (the clients echo the path's id there).
      for (const echo of [created.id as string, '0'.repeat(32), '']) {
        expect((await t.signed('GET', `${path}?id=${echo}`, as(dev))).body[key].id).toBe(
          created.id,
        );
      }
    }
  });

  it("do the clock's due work first: a due conversion and payment read as settled, a due request as expired", async () => {
    t = createTestApp();
    const dev = newDeveloper(t);
    const made = await oneOfEach(dev);
    t.advance(60); // the offset moves; the background tick does not run in the test app
    const [exchange, payment, request, requestAlias] = await Promise.all(
      reads(made).map(([path]) => t.signed('GET', path, as(dev))),
    );
    expect(exchange!.body['crypto-exchange']).toEqual({ ...made.exchange, status: 'success' });
    expect(payment!.body['crypto-payment']).toEqual({ ...made.payment, status: 'success' });
    expect(request!.body['payment-request']).toMatchObject({
      id: made.request.id,
      status: 'expired',
    });
    expect(requestAlias!.body).toEqual(request!.body);
    // The money moved as the settlements say (the converted amount reached the BTC account).
    expect(t.services.ledger.get(dev.btc)!.balance).toBe(
      parseAmount(made.exchange.target_amount as string),
    );
    t.assertLedger();
  });

  it('refuse a ?id= longer than any id (400 on `id`) and unsigned reads (401)', async () => {
    t = createTestApp();
    const dev = newDeveloper(t);
    const long = await t.signed(
      'GET',
      `/v3/crypto-exchanges/${'a'.repeat(32)}/?id=${'a'.repeat(65)}`,
      as(dev),
    );
    expect(long.status).toBe(400);
    expect(Object.keys(long.body.errors)).toEqual(['id']);
    const unsigned = await t.request('GET', `/v3/crypto-payments/${'0'.repeat(32)}/`);
    expect(unsigned.status).toBe(401);
  });
});
