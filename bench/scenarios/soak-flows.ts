import { signedHeaders, type SigningKey } from '../lib/hmac.js';
import { itemAt } from '../../src/shared/defined.js';

/** What one soak worker needs: the sandbox, a merchant, its own HMAC key and a paying customer. */
export interface SoakContext {
  baseUrl: string;
  merchantToken: string;
  key: SigningKey;
  /** The key's own PHP wallet (source of transfers). */
  account: string;
  customerEmail: string;
  customerAccount: string;
  outletId: string;
}

export interface SoakCounters {
  requests: number;
  flows: Record<string, number>;
  errors: number;
  /** The first few errors, verbatim, for the report. */
  errorSamples: string[];
}

/** A request of a flow; a status other than `expect` counts as an error of the soak. */
async function call(
  c: SoakCounters,
  method: string,
  url: string,
  expect: number,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<any> {
  c.requests++;
  const text = body === undefined ? undefined : JSON.stringify(body);
  let status = 0;
  let answer = '';
  try {
    const res = await fetch(url, {
      method,
      headers: { ...(text ? { 'content-type': 'application/json' } : {}), ...headers },
      body: text,
    });
    status = res.status;
    answer = await res.text();
    if (status === expect) return answer.startsWith('{') ? JSON.parse(answer) : answer;
  } catch (err) {
    answer = (err as Error).message;
  }
  c.errors++;
  if (c.errorSamples.length < 10)
    c.errorSamples.push(
      `${method} ${url} → ${status} (expected ${expect}): ${answer.slice(0, 200)}`,
    );
  return undefined;
}

const signed = (
  c: SoakCounters,
  ctx: SoakContext,
  method: string,
  path: string,
  expect: number,
  body?: unknown,
) => {
  const url = ctx.baseUrl + path;
  return call(
    c,
    method,
    url,
    expect,
    body,
    signedHeaders(ctx.key, url, body === undefined ? '' : JSON.stringify(body)),
  );
};

let seq = 0;

/**
 * The flows of the soak, each a short story a real integration tells: an invoice paid from a wallet
 * or over the counter (with reads and the hosted page), a payout that fails and is refunded, a
 * transfer, account reads, and the funding that keeps the customer able to pay.
 */
export const FLOWS: Record<string, (c: SoakCounters, ctx: SoakContext) => Promise<void>> = {
  async 'invoice-wallet'(c, ctx) {
    const auth = { authorization: `Token ${ctx.merchantToken}` };
    const created = await call(
      c,
      'POST',
      `${ctx.baseUrl}/v1/invoices/`,
      201,
      {
        amount: '25',
        currency: 'PHP',
        external_transaction_id: `soak-${process.pid}-${seq++}`,
        metadata: { n: seq },
      },
      auth,
    );
    if (!created) return;
    const id = created.invoice.id;
    await call(c, 'GET', `${ctx.baseUrl}/payment/invoice/${id}`, 200);
    await call(c, 'POST', `${ctx.baseUrl}/_sandbox/invoices/${id}/payments`, 201, {
      collector: 'coins_peso_wallet',
      customer: ctx.customerEmail,
      amount: '10',
    });
    await call(c, 'POST', `${ctx.baseUrl}/_sandbox/invoices/${id}/payments`, 201, {
      collector: 'coins_peso_wallet',
      customer: ctx.customerEmail,
    });
    await call(c, 'GET', `${ctx.baseUrl}/v3/invoices/${id}/`, 200, undefined, auth);
  },
  async 'invoice-counter'(c, ctx) {
    const auth = { authorization: `Bearer ${ctx.merchantToken}` };
    const created = await call(
      c,
      'POST',
      `${ctx.baseUrl}/v3/invoices/`,
      201,
      { amount: '40', currency: 'PHP', external_transaction_id: `soak-${process.pid}-${seq++}` },
      { authorization: `Token ${ctx.merchantToken}` },
    );
    if (!created) return;
    await call(c, 'POST', `${ctx.baseUrl}/_sandbox/invoices/${created.invoice.id}/payments`, 201, {
      collector: 'cash_payment',
    });
    await call(
      c,
      'GET',
      `${ctx.baseUrl}/v3/invoices/?page=1&per_page=20&status=fully_paid`,
      200,
      undefined,
      { authorization: auth.authorization.replace('Bearer', 'Token') },
    );
  },
  async 'sellorder-refund'(c, ctx) {
    const order = await signed(c, ctx, 'POST', '/v1/sellorder', 201, {
      outlet_id: ctx.outletId,
      amount: '15',
      currency: 'PHP',
      external_transaction_id: `soak-so-${process.pid}-${seq++}`,
    });
    if (!order) return;
    await signed(c, ctx, 'GET', `/v1/sellorder/${order.order.id}`, 200);
    await call(c, 'POST', `${ctx.baseUrl}/_sandbox/sellorders/${order.order.id}/status`, 200, {
      status: 'failed',
    });
    await signed(c, ctx, 'GET', '/v2/sellorder?limit=10&offset=0', 200);
  },
  async transfer(c, ctx) {
    const t = await signed(c, ctx, 'POST', '/v3/transfers/', 201, {
      account: ctx.account,
      target_address: ctx.customerEmail,
      amount: '2',
    });
    if (t) await signed(c, ctx, 'GET', `/v3/transfers/${t.transfer.id}`, 200);
  },
  async reads(c, ctx) {
    await signed(c, ctx, 'GET', '/v3/crypto-accounts/?currency=PHP', 200);
    await signed(c, ctx, 'POST', '/v3/partner-payout-outlet-fees', 200, {
      outlet_id: ctx.outletId,
      amount: '1500',
    });
    await call(c, 'GET', `${ctx.baseUrl}/_sandbox/deliveries?per_page=5`, 200);
  },
  async funding(c, ctx) {
    await call(c, 'POST', `${ctx.baseUrl}/_sandbox/accounts/${ctx.customerAccount}/fund`, 200, {
      amount: '60',
    });
  },
};

/** Run the flows in turn until `until` (performance.now() ms). */
export async function soakWorker(ctx: SoakContext, c: SoakCounters, until: number): Promise<void> {
  const flows = Object.entries(FLOWS);
  for (let i = 0; performance.now() < until; i++) {
    const [name, flow] = itemAt(flows, i % flows.length);
    await flow(c, ctx);
    c.flows[name] = (c.flows[name] ?? 0) + 1;
  }
}
