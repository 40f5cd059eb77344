import { describe, expect, it } from 'vitest';
import {
  as,
  balanceOf,
  otpDeveloper,
  otpNow,
  whitelistedDeveloper,
} from '../testing/developer.test-support.js';
import { appPerTest, type TestApp } from '../testing/test-app.js';
import { OTP_INVALID, errorCode } from '../testing/error-code.js';
import { bearer, bearerTokens } from './bearer-auth.test-support.js';

/**
 * What an app's Bearer token does on the developer API: the same answers as HMAC, the app's OTP rules,
 * its owner's money only, its tenant only. Which scheme wins when both are sent, the refusals and the
 * document are in bearer-auth-precedence.test.ts.
 */
let t: TestApp;
appPerTest((app) => (t = app));
const tokenOf = bearerTokens(() => t);

const phpWallet = (d: { accounts: Array<{ id: string; currency: string }> }) =>
  d.accounts.find((a) => a.currency === 'PHP')!.id;

describe('Authorization: Bearer on the developer API', () => {
  it('answers crypto-accounts exactly as HMAC does for the same app, on the legacy prefixes too', async () => {
    const dev = whitelistedDeveloper(t);
    const tok = await tokenOf(dev.app.api_key);
    const signed = await t.signed('GET', '/v3/crypto-accounts/', as(dev));
    for (const path of [
      '/v3/crypto-accounts/',
      '/api/v3/crypto-accounts/',
      '/d/api/crypto-accounts/',
    ]) {
      const res = await t.request('GET', path, bearer(tok));
      expect(res.status, path).toBe(200);
      expect(res.body, path).toEqual(signed.body);
    }
  });

  it('creates sell orders with the app’s OTP rules: whitelisted without a code, the other only with one', async () => {
    const free = await tokenOf(whitelistedDeveloper(t).app.api_key);
    const ok = await t.request(
      'POST',
      '/v1/sellorder',
      bearer(free, { body: { outlet_id: 'bpi', amount: 100 } }),
    );
    expect(ok.status).toBe(201);
    expect(
      (await t.request('GET', `/v1/sellorder/${ok.body.order.id}`, bearer(free))).body.order.id,
    ).toBe(ok.body.order.id);

    const dev = otpDeveloper(t);
    const guarded = await tokenOf(dev.app.api_key);
    const before = balanceOf(t, phpWallet(dev));
    const refused = await t.request(
      'POST',
      '/v1/sellorder',
      bearer(guarded, { body: { outlet_id: 'bpi', amount: 100 } }),
    );
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(OTP_INVALID);
    expect(balanceOf(t, phpWallet(dev))).toBe(before);
    const withCode = await t.request(
      'POST',
      '/v1/sellorder',
      bearer(guarded, {
        body: { outlet_id: 'bpi', amount: 100, otp: otpNow(t, dev.app.otp_secret) },
      }),
    );
    expect(withCode.status).toBe(201);
    const viaHeader = await t.request(
      'POST',
      '/v1/sellorder',
      bearer(guarded, {
        body: { outlet_id: 'bpi', amount: 100 },
        headers: { 'Access-OTP': otpNow(t, dev.app.otp_secret) },
      }),
    );
    expect(viaHeader.status).toBe(201);
    expect(balanceOf(t, phpWallet(dev))).toBeLessThan(before);
    // Another owner's order is not found through this token.
    expect(
      (await t.request('GET', `/v1/sellorder/${ok.body.order.id}`, bearer(guarded))).status,
    ).toBe(404);
    t.assertLedger();
  });

  it('sends transfers from the token’s owner only, and reads them back', async () => {
    const dev = whitelistedDeveloper(t);
    const tok = await tokenOf(dev.app.api_key);
    const from = phpWallet(dev);
    const before = balanceOf(t, from);
    const res = await t.request(
      'POST',
      '/v3/transfers/',
      bearer(tok, {
        body: { account: from, target_address: t.fixtures.customers[0]!.email, amount: '2.5' },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.transfer).toMatchObject({
      account: from,
      amount: '2.5',
      status: 'pending',
    });
    expect(balanceOf(t, from)).toBe(before - 250_000_000n);
    expect(
      (await t.request('GET', `/v3/transfers/${res.body.transfer.id}`, bearer(tok))).body.transfer
        .id,
    ).toBe(res.body.transfer.id);
    // Someone else's account cannot be the source.
    const foreign = phpWallet(otpDeveloper(t));
    const stolen = await t.request(
      'POST',
      '/v3/transfers/',
      bearer(tok, {
        body: { account: foreign, target_address: t.fixtures.customers[0]!.email, amount: '1' },
      }),
    );
    expect(stolen.status).toBe(400);
    expect(stolen.body.errors).toEqual({
      account: [`Account "${foreign}" is not one of your accounts.`],
    });
    t.assertLedger();
  });

  it('keeps a workspace app’s token inside its tenant', async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const tok = await tokenOf(ws.app.api_key);
    const listed = await t.request('GET', '/v3/crypto-accounts/', bearer(tok));
    expect(listed.body['crypto-accounts'].map((a: { id: string }) => a.id).sort()).toEqual(
      ws.app.owner.accounts.map((a: { id: string }) => a.id).sort(),
    );
    const from = ws.app.owner.accounts.find((a: { currency: string }) => a.currency === 'PHP').id;
    const base = t.fixtures.customers[0]!.email;
    const outside = await t.request(
      'POST',
      '/v3/transfers/',
      bearer(tok, { body: { account: from, target_address: base, amount: '1' } }),
    );
    expect(outside.status).toBe(400);
    expect(errorCode(outside.body)).toBe('unknown_target');
    const inside = await t.request(
      'POST',
      '/v3/transfers/',
      bearer(tok, { body: { account: from, target_address: ws.customer.email, amount: '1' } }),
    );
    expect(inside.status).toBe(201);
    // A base-data transfer is not visible through the workspace token.
    const baseDev = whitelistedDeveloper(t);
    const baseTransfer = await t.signed('POST', '/v3/transfers/', {
      ...as(baseDev),
      body: { account: phpWallet(baseDev), target_address: base, amount: '1' },
    });
    expect(
      (await t.request('GET', `/v3/transfers/${baseTransfer.body.transfer.id}`, bearer(tok)))
        .status,
    ).toBe(404);
    t.assertLedger();
  });
});
