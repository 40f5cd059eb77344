import { expect } from 'vitest';
import { itemAt, required } from '../shared/defined.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';

/**
 * Real time standing still (the sandbox clock still moves by its offset): reads that count seconds left
 * (`expires_in_seconds`) answer the same for the original and its copy.
 */
export const NOW_MS = Date.parse('2026-11-20T09:00:00.000Z');

export interface WorkspaceView {
  id: string;
  merchant: { id: string; merchant_api_token: string; wallet_account_id: string };
  app: {
    api_key: string;
    api_secret: string;
    owner: { accounts: Array<{ id: string; currency: string }> };
  };
  customer: {
    id: string;
    email: string;
    mobile_number: string;
    password: string;
    accounts: Array<{ id: string }>;
  };
}

export async function newWorkspace(
  t: TestApp,
  body: Record<string, unknown> = {},
): Promise<WorkspaceView> {
  const res = await t.request('POST', '/_sandbox/workspaces', { body });
  expect(res.status, res.text).toBe(201);
  return res.body.workspace;
}

/** `POST /_sandbox/workspaces/:id/snapshots`: the snapshot it took. */
export async function takeSnapshot(t: TestApp, workspaceId: string) {
  const res = await t.request('POST', `/_sandbox/workspaces/${workspaceId}/snapshots`);
  expect(res.status, res.text).toBe(201);
  return res.body.snapshot;
}

const as = (ws: WorkspaceView) => ({ key: ws.app.api_key, secret: ws.app.api_secret });
const phpOf = (ws: WorkspaceView) =>
  required(
    ws.app.owner.accounts.find((a) => a.currency === 'PHP'),
    "the workspace owner's PHP wallet",
  ).id;

/**
 * The state QA sets up once: a merchant with a failing callback, invoices paid, part-paid, with a counter
 * reference, canceled and pending (their callbacks pending), a pending transfer, a sell order, a buy
 * order and a payment request.
 */
export async function buildScenario(t: TestApp): Promise<WorkspaceView> {
  const ws = await newWorkspace(t);
  const ok = (res: { status: number; text: string }, status = 201) =>
    expect(res.status, res.text).toBe(status);
  ok(
    await t.request('PATCH', `/_sandbox/merchants/${ws.merchant.id}`, {
      body: { callback_url: 'http://127.0.0.1:9/callbacks' },
    }),
    200,
  );
  const invoices: string[] = [];
  for (let i = 1; i <= 5; i++) {
    const res = await t.request('POST', '/v1/invoices/', {
      token: ws.merchant.merchant_api_token,
      body: {
        amount: 250,
        currency: 'PHP',
        external_transaction_id: `order-${i}`,
        description: `Order ${i}`,
      },
    });
    ok(res);
    invoices.push(res.body.invoice.id);
  }
  const pay = (id: string, body: object) =>
    t.request('POST', `/_sandbox/invoices/${id}/payments`, { body });
  ok(
    await pay(itemAt(invoices, 0), { collector: 'coins_peso_wallet', customer: ws.customer.email }),
  );
  ok(
    await pay(itemAt(invoices, 1), {
      collector: 'coins_peso_wallet',
      amount: '100',
      customer: ws.customer.email,
    }),
  );
  ok(
    await t.request('POST', '/_sandbox/trigger', {
      body: { event: 'invoice.payment_reference_number_generated', invoice_id: invoices[2] },
    }),
  );
  ok(await t.request('POST', `/_sandbox/invoices/${invoices[3]}/cancel`), 200);
  ok(
    await t.signed('POST', '/v3/transfers/', {
      ...as(ws),
      body: { account: phpOf(ws), target_address: ws.customer.email, amount: '5' },
    }),
  );
  ok(
    await t.signed('POST', '/v1/sellorder', {
      ...as(ws),
      body: {
        outlet_id: itemAt(t.fixtures.payout_outlets, 0).id,
        amount: '120',
        currency: 'PHP',
        target_address: '001234567890',
      },
    }),
  );
  ok(
    await t.request('POST', '/_sandbox/buyorders', {
      body: { api_key: ws.app.api_key, amount: '50' },
    }),
  );
  ok(
    await t.signed('POST', '/v3/payment-requests/', {
      ...as(ws),
      body: {
        payer_contact_info: ws.customer.email,
        receiving_account: phpOf(ws),
        amount: '75',
        message: 'Dinner on Friday',
      },
    }),
  );
  return ws;
}

/** What a QA test reads of a workspace: invoices, balances, orders, transfers, requests and callbacks. */
export async function readWorkspace(t: TestApp, ws: WorkspaceView) {
  const get = async (path: string) => {
    const res = await t.request('GET', path);
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.body;
  };
  const signedGet = async (path: string) => {
    const res = await t.signed('GET', path, as(ws));
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.body;
  };
  const invoices = (
    await t.request('GET', '/v3/invoices/?per_page=100', { token: ws.merchant.merchant_api_token })
  ).body;
  const accounts = [
    ws.merchant.wallet_account_id,
    ...ws.app.owner.accounts.map((a) => a.id),
    ...ws.customer.accounts.map((a) => a.id),
  ];
  const deliveries = [];
  for (const inv of invoices.invoices)
    deliveries.push(await get(`/_sandbox/deliveries?invoice_id=${inv.id}`));
  return {
    invoices,
    deliveries,
    accounts: await Promise.all(accounts.map((id) => get(`/_sandbox/accounts/${id}`))),
    cryptoAccounts: await signedGet('/v3/crypto-accounts/'),
    sellOrders: await signedGet('/v1/sellorder'),
    buyOrders: await signedGet('/v1/buyorder'),
    transfers: await signedGet('/v3/transfers'),
    paymentRequests: await signedGet('/v3/payment-requests/'),
  };
}

const TIMESTAMP = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z/g;
const RENEWED =
  /[0-9a-f]{32}|\b3[1-9A-HJ-NP-Za-km-z]{33}\b|\+639\d{9}|(?<=")\d{13}(?=")|ws-[0-9a-f]{32}@[a-z.]+|\b[0-9a-z]{40}\b/g;

/**
 * A read with its ids, credentials and references named by order of first appearance (`<id 3>`) and its
 * timestamps blanked: two reads are equal when they have the same structure and values, ids mapped.
 */
export function normalized(read: unknown): unknown {
  const names = new Map<string, string>();
  const text = JSON.stringify(read)
    .replace(TIMESTAMP, '<time>')
    .replace(RENEWED, (v) => {
      let name = names.get(v);
      if (name === undefined) names.set(v, (name = `<id ${names.size + 1}>`));
      return name;
    });
  return JSON.parse(text);
}

/** Rows of every table of the database (what an import must leave as it was when it fails). */
export function rowCounts(t: TestApp): Record<string, number> {
  const tables = t.db
    .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .pluck()
    .all() as string[];
  return Object.fromEntries(
    tables.map((n) => [n, t.db.prepare(`SELECT COUNT(*) FROM "${n}"`).pluck().get() as number]),
  );
}

/**
 * The export of buildScenario's workspace, from a sandbox of its own whose real time stands at `nowMs`
 * (as a team's committed scenario file is exported once, then imported anywhere).
 */
export async function exportedScenario(nowMs: number): Promise<unknown> {
  const source = createTestApp({ realNowMs: () => nowMs });
  try {
    const ws = await buildScenario(source);
    const snap = (await source.request('POST', `/_sandbox/workspaces/${ws.id}/snapshots`)).body
      .snapshot;
    return (await source.request('GET', `/_sandbox/snapshots/${snap.id}/export`)).body;
  } finally {
    source.close();
  }
}
