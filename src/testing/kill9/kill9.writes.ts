import { createHmac } from 'node:crypto';
import { itemAt, required } from '../../shared/defined.js';

/** A write the sandbox acknowledged (2xx): it must survive any crash that comes after. */
export type Ack =
  | { kind: 'invoice'; id: string }
  | { kind: 'payment'; id: string; invoiceId: string }
  | { kind: 'sellOrder'; id: string }
  | { kind: 'transfer'; id: string }
  | { kind: 'funding'; accountId: string };

/** A signed request the sandbox accepted, kept whole so that it can be replayed byte for byte. */
export interface SignedWrite {
  key: string;
  nonce: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface Credentials {
  merchantToken: string;
  /** Whitelisted apps, one per worker (nonces of one key must arrive in order). */
  apps: Array<{ key: string; secret: string; account: string }>;
  /** A customer wallet that pays invoices and receives transfers, funded through the control API. */
  customerEmail: string;
  customerAccount: string;
  outletId: string;
}

export interface WriteLog {
  acks: Ack[];
  /** The last accepted signed write per key. */
  lastSigned: Map<string, SignedWrite>;
  /** Path (without host) of each accepted signed write's URL and its nonce, for every key. */
  signedNonces: Map<string, bigint>;
}

export const newWriteLog = (): WriteLog => ({
  acks: [],
  lastSigned: new Map(),
  signedNonces: new Map(),
});

let nonceBase = BigInt(Date.now()) * 1000n;

/** The answer; `T` is the shape of the success the caller reads (null when the body is not JSON). */
interface Answer<T> {
  status: number;
  body: T;
}

interface Created {
  invoice: { id: string; status: string };
  payment: { id: string };
  order: { id: string };
  transfer: { id: string };
}

async function post<T = unknown>(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Answer<T>> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/**
 * One worker of mixed writes (invoices, wallet and counter payments, sell orders, transfers,
 * fundings) against `base` until `stop()` says so or the server is gone. Every 2xx goes to the log.
 */
export async function writeWorker(
  base: string,
  creds: Credentials,
  worker: number,
  log: WriteLog,
  stop: () => boolean,
  random: () => number,
): Promise<void> {
  const app = itemAt(creds.apps, worker % creds.apps.length);
  const pending: string[] = [];
  let n = 0;
  const signed = async <T>(path: string, payload: unknown): Promise<Answer<T>> => {
    const url = base + path;
    const body = JSON.stringify(payload);
    const nonce = String((nonceBase += 1n));
    const headers = {
      'content-type': 'application/json',
      'Access-Key': app.key,
      'Access-Nonce': nonce,
      'Access-Signature': createHmac('sha256', app.secret)
        .update(nonce + url + body)
        .digest('hex'),
    };
    const res = await fetch(url, { method: 'POST', headers, body });
    const out = { status: res.status, body: await res.json().catch(() => null) };
    if (res.status < 300) {
      log.lastSigned.set(app.key, { key: app.key, nonce, url, path, headers, body });
      const prev = log.signedNonces.get(app.key) ?? 0n;
      if (BigInt(nonce) > prev) log.signedNonces.set(app.key, BigInt(nonce));
    }
    return out;
  };
  while (!stop()) {
    const pick = random();
    try {
      if (pick < 0.3 || !pending.length) {
        const r = await post<Pick<Created, 'invoice'>>(
          `${base}/v1/invoices/`,
          {
            amount: 20,
            currency: 'PHP',
            external_transaction_id: `k9-${worker}-${Date.now()}-${n++}`,
          },
          { authorization: `Token ${creds.merchantToken}` },
        );
        if (r.status === 201) {
          log.acks.push({ kind: 'invoice', id: r.body.invoice.id });
          pending.push(r.body.invoice.id);
        }
      } else if (pick < 0.5) {
        const invoiceId = required(pending.shift(), 'a pending invoice');
        const wallet = random() < 0.5;
        const body = wallet
          ? { collector: 'coins_peso_wallet', customer: creds.customerEmail, amount: '5' }
          : { collector: 'cash_payment' };
        const r = await post<Pick<Created, 'invoice' | 'payment'>>(
          `${base}/_sandbox/invoices/${invoiceId}/payments`,
          body,
        );
        if (r.status === 201) {
          log.acks.push({ kind: 'payment', id: r.body.payment.id, invoiceId });
          if (r.body.invoice.status === 'pending') pending.push(invoiceId);
        }
      } else if (pick < 0.65) {
        const r = await signed<Pick<Created, 'order'>>('/v1/sellorder', {
          outlet_id: creds.outletId,
          amount: '10',
          currency: 'PHP',
          external_transaction_id: `k9-so-${worker}-${n++}`,
        });
        if (r.status === 201) log.acks.push({ kind: 'sellOrder', id: r.body.order.id });
      } else if (pick < 0.8) {
        const r = await signed<Pick<Created, 'transfer'>>('/v3/transfers/', {
          account: app.account,
          target_address: creds.customerEmail,
          amount: '1',
        });
        if (r.status === 201) log.acks.push({ kind: 'transfer', id: r.body.transfer.id });
      } else {
        const r = await post(`${base}/_sandbox/accounts/${creds.customerAccount}/fund`, {
          amount: '3',
        });
        if (r.status === 200) log.acks.push({ kind: 'funding', accountId: creds.customerAccount });
      }
    } catch {
      return; // the server is gone (killed): this worker's run is over
    }
  }
}
