import { afterEach, describe, expect, it } from 'vitest';
import { startMerchantReceiver } from '../../examples/merchant-callback/server.js';
import { openSse, type SseMessage } from '../cli/sse-client.js';
import { openDatabase } from '../db/open.js';
import { createSandbox, sharedSpec, type Sandbox } from '../sandbox.js';
import { listen, type RunningServer } from '../server.js';
import { waitUntil } from '../testing/wait.js';

const cleanups: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(): Promise<{ sandbox: Sandbox; server: RunningServer; merchantId: string }> {
  const sandbox = createSandbox({
    db: openDatabase(':memory:'),
    spec: sharedSpec(),
    config: { db: ':memory:', port: 0, quiet: true },
  });
  const merchant = sandbox.fixtures.merchants[0]!;
  const receiver = await startMerchantReceiver({ token: merchant.merchant_api_token, port: 0 });
  sandbox.modules.identities.api.updateMerchant(merchant.id, { callback_url: receiver.url });
  const server = await listen(sandbox);
  sandbox.startBackground();
  cleanups.push(
    () => receiver.close(),
    () => sandbox.close(),
    () => server.stop(),
  );
  return { sandbox, server, merchantId: merchant.id };
}

/** Open the stream and collect its messages; `next(type)` waits for the next message of a type. */
function subscribe(url: string) {
  const messages: SseMessage[] = [];
  const waiters = new Set<() => void>();
  const stream = openSse(url, {}, (m) => {
    messages.push(m);
    for (const w of [...waiters]) w();
  });
  cleanups.push(() => stream.stop());
  const next = (type: string, from = 0) =>
    new Promise<SseMessage & { json: any }>((resolve, reject) => {
      const check = () => {
        const m = messages.slice(from).find((x) => x.event === type);
        if (m) {
          waiters.delete(check);
          resolve({ ...m, json: JSON.parse(m.data) });
        }
      };
      void stream.ended.then((end) =>
        reject(new Error(`stream ended (${JSON.stringify(end)}) before a ${type} message`)),
      );
      waiters.add(check);
      check();
    });
  return { stream, messages, next };
}

const trigger = (base: string, event: string) =>
  fetch(`${base}/_sandbox/trigger`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ event }),
  }).then((r) => r.json() as Promise<{ invoice: { id: string } }>);

describe('GET /_sandbox/events/stream', () => {
  it('sends ready, then each event and each attempt of the merchant as they happen', async () => {
    const { server, merchantId } = await setup();
    const s = subscribe(`${server.url}/_sandbox/events/stream?events=invoice.fully_paid`);
    const ready = await s.next('ready');
    expect(ready.json.merchant).toMatchObject({ id: merchantId, callback_auth: 'https-only' });
    expect(ready.json.events).toEqual(['invoice.fully_paid']);
    const { invoice } = await trigger(server.url, 'invoice.fully_paid');
    const event = await s.next('event');
    expect(event.id).toBe(event.json.id);
    expect(event.json).toMatchObject({
      name: 'invoice.fully_paid',
      invoice_id: invoice.id,
      merchant_id: merchantId,
    });
    expect(JSON.parse(event.json.body)).toMatchObject({
      event: { name: 'invoice.fully_paid', data: { id: invoice.id } },
    });
    const attempt = await s.next('attempt');
    expect(attempt.json).toMatchObject({
      event: 'invoice.fully_paid',
      event_id: event.json.id,
      invoice_id: invoice.id,
      attempt: 1,
      status_code: 200,
      status: 'delivered',
    });
    // invoice.created is not asked for: neither its event nor its attempt was sent.
    expect(s.messages.map((m) => m.event)).toEqual(['ready', 'event', 'attempt']);
  });

  it('follows one invoice with invoice_id', async () => {
    const { server } = await setup();
    const { invoice } = await trigger(server.url, 'invoice.created');
    const s = subscribe(`${server.url}/_sandbox/events/stream?invoice_id=${invoice.id}`);
    await s.next('ready');
    await trigger(server.url, 'invoice.created'); // another invoice: not this stream's
    const res = await fetch(`${server.url}/_sandbox/trigger`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'invoice.fully_paid', invoice_id: invoice.id }),
    });
    expect(res.status).toBe(201);
    const event = await s.next('event');
    expect(event.json).toMatchObject({ name: 'invoice.fully_paid', invoice_id: invoice.id });
    await s.next('attempt');
    expect(
      s.messages
        .filter((m) => m.event === 'event')
        .every((m) => JSON.parse(m.data).invoice_id === invoice.id),
    ).toBe(true);
  });

  it('refuses a request that does not ask for text/event-stream (406) and unknown filters (400), in the envelope', async () => {
    const { server } = await setup();
    const plain = await fetch(`${server.url}/_sandbox/events/stream`);
    expect(plain.status).toBe(406);
    expect(await plain.json()).toEqual({
      error_codes: ['not_acceptable'],
      errors: {
        non_field_errors: ['This is a server-sent event stream: send Accept: text/event-stream.'],
      },
    });
    const sse = { accept: 'text/event-stream' };
    const badEvent = await fetch(`${server.url}/_sandbox/events/stream?events=invoice.paid`, {
      headers: sse,
    });
    expect(badEvent.status).toBe(400);
    expect(
      ((await badEvent.json()) as { errors: Record<string, string[]> }).errors.events![0],
    ).toMatch(/^Unknown event "invoice\.paid"; known: /);
    const badMerchant = await fetch(`${server.url}/_sandbox/events/stream?merchant_id=nope`, {
      headers: sse,
    });
    expect(badMerchant.status).toBe(400);
    const both = await fetch(`${server.url}/_sandbox/events/stream?merchant_id=a&workspace_id=b`, {
      headers: sse,
    });
    expect(both.status).toBe(400);
  });

  it('streams a workspace merchant with workspace_id', async () => {
    const { server } = await setup();
    const ws = (await (
      await fetch(`${server.url}/_sandbox/workspaces`, { method: 'POST' })
    ).json()) as { workspace: { id: string; merchant: { id: string } } };
    const s = subscribe(`${server.url}/_sandbox/events/stream?workspace_id=${ws.workspace.id}`);
    expect((await s.next('ready')).json.merchant.id).toBe(ws.workspace.merchant.id);
  });

  it('lets go of its listeners when the client leaves, and ends with `close` when the sandbox stops', async () => {
    const { sandbox, server } = await setup();
    const state = sandbox.modules.callbacks.api;
    const a = subscribe(`${server.url}/_sandbox/events/stream`);
    await a.next('ready');
    expect(state.attemptListener()).not.toBeNull();
    a.stream.stop();
    // The server notices the closed connection; wait for it (no fixed sleep).
    await waitUntil('the listener to go', () => state.attemptListener() === null);

    const b = subscribe(`${server.url}/_sandbox/events/stream`);
    await b.next('ready');
    state.streams.closeAll();
    expect((await b.next('close')).json).toEqual({ reason: 'the sandbox is stopping' });
    expect(await b.stream.ended).toEqual({ kind: 'closed' });
    expect(state.attemptListener()).toBeNull();
  });
});
