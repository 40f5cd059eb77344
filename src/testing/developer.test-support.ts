import { required } from '../shared/defined.js';
import { currentOtp } from '../auth/otp.js';
import { fund } from '../fixtures/load.js';
import { parseAmount } from '../shared/money.js';
import type { TestApp } from './test-app.js';

/** Test support for developer-API tests (imported by *.test.ts only). */

/** The fixture application that is not MFA-whitelisted (needs an OTP). */
export const otpDeveloper = (t: TestApp) =>
  required(
    t.fixtures.developers.find((d) => !d.app.mfa_whitelisted),
    'a fixture developer without the MFA whitelist',
  );
export const whitelistedDeveloper = (t: TestApp) =>
  required(
    t.fixtures.developers.find((d) => d.app.mfa_whitelisted),
    'an MFA-whitelisted fixture developer',
  );

/** The TOTP an authenticator would show now on the sandbox clock. */
export function otpNow(t: TestApp, secret: string): string {
  return currentOtp(secret, Math.floor(t.services.clock.now() / 1000)).otp;
}

/** Signing options for an application. */
export const as = (d: { app: { api_key: string; api_secret: string } }) => ({
  key: d.app.api_key,
  secret: d.app.api_secret,
});

let serial = 0;

/**
 * A developer with no history and one funded PHP wallet (plus an empty BTC one), created directly; a
 * business account without a daily buy limit unless told otherwise (`dailyBuyLimit`).
 */
export function newDeveloper(
  t: TestApp,
  opts: {
    php?: string;
    whitelisted?: boolean;
    business?: boolean;
    dailyBuyLimit?: string | null;
  } = {},
) {
  const s = t.services;
  const id = s.ids();
  const n = ++serial;
  return s.unitOfWork(() => {
    s.identities.insertUser({
      id,
      kind: 'developer',
      name: `Dev ${n}`,
      email: `dev-${id}@test.example`,
      mobile_number: null,
      password: null,
      workspace_id: null,
      created_at: s.clock.now(),
    });
    const php = s.ledger.createAccount({
      ownerType: 'user',
      ownerId: id,
      name: 'PHP Wallet',
      currency: 'PHP',
    });
    const btc = s.ledger.createAccount({
      ownerType: 'user',
      ownerId: id,
      name: 'BTC Wallet',
      currency: 'BTC',
    });
    fund(s, php, parseAmount(opts.php ?? '100000', { allowZero: true }));
    const app = {
      api_key: `key-${id}`,
      api_secret: `secret-${id}`,
      mfa_whitelisted: opts.whitelisted ?? true,
      otp_secret: 'JBSWY3DPEHPK3PXP',
    };
    s.identities.insertApp({
      ...app,
      name: `App ${n}`,
      owner_id: id,
      mfa_whitelisted: app.mfa_whitelisted ? 1 : 0,
      workspace_id: null,
      created_at: s.clock.now(),
      business_account: opts.business === false ? 0 : 1,
      daily_buy_limit:
        opts.dailyBuyLimit === undefined || opts.dailyBuyLimit === null
          ? opts.dailyBuyLimit
          : Number(parseAmount(opts.dailyBuyLimit)),
    });
    return { id, php, btc, app };
  });
}

/** Balance of an account in units. */
export function balanceOf(t: TestApp, accountId: string): bigint {
  return required(t.services.ledger.get(accountId), `account ${accountId}`).balance;
}
