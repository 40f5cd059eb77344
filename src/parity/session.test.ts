import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSpec } from '../sandbox.js';
import type { HarEntry, LoadedEntry } from './har.js';
import { replayAll, runParity, type EntryResult } from './run.js';
import { freshCredentials, inProcessTarget, type Credentials, type Target } from './target.js';

// A recorded session of dependent calls, as `paysandbox record` writes it: made in one workspace (the
// "other service"), then replayed in another, whose ids, accounts and e-mails are not the recorded ones.
let target: Target;
let recordedIn: Credentials;
let session: LoadedEntry[];

interface Call {
  method: string;
  path: string;
  body?: Record<string, string>;
  form?: boolean;
  auth: 'hmac' | 'token';
}

async function record(
  creds: Credentials,
  c: Call & { nonce?: string },
  index: number,
): Promise<LoadedEntry> {
  const url = `${target.baseUrl}${c.path}`;
  const body = c.body
    ? c.form
      ? new URLSearchParams(c.body).toString()
      : JSON.stringify(c.body)
    : undefined;
  const type = c.form ? 'application/x-www-form-urlencoded' : 'application/json';
  const auth: Record<string, string> =
    c.auth === 'token'
      ? { authorization: `Token ${creds.merchantToken}` }
      : creds.signer.sign(url, body ?? '', { nonce: c.nonce });
  const headers = {
    accept: 'application/json',
    ...(body ? { 'content-type': type } : {}),
    ...auth,
  };
  const res = await target.fetch(url, { method: c.method, headers, body });
  const text = await res.text();
  const entry: HarEntry = {
    startedDateTime: new Date().toISOString(),
    time: 0,
    request: {
      method: c.method,
      url: `https://staging.example${c.path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: Object.entries(headers).map(([name, value]) => ({ name, value })),
      queryString: [],
      ...(body ? { postData: { mimeType: type, text: body } } : {}),
      headersSize: -1,
      bodySize: -1,
    },
    response: {
      status: res.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [],
      content: { size: text.length, mimeType: 'application/json', text },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: 0, receive: 0 },
  };
  return { key: `session.har#${index}`, family: 'session', index, entry, corpus: false };
}

const idOf = (e: LoadedEntry, key: string) =>
  (JSON.parse(e.entry.response.content.text ?? '{}') as Record<string, { id: string }>)[key]?.id;

beforeAll(async () => {
  target = await inProcessTarget();
  recordedIn = await freshCredentials(target);
  session = [];
  const add = async (c: Call) => {
    const e = await record(recordedIn, c, session.length);
    expect(
      e.entry.response.status,
      `${c.method} ${c.path}: ${e.entry.response.content.text}`,
    ).toBeLessThan(300);
    session.push(e);
    return e;
  };
  const invoice = await add({
    method: 'POST',
    path: '/v3/invoices/',
    body: { amount: '20', currency: 'PHP', external_transaction_id: 'session-1' },
    auth: 'token',
  });
  await add({ method: 'GET', path: `/v3/invoices/${idOf(invoice, 'invoice')}/`, auth: 'token' });
  // A buy order sent as a form: created, marked paid, then read (its state carries over).
  const order = await add({
    method: 'POST',
    path: '/api/v2/buyorder',
    body: { currency_amount: '500', payment_method: 'cash_payment', currency: 'PHP' },
    form: true,
    auth: 'hmac',
  });
  const orderId = idOf(order, 'order') ?? '';
  await add({
    method: 'PUT',
    path: `/api/v2/buyorder/${orderId}`,
    body: { payment_confirmation_code: '889143375651' },
    form: true,
    auth: 'hmac',
  });
  await add({ method: 'GET', path: `/v1/buyorder/${orderId}`, auth: 'hmac' });
  expect(session.at(-1)?.entry.response.content.text).toContain('"payment_received"');
  // The month's balance statement: CSV, compared by its columns and value formats.
  const now = new Date();
  await add({
    method: 'GET',
    path: `/api/v3/balance-statements/?month=${now.getUTCMonth() + 1}&year=${now.getUTCFullYear()}`,
    auth: 'hmac',
  });
  expect(session.at(-1)?.entry.response.content.text).toMatch(/^entry_type,/);
  // A call signed with a stale nonce (401 NONCE is too low): replayed as that failure, not re-signed.
  const stale = await record(
    recordedIn,
    { method: 'GET', path: '/v3/crypto-accounts/', auth: 'hmac', nonce: '1' },
    session.length,
  );
  expect(stale.entry.response.status).toBe(401);
  session.push(stale);
  // A form body naming the recording workspace's wallet and its customer's e-mail.
  await add({
    method: 'POST',
    path: '/v3/crypto-payments/',
    body: {
      account: recordedIn.accounts.PBTC ?? recordedIn.accounts.PHP ?? '',
      target_address: recordedIn.customerEmail,
      amount: '1',
    },
    form: true,
    auth: 'hmac',
  });
});
afterAll(() => target.close());

const unexplained = (results: EntryResult[]) =>
  results
    .filter((r) => r.status !== 'match')
    .map(
      (r) =>
        `${r.key} ${r.method} ${r.url} [${r.status}] ${r.note ?? ''} ${r.differences.map((d) => `${d.kind} ${d.path}: ${d.recorded} / ${d.ours}`).join('; ')}`,
    );

describe('a recorded session of dependent calls (parity --har, replay)', () => {
  it('parity --har: in a fresh workspace the creates chain into the later calls, form bodies are mapped, and the paid order reads paid', async () => {
    const results = await runParity(session, target, sharedSpec().spec, {
      gaps: [],
      overrides: {},
    });
    expect(unexplained(results)).toEqual([]);
    expect(results).toHaveLength(session.length);
  });

  it('replay: the ids a create answered replace the recorded ids in the later requests of the session', async () => {
    // Another workspace's credentials, as staging's would be: the recorded ids do not exist there.
    const creds = await freshCredentials(target);
    const replayed = session.filter((e) => !e.entry.request.url.includes('crypto-payments'));
    const results = await replayAll(
      replayed,
      { target, creds, mapIds: false, unique: () => '', ids: new Map() },
      sharedSpec().spec,
      { gaps: [], overrides: {} },
    );
    expect(unexplained(results)).toEqual([]);
  });
});
