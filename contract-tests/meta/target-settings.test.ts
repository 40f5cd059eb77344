/**
 * Cases depend only on what they set or can read: a merchant configured differently (the second
 * fixture merchant sends its token to callbacks `always`) passes the same suite, and a key that needs
 * an OTP the suite cannot make skips the OTP cases with the reason instead of failing them.
 */
import { describe, expect, it } from 'vitest';
import { createHmacSigner } from '../../src/client/index.js';
import { readFixtures } from '../../src/fixtures/load.js';
import { allCases } from '../cases/index.js';
import { moneyCases } from '../cases/money.cases.js';
import { createSandboxTarget } from '../harness/sandbox.target.js';
import type { Target } from '../harness/target.types.js';
import { runSuite } from './suite.runner.js';

const fx = readFixtures();

/** The in-process sandbox seen as a URL without a control API, through the OTP application's key. */
async function otpAppTarget(otpSecret?: string): Promise<Target> {
  const base = await createSandboxTarget({ fixtureMerchant: 0 });
  const app = fx.developers.find((d) => !d.app.mfa_whitelisted)!.app;
  return {
    ...base,
    info: { ...base.info, kind: 'url', hasControl: false },
    creds: { ...base.creds, apiKey: app.api_key, apiSecret: app.api_secret, otpSecret },
    signer: createHmacSigner({ apiKey: app.api_key, apiSecret: app.api_secret }),
  };
}

/** The money cases that run without the control API and create transfers or sell orders. */
const needsOtp = (name: string) =>
  /^(transfers|sell orders):/.test(name) &&
  !moneyCases.find((c) => c.name === name)!.tags.includes('sandbox');

describe('settings of the given credentials', () => {
  it('the whole suite passes with the second fixture merchant (callback_auth always, other limits)', async () => {
    expect(fx.merchants[1]!.callback_auth).toBe('always');
    const run = await runSuite(await createSandboxTarget({ fixtureMerchant: 1 }));
    const failed = run.results.filter((r) => r.state === 'fail');
    expect(failed.map((r) => `${r.name}\n${r.message}`).join('\n---\n')).toBe('');
    // Fixture credentials are no workspace of the run: only the case about the run's own workspace clock skips.
    const skipped = run.results.filter((r) => r.state === 'skip').map((r) => r.name);
    expect(skipped).toEqual([
      "control: the run's workspace has its own clock; an advance moves it alone",
    ]);
    expect(run.results.length).toBe(allCases.length);
  }, 120_000);

  it('a key that needs an OTP, without CONTRACT_OTP_SECRET: the OTP cases are skipped with the reason, not failed', async () => {
    const run = await runSuite(await otpAppTarget(), moneyCases);
    const otpCases = run.results.filter((r) => needsOtp(r.name));
    expect(otpCases.length).toBe(4);
    for (const r of otpCases) {
      expect(r.state, `${r.name}: ${r.message}`).toBe('skip');
      expect(r.message).toMatch(
        /the application needs an OTP \(create\w+ answered 422 Two-factor code invalid!\): set CONTRACT_OTP_SECRET/,
      );
    }
    expect(run.results.filter((r) => r.state === 'fail')).toEqual([]);
  }, 60_000);

  it('the same key with CONTRACT_OTP_SECRET runs those cases, and they pass', async () => {
    const secret = fx.developers.find((d) => !d.app.mfa_whitelisted)!.app.otp_secret;
    const run = await runSuite(await otpAppTarget(secret), moneyCases);
    const otpCases = run.results.filter((r) => needsOtp(r.name));
    expect(otpCases.map((r) => `${r.name}: ${r.state} ${r.message ?? ''}`)).toEqual(
      otpCases.map((r) => `${r.name}: pass `),
    );
  }, 60_000);
});
