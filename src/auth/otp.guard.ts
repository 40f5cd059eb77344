import { otpIsValid } from './otp.js';
import { OtpError } from '../shared/api-error.js';
import type { App } from '../identities/identities.api.js';

/**
 * The MFA rule of money-moving developer calls (docs/design.md#authentication: `POST /v1/sellorder`,
 * `POST /v3/transfers`): unless the application is MFA-whitelisted, the body field `otp` (or its legacy
 * name `code`) or the header `Access-OTP` must hold a valid TOTP of the application's secret at the sandbox clock's time, so that
 * moving the clock moves the expected code too. Throws OtpError (422) otherwise.
 *
 * @example
 * requireOtp(app, [body.otp, c.req.header('access-otp')], clock.now());
 */
export function requireOtp(
  app: App,
  candidates: Array<string | undefined>,
  nowMicros: number,
): void {
  if (app.mfa_whitelisted === 1) return;
  const nowMs = Math.floor(nowMicros / 1000);
  const given = candidates.filter((c): c is string => typeof c === 'string' && c.length > 0);
  if (!given.some((code) => otpIsValid(app.otp_secret, code.trim(), nowMs))) throw new OtpError();
}
