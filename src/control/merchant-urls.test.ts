import { describe, expect, it } from 'vitest';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { controlError } from '../testing/error-code.js';
import { NOT_THE_RECEIVER } from './merchant-urls.test-support.js';

let t: TestApp;
appPerTest((app) => (t = app));

/** The test app's addresses: its public URL and the one it reaches itself at. */
const PUBLIC = 'http://localhost';
const SELF = 'http://127.0.0.1:7070';
const inbox = (id: string) => `/_sandbox/inbox/${id}`;

describe("a merchant's URLs stay in its own workspace's inbox", () => {
  const CROSS = (id: string) =>
    `Names the example receiver of merchant ${id}, which is not of this merchant's workspace (the base data counts as one): on this sandbox a merchant's callbacks and redirects go to its own example receiver or to that of a merchant of the same workspace.`;

  interface Ids {
    ws: string;
    wsSibling: string;
    otherWs: string;
    base: string;
    baseSibling: string;
  }
  async function merchants(): Promise<Ids> {
    const a = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const b = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const sibling = await t.request('POST', '/_sandbox/merchants', {
      body: { name: 'Second shop', workspace_id: a.id },
    });
    expect(sibling.status, sibling.text).toBe(201);
    workspaceOf.set(a.merchant.id, a.id);
    return {
      ws: a.merchant.id,
      wsSibling: sibling.body.merchant.id,
      otherWs: b.merchant.id,
      base: t.merchant.id,
      baseSibling: t.otherMerchant.id,
    };
  }
  /** The workspace of each merchant `merchants()` made. */
  const workspaceOf = new Map<string, string>();
  const escaped = (id: string) => `/_sandbox/inbox/%${id.charCodeAt(0).toString(16)}${id.slice(1)}`;

  // [case, merchant patched, field, URL, the merchant it names when refused (null: accepted)]
  type Case = [
    string,
    keyof Ids,
    'callback_url' | 'redirect_url',
    (i: Ids) => string,
    keyof Ids | null,
  ];
  const cases: Case[] = [
    ['its own inbox', 'ws', 'callback_url', (i) => inbox(i.ws), null],
    ['its own thank-you page', 'ws', 'redirect_url', (i) => `${inbox(i.ws)}/thank-you`, null],
    [
      'its own inbox as an absolute URL',
      'ws',
      'callback_url',
      (i) => `${SELF}${inbox(i.ws)}`,
      null,
    ],
    ['a merchant of its workspace', 'ws', 'callback_url', (i) => inbox(i.wsSibling), null],
    [
      "the base data's inbox from the base data",
      'base',
      'callback_url',
      (i) => inbox(i.baseSibling),
      null,
    ],
    [
      'the inbox path on another port (another sandbox)',
      'ws',
      'callback_url',
      (i) => `http://127.0.0.1:7999${inbox(i.base)}`,
      null,
    ],
    [
      'the inbox path on another host',
      'ws',
      'callback_url',
      (i) => `https://shop.example${inbox(i.base)}`,
      null,
    ],
    [
      "a fixture merchant's inbox (the base data)",
      'ws',
      'callback_url',
      (i) => inbox(i.base),
      'base',
    ],
    [
      "a fixture merchant's thank-you page",
      'ws',
      'redirect_url',
      (i) => `${inbox(i.base)}/thank-you`,
      'base',
    ],
    ["another workspace's inbox", 'ws', 'callback_url', (i) => inbox(i.otherWs), 'otherWs'],
    [
      "another workspace's thank-you page",
      'ws',
      'redirect_url',
      (i) => `${inbox(i.otherWs)}/thank-you?x=1`,
      'otherWs',
    ],
    ["a workspace's inbox from the base data", 'base', 'callback_url', (i) => inbox(i.ws), 'ws'],
    [
      'the absolute URL of its own address',
      'ws',
      'callback_url',
      (i) => `${SELF}${inbox(i.base)}`,
      'base',
    ],
    [
      'the absolute URL of its public URL',
      'ws',
      'redirect_url',
      (i) => `${PUBLIC}${inbox(i.base)}/thank-you`,
      'base',
    ],
    [
      'localhost on its port',
      'ws',
      'callback_url',
      (i) => `http://localhost:7070${inbox(i.otherWs)}`,
      'otherWs',
    ],
    ['::1 on its port', 'ws', 'callback_url', (i) => `http://[::1]:7070${inbox(i.base)}`, 'base'],
    [
      '0.0.0.0 on its port',
      'ws',
      'callback_url',
      (i) => `http://0.0.0.0:7070${inbox(i.base)}`,
      'base',
    ],
    [
      'a dot segment out of its own',
      'ws',
      'redirect_url',
      (i) => `${inbox(i.ws)}/../${i.base}/thank-you`,
      'base',
    ],
    ['a percent-escaped id', 'ws', 'callback_url', (i) => escaped(i.base), 'base'],
  ];

  it.each(cases)('%s: %s %s', async (_case, who, field, url, names) => {
    const ids = await merchants();
    const before = (await t.request('GET', `/_sandbox/merchants?per_page=100`)).body.merchants.find(
      (m: { id: string }) => m.id === ids[who],
    );
    const res = await t.request('PATCH', `/_sandbox/merchants/${ids[who]}`, {
      body: { [field]: url(ids) },
    });
    const after = (await t.request('GET', `/_sandbox/merchants?per_page=100`)).body.merchants.find(
      (m: { id: string }) => m.id === ids[who],
    );
    if (names === null) {
      expect(res.status, res.text).toBe(200);
      expect(after[field]).toBe(url(ids));
    } else {
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual(controlError('validation_error', { [field]: [CROSS(ids[names])] }));
      expect(after).toEqual(before);
    }
  });

  it("refuses an unknown merchant's inbox, and the same rule holds when a merchant is created", async () => {
    const ids = await merchants();
    const unknown = '0'.repeat(32);
    const res = await t.request('PATCH', `/_sandbox/merchants/${ids.ws}`, {
      body: { callback_url: inbox(unknown) },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.callback_url).toEqual([
      `Names the example receiver of merchant ${unknown}, but there is no merchant with that id.`,
    ]);
    const wsId = workspaceOf.get(ids.ws);
    const inWs = await t.request('POST', '/_sandbox/merchants', {
      body: { workspace_id: wsId, callback_url: inbox(ids.ws) },
    });
    expect(inWs.status, inWs.text).toBe(201);
    const inBase = await t.request('POST', '/_sandbox/merchants', {
      body: { callback_url: inbox(ids.ws), redirect_url: `${inbox(ids.otherWs)}/thank-you` },
    });
    expect(inBase.status).toBe(400);
    expect(inBase.body).toEqual(
      controlError('validation_error', {
        callback_url: [CROSS(ids.ws)],
        redirect_url: [CROSS(ids.otherWs)],
      }),
    );
  });
});

describe("a URL to this sandbox's own address is held to the rule of the path it names", () => {
  // [URL (of the merchant's id), field, refused with NOT_THE_RECEIVER (false: accepted)]
  const cases: Array<[(id: string) => string, 'callback_url' | 'redirect_url', boolean]> = [
    [() => `${SELF}/_sandbox/reset`, 'callback_url', true],
    [() => `http://localhost:7070/_sandbox/clock/reset`, 'callback_url', true],
    [() => `${PUBLIC}/_sandbox/reset`, 'callback_url', true],
    [() => `http://[::1]:7070/_sandbox/merchants`, 'callback_url', true],
    [() => `http://0.0.0.0:7070/v1/invoices/`, 'callback_url', true],
    [() => `${SELF}/`, 'callback_url', true],
    [() => `${SELF}/_sandbox/inbox/../reset`, 'callback_url', true],
    [() => `${SELF}/_sandbox/inbox/%2e%2e/reset`, 'callback_url', true],
    [() => '/_sandbox/inbox/%2e%2e/reset', 'callback_url', true],
    [() => '/_sandbox/inbox/%2E./reset', 'callback_url', true],
    [(id) => `${SELF}${inbox(id)}?next=/_sandbox/reset`, 'callback_url', true],
    [(id) => `${SELF}${inbox(id)}#x`, 'callback_url', true],
    // Spellings of the example receiver that a callback never reaches (the router answers 404).
    [(id) => `/_sandbox/inbox//${id}`, 'callback_url', true],
    [(id) => `${SELF}//_sandbox/inbox/${id}`, 'callback_url', true],
    [(id) => `${SELF}/_sandbox/inbox//${id}`, 'callback_url', true],
    [(id) => `${SELF}/_sandbox%2finbox/${id}`, 'callback_url', true],
    [(id) => `/_sandbox%2Finbox/${id}`, 'callback_url', true],
    [(id) => `/_sandbox//inbox/${id}`, 'callback_url', true],
    [(id) => `${inbox(id)}/thank-you`, 'callback_url', true],
    [(id) => `${inbox(id)}//`, 'callback_url', true],
    [() => '/_sandbox/inbox/', 'callback_url', true],
    // Spellings that do reach it, and pages a redirect may go to.
    [(id) => `${SELF}${inbox(id)}`, 'callback_url', false],
    [(id) => `${PUBLIC}${inbox(id)}`, 'callback_url', false],
    [(id) => `${inbox(id)}/`, 'callback_url', false],
    [(id) => `/%5fsandbox/inbox/${id}`, 'callback_url', false],
    [(id) => `${SELF}/%5Fsandbox/%69nbox/${id}`, 'callback_url', false],
    [() => 'http://127.0.0.1:7999/_sandbox/reset', 'callback_url', false],
    [() => `${SELF}/_sandbox/reset`, 'redirect_url', false],
    [(id) => `${SELF}${inbox(id)}/thank-you?x=1`, 'redirect_url', false],
  ];

  it.each(cases)('%s as %s (refused: %s)', async (url, field, refused) => {
    const id = t.merchant.id;
    const read = async () =>
      (await t.request('GET', '/_sandbox/merchants?per_page=100')).body.merchants.find(
        (m: { id: string }) => m.id === id,
      );
    const before = await read();
    const res = await t.request('PATCH', `/_sandbox/merchants/${id}`, {
      body: { [field]: url(id) },
    });
    if (refused) {
      expect(res.status, res.text).toBe(400);
      expect(res.body).toEqual(controlError('validation_error', { [field]: [NOT_THE_RECEIVER] }));
      expect(await read()).toEqual(before);
      const created = await t.request('POST', '/_sandbox/merchants', {
        body: { [field]: url(id) },
      });
      expect(created.status, created.text).toBe(400);
      expect(created.body.errors).toEqual({ [field]: [NOT_THE_RECEIVER] });
    } else {
      expect(res.status, res.text).toBe(200);
      expect((await read())[field]).toBe(url(id));
    }
  });
});
