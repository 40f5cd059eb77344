import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { itemAt, required } from '../shared/defined.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { balanceOf, createInvoice, postForm, testIds } from '../testing/checkout.test-support.js';

// A wallet session ends on the server: a cookie kept (or copied) after logout, or opened before its
// workspace was deleted, no longer pays an invoice or a payment request.
let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => {
  t.assertLedger();
  return t.close();
});

const invoicePage = (id: string) => `/payment/invoice/${id}`;
const requestPage = (id: string) => `/payment/request/${id}`;

interface Workspace {
  id: string;
  merchant: { merchant_api_token: string };
  app: { api_key: string; api_secret: string; owner: { accounts: Array<{ id: string }> } };
  customer: { email: string; password: string; accounts: Array<{ id: string }> };
}
const workspace = async () =>
  (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace as Workspace;

it('an invoice session cookie kept after logout no longer pays', async () => {
  const inv = await createInvoice(t);
  const c = t.fixtures.customers[0]!;
  const cookie = (
    await postForm(t, `${invoicePage(inv.id)}/wallet/login`, {
      login: c.email,
      password: c.password,
    })
  ).cookie!;
  expect((await postForm(t, `${invoicePage(inv.id)}/wallet/logout`, {}, cookie)).status).toBe(303);
  const before = balanceOf(t, c.accounts[0]!.id);
  const res = await postForm(t, `${invoicePage(inv.id)}/wallet/confirm`, {}, cookie);
  expect(res.status).toBe(401);
  expect(testIds(res.html)).toContain('session-expired');
  expect(balanceOf(t, c.accounts[0]!.id)).toBe(before);
  expect(t.services.invoiceRepo.byId(inv.id)!.status).toBe('pending');
});

it('a payment request session cookie kept after logout no longer pays', async () => {
  const ws = await workspace();
  const id = await paymentRequest(ws);
  const cookie = (
    await postForm(t, `${requestPage(id)}/wallet/login`, {
      login: ws.customer.email,
      password: ws.customer.password,
    })
  ).cookie!;
  expect((await postForm(t, `${requestPage(id)}/wallet/logout`, {}, cookie)).status).toBe(303);
  const res = await postForm(t, `${requestPage(id)}/pay`, {}, cookie);
  expect(res.status).toBe(401);
  expect(testIds(res.html)).toContain('session-expired');
  expect(statusOf(id)).toBe('pending');
});

it('deleting a workspace ends its customers’ sessions: neither its invoice nor its payment request is paid', async () => {
  const ws = await workspace();
  const inv = await createInvoice(t, {}, ws.merchant.merchant_api_token);
  const reqId = await paymentRequest(ws);
  const login = { login: ws.customer.email, password: ws.customer.password };
  const invoiceCookie = (await postForm(t, `${invoicePage(inv.id)}/wallet/login`, login)).cookie!;
  const requestCookie = (await postForm(t, `${requestPage(reqId)}/wallet/login`, login)).cookie!;
  // A base-data customer's session on another invoice is not the deleted tenant's: it still pays.
  const other = await createInvoice(t);
  const base = t.fixtures.customers[0]!;
  const baseCookie = (
    await postForm(t, `${invoicePage(other.id)}/wallet/login`, {
      login: base.email,
      password: base.password,
    })
  ).cookie!;
  expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
  const before = balanceOf(t, ws.customer.accounts[0]!.id);
  const pay = await postForm(t, `${invoicePage(inv.id)}/wallet/confirm`, {}, invoiceCookie);
  expect(pay.status).toBe(401);
  expect(testIds(pay.html)).toContain('session-expired');
  const answer = await postForm(t, `${requestPage(reqId)}/pay`, {}, requestCookie);
  expect(answer.status).toBe(401);
  expect(balanceOf(t, ws.customer.accounts[0]!.id)).toBe(before);
  expect(t.services.invoiceRepo.byId(inv.id)!.status).toBe('pending');
  expect(statusOf(reqId)).toBe('pending');
  expect(
    (await postForm(t, `${invoicePage(other.id)}/wallet/confirm`, {}, baseCookie)).status,
  ).toBe(303);
});

it('a workspace that expires on the clock ends its customers’ sessions too', async () => {
  const ws = (await t.request('POST', '/_sandbox/workspaces', { body: { ttl_seconds: 3600 } })).body
    .workspace as Workspace;
  const inv = await createInvoice(t, { expires_at: '1d' }, ws.merchant.merchant_api_token);
  const cookie = (
    await postForm(t, `${invoicePage(inv.id)}/wallet/login`, {
      login: ws.customer.email,
      password: ws.customer.password,
    })
  ).cookie!;
  await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 3601 } });
  await t.request('POST', '/_sandbox/clock/reset');
  expect((await postForm(t, `${invoicePage(inv.id)}/wallet/confirm`, {}, cookie)).status).toBe(401);
  expect(t.services.invoiceRepo.byId(inv.id)!.status).toBe('pending');
});

describe('session expiry, due work of the clock', () => {
  const SESSION_MICROS = 15 * 60 * 1_000_000;
  const login = async (invoiceId: string, who: { email: string; password: string }) => {
    const res = await postForm(t, `${invoicePage(invoiceId)}/wallet/login`, {
      login: who.email,
      password: who.password,
    });
    expect(res.status).toBe(303);
    return required(res.cookie, 'the session cookie');
  };

  it('a new session lowers the guard to its expiry, on its workspace clock moved back by the offset', async () => {
    const ws = await workspace();
    await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: 3600 },
    });
    const inv = await createInvoice(t, { expires_at: '1d' }, ws.merchant.merchant_api_token);
    const sandbox = t.services.tenants.sandbox;
    const before = sandbox.now();
    await login(inv.id, ws.customer);
    const after = sandbox.now();
    const due = t.services.dueWork.nextDueAt();
    expect(due).toBeGreaterThanOrEqual(before + SESSION_MICROS);
    expect(due).toBeLessThanOrEqual(after + SESSION_MICROS);
  });

  it('a session past its expiry is logged out by the first request after it, for good (the clock moved back revives none)', async () => {
    const inv = await createInvoice(t, { expires_at: '1d' });
    const c = itemAt(t.fixtures.customers, 0);
    const cookie = await login(inv.id, c);
    t.advance(901); // the offset moves with no clock work run (as between two background ticks)
    expect((await t.request('GET', '/_sandbox/clock')).status).toBe(200);
    t.services.clock.setOffsetMicros(0); // back, again with no clock work run
    const before = balanceOf(t, itemAt(c.accounts, 0).id);
    const res = await postForm(t, `${invoicePage(inv.id)}/wallet/confirm`, {}, cookie);
    expect(res.status).toBe(401);
    expect(testIds(res.html)).toContain('session-expired');
    expect(balanceOf(t, itemAt(c.accounts, 0).id)).toBe(before);
    expect(t.services.invoiceRepo.byId(inv.id)?.status).toBe('pending');
  });

  it("a workspace customer's session expires on its workspace clock: advanced past it, then reset, it no longer pays", async () => {
    const ws = await workspace();
    const other = await workspace();
    const inv = await createInvoice(t, { expires_at: '1d' }, ws.merchant.merchant_api_token);
    const kept = await createInvoice(t, { expires_at: '1d' }, other.merchant.merchant_api_token);
    const cookie = await login(inv.id, ws.customer);
    const keptCookie = await login(kept.id, other.customer);
    await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/advance`, {
      body: { seconds: 901 },
    });
    await t.request('POST', `/_sandbox/workspaces/${ws.id}/clock/reset`);
    const res = await postForm(t, `${invoicePage(inv.id)}/wallet/confirm`, {}, cookie);
    expect(res.status).toBe(401);
    expect(testIds(res.html)).toContain('session-expired');
    expect(t.services.invoiceRepo.byId(inv.id)?.status).toBe('pending');
    // Another workspace's session is on its own clock, which did not move.
    expect(
      (await postForm(t, `${invoicePage(kept.id)}/wallet/confirm`, {}, keptCookie)).status,
    ).toBe(303);
  });
});

const statusOf = (id: string) =>
  t.db.prepare('SELECT status FROM payment_requests WHERE id = ?').pluck().get(id);

/** A payment request from the workspace's app to the workspace's customer. */
async function paymentRequest(ws: Workspace): Promise<string> {
  const res = await t.signed('POST', '/v3/payment-requests/', {
    key: ws.app.api_key,
    secret: ws.app.api_secret,
    body: {
      payer_contact_info: ws.customer.email,
      receiving_account: ws.app.owner.accounts[0]!.id,
      amount: '5',
      message: 'Lunch',
    },
  });
  expect(res.status).toBe(201);
  return res.body['payment-request'].id as string;
}
