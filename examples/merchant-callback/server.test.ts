import { afterEach, describe, expect, it } from 'vitest';
import { startMerchantReceiver, type MerchantReceiver, type ReceiverOptions } from './server.js';

const TOKEN = 'merchant-token-123';
const EVENT = JSON.stringify({
  event: {
    name: 'invoice.fully_paid',
    data: {
      id: 'a'.repeat(32),
      currency: 'PHP',
      amount: '20.00000000',
      amount_received: '20.00000000',
      external_transaction_id: 'o-1',
    },
  },
});
let receiver: MerchantReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

async function start(o: Partial<ReceiverOptions> = {}) {
  const lines: string[] = [];
  receiver = await startMerchantReceiver({
    token: TOKEN,
    port: 0,
    log: (l) => lines.push(l),
    ...o,
  });
  return { r: receiver, lines };
}

async function post(url: string, headers: Record<string, string> = {}, body = EVENT) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, text: await res.text() };
}

describe('example merchant receiver (the reference handler)', () => {
  it('answers 200 OK to the right token and prints the event', async () => {
    const { r, lines } = await start();
    expect(
      await post(r.url, {
        authorization: `Token ${TOKEN}`,
        'x-sandbox-event-id': 'e1',
        'x-sandbox-delivery-attempt': '1',
      }),
    ).toEqual({ status: 200, text: 'OK' });
    expect(lines).toEqual([
      `invoice.fully_paid invoice=${'a'.repeat(32)} amount_received=20.00000000 event_id=e1 attempt=1 -> 200`,
    ]);
    expect(r.received[0]).toMatchObject({
      eventId: 'e1',
      attempt: '1',
      status: 200,
      duplicate: false,
      body: EVENT,
    });
  });

  it('answers 401 to a wrong token, and to a missing one only with requireToken', async () => {
    const { r } = await start();
    expect((await post(r.url, { authorization: 'Token nope' })).status).toBe(401);
    expect((await post(r.url, { authorization: `Bearer ${TOKEN}` })).status).toBe(401);
    expect((await post(r.url)).status).toBe(200); // plain http: the real service sends no token
    await r.close();
    const strict = await start({ requireToken: true });
    expect((await post(strict.r.url)).status).toBe(401);
    expect((await post(strict.r.url, { authorization: `Token ${TOKEN}` })).status).toBe(200);
  });

  it('reports duplicates by event id, fails the first N with failFirst, and refuses what is not an event', async () => {
    const { r, lines } = await start({ failFirst: 1 });
    const h = { authorization: `Token ${TOKEN}`, 'x-sandbox-event-id': 'e7' };
    expect((await post(r.url, h)).status).toBe(500);
    expect((await post(r.url, h)).status).toBe(200);
    expect((await post(r.url, h)).status).toBe(200);
    expect(lines.map((l) => l.endsWith('(duplicate) -> 200'))).toEqual([false, false, true]);
    expect((await post(r.url, h, 'not json')).status).toBe(400);
    expect(
      (await fetch(r.url.replace('/callbacks', '/other'), { method: 'POST', body: EVENT })).status,
    ).toBe(404);
    expect((await fetch(r.url)).status).toBe(404);
  });
});
