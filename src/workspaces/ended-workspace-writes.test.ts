import { afterEach, describe, expect, it } from 'vitest';
import { required } from '../shared/defined.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * A deleted (or expired) workspace's rows no longer change through the control API: its merchant,
 * applications and customers are gone, so is its money. Each write is a 409, as for its invoices
 * (src/payments/deleted-workspace.test.ts), and nothing moves.
 */
let t: TestApp;
afterEach(() => t?.close());

interface Workspace {
  id: string;
  app: {
    api_key: string;
    api_secret: string;
    owner: { accounts: Array<{ id: string; currency: string }> };
  };
  customer: { email: string; accounts: Array<{ id: string }> };
}

const customerWallet = (ws: Workspace) =>
  required(ws.customer.accounts[0], 'the customer’s wallet').id;

/** Nothing moves by itself: every move below is the control API's. */
const still = () =>
  createTestApp({
    config: { transferSettleSeconds: 0, sellOrderAutoAdvanceSeconds: 0, buyOrderReleaseSeconds: 0 },
  });

async function workspace(body: Record<string, unknown> = {}): Promise<Workspace> {
  const res = await t.request('POST', '/_sandbox/workspaces', { body });
  expect(res.status).toBe(201);
  return res.body.workspace;
}

/** The workspace's payment request, a pending transfer, a paid buy order and a sell order, all pending. */
async function rowsOf(ws: Workspace) {
  const auth = { key: ws.app.api_key, secret: ws.app.api_secret };
  const php = required(
    ws.app.owner.accounts.find((a) => a.currency === 'PHP'),
    'the owner’s PHP wallet',
  ).id;
  const request = await t.signed('POST', '/v3/payment-requests/', {
    ...auth,
    body: { payer_contact_info: ws.customer.email, receiving_account: php, amount: '7' },
  });
  expect(request.status).toBe(201);
  const transfer = await t.signed('POST', '/v3/transfers/', {
    ...auth,
    body: { account: php, target_address: ws.customer.email, amount: '3' },
  });
  expect(transfer.status).toBe(201);
  const buy = await t.request('POST', '/_sandbox/buyorders', {
    body: { api_key: ws.app.api_key, amount: '5', status: 'payment_received' },
  });
  expect(buy.status).toBe(201);
  const sell = await t.signed('POST', '/v1/sellorder', {
    ...auth,
    body: {
      outlet_id: required(t.fixtures.payout_outlets[0], 'a payout outlet').id,
      amount: '1000',
      currency: 'PHP',
      external_transaction_id: 'ended-1',
      target_address: '001234567890',
    },
  });
  expect(sell.status).toBe(201);
  return {
    php,
    writes: [
      {
        what: 'payment request',
        to: 'paid',
        path: `/_sandbox/payment-requests/${request.body['payment-request'].id}/status`,
        body: { status: 'paid' },
      },
      {
        what: 'transfer',
        to: 'success',
        path: `/_sandbox/transfers/${transfer.body.transfer.id}/status`,
        body: { status: 'success' },
      },
      {
        what: 'buy order',
        to: 'released',
        path: `/_sandbox/buyorders/${buy.body.order.id}/status`,
        body: { status: 'released' },
      },
      {
        what: 'sell order',
        to: 'failed',
        path: `/_sandbox/sellorders/${sell.body.order.id}/status`,
        body: { status: 'failed' },
      },
      {
        what: 'account',
        to: null,
        path: `/_sandbox/accounts/${customerWallet(ws)}/fund`,
        body: { amount: '100' },
      },
    ],
  };
}

const balances = (ws: Workspace, php: string) =>
  [php, customerWallet(ws)].map((id) => t.services.ledger.get(id)?.balance);
const entryCount = () => t.db.prepare('SELECT count(*) FROM ledger_entries').pluck().get();

async function expectRefused(ws: Workspace, rows: Awaited<ReturnType<typeof rowsOf>>) {
  const before = { balances: balances(ws, rows.php), entries: entryCount() };
  const answers = [];
  for (const w of rows.writes)
    answers.push({ what: w.what, ...(await t.request('POST', w.path, { body: w.body })) });
  expect(answers.map((a) => ({ what: a.what, status: a.status, body: a.body }))).toEqual(
    rows.writes.map((w) => ({
      what: w.what,
      status: 409,
      body: {
        error_codes: ['invalid_state_transition'],
        errors: {
          non_field_errors: [
            `The ${w.what}'s workspace was deleted; ${
              w.to === null ? 'it cannot be funded.' : `it cannot become ${w.to}.`
            }`,
          ],
        },
      },
    })),
  );
  expect({ balances: balances(ws, rows.php), entries: entryCount() }).toEqual(before);
  t.assertLedger();
}

describe("a deleted workspace's rows through the control API", () => {
  it('are refused with 409 and nothing moves: payment request, transfer, buy and sell order, fund', async () => {
    t = still();
    const ws = await workspace();
    const rows = await rowsOf(ws);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
    await expectRefused(ws, rows);
  });

  it('so are an expired workspace’s (its TTL ran out on the sandbox clock)', async () => {
    t = still();
    const ws = await workspace({ ttl_seconds: 60 });
    const rows = await rowsOf(ws);
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 120 } });
    expect((await t.request('GET', `/_sandbox/workspaces/${ws.id}/clock`)).status).toBe(404);
    await expectRefused(ws, rows);
  });

  it('a live workspace’s same writes still go through', async () => {
    t = still();
    const ws = await workspace();
    const rows = await rowsOf(ws);
    for (const w of rows.writes)
      expect((await t.request('POST', w.path, { body: w.body })).status, w.path).toBe(200);
    t.assertLedger();
  });
});
