import { Secret, TOTP } from 'otpauth';

/** RFC 6238 TOTP (SHA-1, 30 s, 6 digits) on the sandbox clock. */
function totp(secretBase32: string): TOTP {
  return new TOTP({
    secret: Secret.fromBase32(secretBase32),
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
  });
}

export function newOtpSecret(): string {
  // Stryker disable next-line ObjectLiteral: 20 bytes is otpauth's default too; stated so as not to depend on it
  return new Secret({ size: 20 }).base32;
}

export function currentOtp(
  secretBase32: string,
  nowMs: number,
): { otp: string; expiresInSeconds: number } {
  const otp = totp(secretBase32).generate({ timestamp: nowMs });
  return { otp, expiresInSeconds: 30 - (Math.floor(nowMs / 1000) % 30) };
}

/** Accepts the code of the current 30 s step or of the step just before or after (clock skew). */
export function otpIsValid(secretBase32: string, code: string, nowMs: number): boolean {
  // Stryker disable next-line all: otpauth's validate refuses anything but the 6 digits of a step as well; this only answers early
  if (!/^\d{6}$/.test(code)) return false;
  return totp(secretBase32).validate({ token: code, timestamp: nowMs, window: 1 }) !== null;
}
