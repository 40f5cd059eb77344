import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode } from '../testing/error-code.js';

/** The credential cache of the identities repository never answers with a row the database no longer has. */
describe('credential lookups (cached)', () => {
  let t: TestApp;
  beforeEach(() => {
    t = createTestApp();
  });
  afterEach(() => t.close());

  const listInvoices = (token: string) => t.request('GET', '/v3/invoices/', { token });
  const signedGet = () => t.signed('GET', '/v3/crypto-accounts/');

  it('sees a merchant setting changed after the token was looked up', async () => {
    const token = t.merchant.merchant_api_token;
    expect((await listInvoices(token)).status).toBe(200);
    expect(t.services.identities.merchantByToken(token)!.callback_url).not.toBe(
      'https://changed.example.ph/cb',
    );
    t.services.identities.updateMerchant(t.merchant.id, {
      callback_url: 'https://changed.example.ph/cb',
    });
    expect(t.services.identities.merchantByToken(token)!.callback_url).toBe(
      'https://changed.example.ph/cb',
    );
  });

  it('forgets a merchant read inside a unit of work that then rolled back', async () => {
    const ids = t.services.identities;
    const row = {
      ...ids.merchantById(t.merchant.id)!,
      id: 'f'.repeat(32),
      merchant_api_token: 'rolled-back-token',
      bearer_token: null,
    };
    expect(() =>
      t.services.unitOfWork(() => {
        ids.insertMerchant(row);
        expect(ids.merchantByToken('rolled-back-token')?.id).toBe(row.id); // cached inside the unit
        throw new Error('the unit fails after the read');
      }),
    ).toThrow('the unit fails after the read');
    expect(ids.merchantByToken('rolled-back-token')).toBeUndefined();
    expect((await listInvoices('rolled-back-token')).status).toBe(401);
  });

  it('refuses the credentials of a deleted workspace at once, though they were just used', async () => {
    const ws = await t.request('POST', '/_sandbox/workspaces', { body: {} });
    expect(ws.status).toBe(201);
    const { id, merchant, app } = ws.body.workspace as {
      id: string;
      merchant: { merchant_api_token: string };
      app: { api_key: string; api_secret: string };
    };
    const signedByWorkspace = () =>
      t.signed('GET', '/v3/crypto-accounts/', { key: app.api_key, secret: app.api_secret });
    expect((await listInvoices(merchant.merchant_api_token)).status).toBe(200);
    expect((await signedByWorkspace()).status).toBe(200);
    expect((await t.request('DELETE', `/_sandbox/workspaces/${id}`)).status).toBe(204);
    expect((await listInvoices(merchant.merchant_api_token)).status).toBe(401);
    expect(errorCode((await signedByWorkspace()).body)).toBe('invalid_access_key');
  });

  it('authenticates signed requests from the cache, and reports the real last nonce when one is replayed', async () => {
    const first = await t.signed('GET', '/v3/crypto-accounts/', { nonce: '1000' });
    expect(first.status).toBe(200);
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '2000' })).status).toBe(200);
    const replay = await t.signed('GET', '/v3/crypto-accounts/', { nonce: '1500' });
    expect(replay.status).toBe(401);
    expect(replay.body.errors.non_field_errors).toBe("NONCE is too low.  Last value '2000'");
  });

  it('starts from the fixtures again after a reset', async () => {
    expect((await signedGet()).status).toBe(200);
    const token = t.merchant.merchant_api_token;
    t.services.identities.updateMerchant(t.merchant.id, {
      callback_url: 'https://before-reset.example.ph/cb',
    });
    expect(t.services.identities.merchantByToken(token)!.callback_url).toBe(
      'https://before-reset.example.ph/cb',
    );
    t.sandbox.reset();
    expect(t.services.identities.merchantByToken(token)!.callback_url).toBe(
      t.merchant.callback_url ?? null,
    );
  });
});
