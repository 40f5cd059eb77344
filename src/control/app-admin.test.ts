import { describe, expect, it } from 'vitest';
import { itemAt, required } from '../shared/defined.js';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { controlError } from '../testing/error-code.js';
import { otpIsValid } from '../auth/otp.js';

let t: TestApp;
appPerTest((app) => (t = app));

describe('applications', () => {
  it('creates an app whose owner has a funded peso wallet, and it can sign requests', async () => {
    const res = await t.request('POST', '/_sandbox/apps', {
      body: { name: 'CI payouts', balance: '1234.5', mfa_whitelisted: true },
    });
    expect(res.status).toBe(201);
    const app = res.body.app;
    expect(app).toMatchObject({ name: 'CI payouts', mfa_whitelisted: true, last_nonce: null });
    expect(app.owner.accounts).toEqual([
      expect.objectContaining({ currency: 'PHP', balance: '1234.50000000' }),
      expect.objectContaining({ currency: 'BTC', balance: '0.00000000' }),
    ]);
    const accounts = await t.signed('GET', '/v3/crypto-accounts/', {
      key: app.api_key,
      secret: app.api_secret,
    });
    expect(accounts.status).toBe(200);
    expect(accounts.body['crypto-accounts'][0].balance).toBe('1234.50000000');
    t.assertLedger();
  });

  it("gives the owner an empty BTC wallet, so the clients' conversions and ?currency=BTC reads work", async () => {
    const { app } = (
      await t.request('POST', '/_sandbox/apps', {
        body: { balance: '1000', mfa_whitelisted: true },
      })
    ).body;
    const as = { key: app.api_key, secret: app.api_secret };
    const btc = await t.signed('GET', '/api/v3/crypto-accounts/?currency=BTC', as);
    expect(btc.status).toBe(200);
    expect(btc.body['crypto-accounts']).toEqual([
      expect.objectContaining({ currency: 'BTC', balance: '0.00000000' }),
    ]);
    const [peso, coin] = app.owner.accounts as Array<{ id: string }>;
    const convert = await t.signed('POST', '/v3/crypto-exchanges/', {
      ...as,
      body: {
        source_account: required(peso, 'a PHP wallet').id,
        target_account: required(coin, 'a BTC wallet').id,
        amount: '621.822',
      },
    });
    expect(convert.status).toBe(201);
    t.assertLedger();
  });

  it('defaults: not whitelisted, 100000 PHP; no body at all is fine', async () => {
    const res = await t.request('POST', '/_sandbox/apps');
    expect(res.status).toBe(201);
    expect(res.body.app.mfa_whitelisted).toBe(false);
    expect(res.body.app.owner.accounts[0].balance).toBe('100000.00000000');
  });

  it('refuses a bad balance or name', async () => {
    const apps = () => (t.db.prepare('SELECT COUNT(*) AS n FROM apps').get() as { n: number }).n;
    const before = apps();
    const balance = await t.request('POST', '/_sandbox/apps', { body: { balance: -1 } });
    expect(balance.status).toBe(400);
    expect(balance.body).toEqual(
      controlError('validation_error', { balance: ['Ensure this value is greater than 0.'] }),
    );
    const name = await t.request('POST', '/_sandbox/apps', { body: { name: '' } });
    expect(name.status).toBe(400);
    expect(name.body).toEqual(
      controlError('validation_error', { name: ['This field may not be blank.'] }),
    );
    expect(apps()).toBe(before);
  });

  it('nonce reset lets a key that sent a huge nonce use small ones again', async () => {
    const key = itemAt(t.fixtures.developers, 0).app.api_key;
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '1.7e+300' })).status).toBe(200);
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '5' })).status).toBe(401);
    const reset = await t.request('POST', `/_sandbox/apps/${key}/nonce/reset`);
    expect(reset.status).toBe(200);
    expect(reset.body.app.last_nonce).toBeNull();
    expect((await t.signed('GET', '/v3/crypto-accounts/', { nonce: '5' })).status).toBe(200);
    const unknown = await t.request('POST', '/_sandbox/apps/nope/nonce/reset');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(controlError('not_found', { non_field_errors: ['Not found.'] }));
  });

  it('OTP is the code valid on the sandbox clock, even after the clock moves', async () => {
    const dev = itemAt(t.fixtures.developers, 0);
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 86_400 } });
    const res = await t.request('GET', `/_sandbox/apps/${dev.app.api_key}/otp`);
    expect(res.status).toBe(200);
    expect(res.body.otp).toMatch(/^\d{6}$/);
    expect(res.body.expires_in_seconds).toBeGreaterThanOrEqual(1);
    expect(res.body.expires_in_seconds).toBeLessThanOrEqual(30);
    expect(otpIsValid(dev.app.otp_secret, res.body.otp, t.services.clock.now() / 1000)).toBe(true);
    const unknown = await t.request('GET', '/_sandbox/apps/nope/otp');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(controlError('not_found', { non_field_errors: ['Not found.'] }));
  });
});
