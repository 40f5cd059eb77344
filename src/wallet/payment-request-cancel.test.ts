import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { as, balanceOf, newDeveloper } from '../testing/developer.test-support.js';
import { developerError, errorCode } from '../testing/error-code.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const payer = () => t.fixtures.customers[0]!;
type Dev = ReturnType<typeof newDeveloper>;

async function requestFrom(dev: Dev, extra: Record<string, unknown> = {}) {
  const body = {
    payer_contact_info: payer().email,
    receiving_account: dev.php,
    amount: '40',
    message: 'cancel me',
    ...extra,
  };
  const res = await t.signed('POST', '/v3/payment-requests/', { ...as(dev), body });
  expect(res.status).toBe(201);
  return res.body['payment-request'];
}
const cancel = (dev: Dev, id: string, path = `/v3/payment-requests/${id}/`) =>
  t.signed('DELETE', path, as(dev));

describe('DELETE /v3/payment-requests/{id}/ (cancelPaymentRequest)', () => {
  it('cancels a pending request: 200 with the request, canceled, read back so, nothing moved', async () => {
    const dev = newDeveloper(t, { php: '0' });
    const wallet = payer().accounts.find((a) => a.currency === 'PHP')!.id;
    const before = balanceOf(t, wallet);
    const request = await requestFrom(dev);
    t.advance(5);
    const res = await cancel(dev, request.id);
    expect(res.status).toBe(200);
    expect(res.body['payment-request']).toEqual({
      ...request,
      status: 'canceled',
      updated_at: res.body['payment-request'].updated_at,
    });
    expect(
      Date.parse(res.body['payment-request'].updated_at) - Date.parse(request.updated_at),
    ).toBeGreaterThanOrEqual(5000);
    expect(
      (await t.signed('GET', `/v3/payment-requests/${request.id}/`, as(dev))).body[
        'payment-request'
      ].status,
    ).toBe('canceled');
    expect(balanceOf(t, wallet)).toBe(before);
    // A canceled request cannot be paid any more, on the payer's side either.
    const pay = await t.request('POST', `/_sandbox/payment-requests/${request.id}/status`, {
      body: { status: 'paid' },
    });
    expect(pay.status).toBe(409);
    expect(balanceOf(t, wallet)).toBe(before);
    t.assertLedger();
  });

  it('answers at the legacy prefix the PHP client calls, and without the trailing slash', async () => {
    const dev = newDeveloper(t, { php: '0' });
    const a = await requestFrom(dev);
    const b = await requestFrom(dev);
    expect((await cancel(dev, a.id, `/api/v3/payment-requests/${a.id}/`)).status).toBe(200);
    expect(
      (await cancel(dev, b.id, `/v3/payment-requests/${b.id}`)).body['payment-request'].status,
    ).toBe('canceled');
  });

  it('refuses a request that is no longer pending (409) and another owner’s or an unknown id (404)', async () => {
    const dev = newDeveloper(t, { php: '0' });
    const other = newDeveloper(t, { php: '0' });
    const paid = await requestFrom(dev);
    expect(
      (
        await t.request('POST', `/_sandbox/payment-requests/${paid.id}/status`, {
          body: { status: 'paid' },
        })
      ).status,
    ).toBe(200);
    const twice = await cancel(dev, paid.id);
    expect(twice.status).toBe(409);
    expect(twice.body).toEqual(
      developerError('invalid_state_transition', {
        non_field_errors: ['Payment request is paid; only a pending request can be canceled.'],
      }),
    );
    const expiring = await requestFrom(dev, { expires_in_seconds: 60 });
    t.advance(61);
    const late = await cancel(dev, expiring.id);
    expect(late.status).toBe(409);
    expect(late.body.errors.non_field_errors).toEqual([
      'Payment request is expired; only a pending request can be canceled.',
    ]);
    const theirs = await requestFrom(other);
    const foreign = await cancel(dev, theirs.id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual(developerError('not_found', { non_field_errors: ['Not found.'] }));
    expect(
      (await t.signed('GET', `/v3/payment-requests/${theirs.id}/`, as(other))).body[
        'payment-request'
      ].status,
    ).toBe('pending');
    expect((await cancel(dev, 'f'.repeat(32))).status).toBe(404);
    const unsigned = await t.request('DELETE', `/v3/payment-requests/${theirs.id}/`);
    expect(unsigned.status).toBe(401);
    expect(errorCode(unsigned.body)).toBe('missing_credentials');
  });
});
