import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import type { Merchant } from '../identities/identities.api.js';
import { createInvoicePageCache, type CachedPage } from './invoice-pages.cache.js';
import type { InvoiceResource } from './invoice.view.js';

describe('the invoice page cache', () => {
  const resource = (id: string, expiresIn: string | null) =>
    ({ id, expires_in_seconds: expiresIn }) as unknown as InvoiceResource;

  it('keeps a page while the change count stays, drops every page when it moves or on forget', () => {
    let changes = 7;
    const cache = createInvoicePageCache(() => changes);
    cache.set('k', { total: 1, invoices: [resource('a', null)], expiresAt: [null] });
    expect(cache.get('k', 0)?.invoices.map((i) => i.id)).toEqual(['a']);
    changes++;
    expect(cache.get('k', 0)).toBeUndefined();
    cache.set('k', { total: 1, invoices: [resource('b', null)], expiresAt: [null] });
    cache.forget();
    expect(cache.get('k', 0)).toBeUndefined();
  });

  it('works out the expiry countdown at each read, never changing a page it handed out', () => {
    const cache = createInvoicePageCache(() => 1);
    const first = resource('a', '10');
    cache.set('k', {
      total: 2,
      invoices: [first, resource('b', null)],
      expiresAt: [10_000_000, null],
    });
    const later = cache.get('k', 2_500_000) as CachedPage;
    expect(later.invoices.map((i) => i.expires_in_seconds)).toEqual(['7', null]);
    expect(first.expires_in_seconds).toBe('10');
    later.json = 'text of the answer at 7 s';
    expect(cache.get('k', 2_900_000)?.json).toBe('text of the answer at 7 s');
    const moved = cache.get('k', 11_000_000) as CachedPage;
    expect(moved.invoices[0]?.expires_in_seconds).toBe('0');
    expect(moved.json).toBeUndefined();
  });
});

describe('GET /v3/invoices/ with the page cache', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp();
  });
  afterEach(() => t.close());

  const list = async () =>
    (
      await t.request('GET', '/v3/invoices/?page=1&per_page=5', {
        token: t.merchant.merchant_api_token,
      })
    ).body;
  const create = async (ext: string) =>
    (
      await t.request('POST', '/v1/invoices/', {
        token: t.merchant.merchant_api_token,
        body: { amount: 20, currency: 'PHP', external_transaction_id: ext },
      })
    ).body.invoice;

  it('answers a kept page with the same JSON, in the same Content-Type', async () => {
    await create('cache-json');
    const token = t.merchant.merchant_api_token;
    type Answer = Awaited<ReturnType<TestApp['request']>>;
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++)
      answers.push(await t.request('GET', '/v3/invoices/?page=1&per_page=5', { token }));
    const [first, , third] = answers as [Answer, Answer, Answer];
    for (const a of answers)
      expect(a.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(first.headers.get('content-type')).toMatch(/^application\/json/);
    const strip = (body: unknown) => {
      const b = body as { invoices: Array<Record<string, unknown>> };
      return JSON.stringify({
        ...b,
        invoices: b.invoices.map(({ expires_in_seconds: _, ...rest }) => rest),
      });
    };
    expect(strip(third.body)).toBe(strip(first.body));
  });

  it('shows every write at once, whoever makes it: a create, a payment, a row changed by SQL, a moved clock', async () => {
    const a = await create('cache-a');
    expect((await list()).invoices.map((i: { id: string }) => i.id)[0]).toBe(a.id);
    const b = await create('cache-b');
    const second = await list();
    expect(second.invoices.map((i: { id: string }) => i.id).slice(0, 2)).toEqual([b.id, a.id]);
    expect(second.meta.total_count).toBe((await list()).meta.total_count);

    await t.request('POST', `/_sandbox/invoices/${a.id}/payments`, {
      body: { collector: 'coins_peso_wallet' },
    });
    expect((await list()).invoices.find((i: { id: string }) => i.id === a.id).status).toBe(
      'fully_paid',
    );

    t.db
      .prepare("UPDATE invoices SET description = 'changed behind the service' WHERE id = ?")
      .run(b.id);
    expect((await list()).invoices.find((i: { id: string }) => i.id === b.id).description).toBe(
      'changed behind the service',
    );

    const before = Number(
      (await list()).invoices.find((i: { id: string }) => i.id === b.id).expires_in_seconds,
    );
    t.services.clock.setOffsetMicros(t.services.clock.offsetMicros() + 60_000_000);
    const after = Number(
      (await list()).invoices.find((i: { id: string }) => i.id === b.id).expires_in_seconds,
    );
    expect(before - after).toBeGreaterThanOrEqual(59);
    expect(before - after).toBeLessThanOrEqual(61);
  });

  it('forgets a page rendered from writes that a failed group commit took back', async () => {
    await create('cache-c');
    const merchant = t.services.identities.merchantById(t.merchant.id) as Merchant;
    const described = () =>
      t.services.invoices
        .list(merchant, {})
        .invoices.find((i) => i.external_transaction_id === 'cache-c')?.description;
    expect(described()).toBe('');
    // A write in the open batch and a page rendered from it; then SQLite drops the whole transaction
    // (as on a full disk) and the batch fails: the write is gone, and so must the page be.
    t.services.unitOfWork(() =>
      t.db
        .prepare(
          "UPDATE invoices SET description = 'rolled back' WHERE external_transaction_id = 'cache-c'",
        )
        .run(),
    );
    expect(described()).toBe('rolled back');
    const log = console.error;
    console.error = () => {};
    try {
      expect(() =>
        t.services.unitOfWork(() => {
          t.db.exec('ROLLBACK');
          throw new Error('disk full');
        }),
      ).toThrow('disk full');
    } finally {
      console.error = log;
    }
    expect(t.db.inTransaction).toBe(false);
    expect(described()).toBe('');
  });
});

describe('the row a create answers from', () => {
  it('is the row the database holds, field for field (no read back after the insert)', () => {
    const t = createTestApp();
    try {
      const fields = {
        id: 'c'.repeat(32),
        merchant_id: t.merchant.id,
        amount: 123_456_789n,
        currency: 'PHP',
        external_transaction_id: 'inserted-row',
        description: 'd',
        metadata: '{"a":1}',
        supported_payment_collectors: '["coins_peso_wallet"]',
        created_at: 1_790_000_000_000_001,
        expires_at: 1_790_000_900_000_001,
      };
      t.services.invoiceRepo.insert(fields);
      expect(t.services.invoiceRepo.inserted(fields)).toStrictEqual({
        ...t.services.invoiceRepo.byId(fields.id),
      });
    } finally {
      void t.close();
    }
  });
});

describe('the invoice a wallet payment answers with', () => {
  it('is the invoice a read gives right after, payments included (first and second payment)', async () => {
    const t = createTestApp();
    try {
      const inv = (
        await t.request('POST', '/v1/invoices/', {
          token: t.merchant.merchant_api_token,
          body: { amount: 20, currency: 'PHP', external_transaction_id: 'answer-check' },
        })
      ).body.invoice;
      for (const amount of ['5', '15']) {
        const paid = await t.request('POST', `/_sandbox/invoices/${inv.id}/payments`, {
          body: { collector: 'coins_peso_wallet', amount },
        });
        expect(paid.status).toBe(201);
        const read = await t.request('GET', `/_sandbox/invoices/${inv.id}`);
        const { expires_in_seconds: _a, ...answered } = paid.body.invoice;
        const { expires_in_seconds: _b, ...stored } = read.body.invoice;
        expect(answered).toEqual(stored);
      }
      expect(
        (await t.request('GET', `/_sandbox/invoices/${inv.id}`)).body.invoice.payments,
      ).toHaveLength(2);
    } finally {
      void t.close();
    }
  });
});
