import { describe, expect, it } from 'vitest';
import { currentOtp, newOtpSecret, otpIsValid } from './otp.js';

// RFC 6238 appendix B: the SHA-1 seed "12345678901234567890", base32; the RFC's 8-digit values cut to 6.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('OTP (RFC 6238, SHA-1, 30 s, 6 digits)', () => {
  it.each([
    [59, '287082', 1],
    [1_111_111_109, '081804', 1],
    [1_111_111_111, '050471', 29],
    [1_234_567_890, '005924', 30],
  ])('at %i s the code is %s, valid for %i more seconds', (seconds, otp, expiresInSeconds) => {
    expect(currentOtp(RFC_SECRET, seconds * 1000)).toEqual({ otp, expiresInSeconds });
  });

  it('accepts the current step and one step either side, nothing further', () => {
    const now = 1_111_111_111_000;
    expect(otpIsValid(RFC_SECRET, '050471', now)).toBe(true);
    expect(otpIsValid(RFC_SECRET, currentOtp(RFC_SECRET, now - 30_000).otp, now)).toBe(true);
    expect(otpIsValid(RFC_SECRET, currentOtp(RFC_SECRET, now + 30_000).otp, now)).toBe(true);
    expect(otpIsValid(RFC_SECRET, currentOtp(RFC_SECRET, now - 60_000).otp, now)).toBe(false);
    expect(otpIsValid(RFC_SECRET, currentOtp(RFC_SECRET, now + 60_000).otp, now)).toBe(false);
  });

  it.each(['', '05047', '0504710', ' 050471', '050471 ', 'abcdef', '05047a'])(
    'refuses %j, which is not six digits',
    (code) => {
      expect(otpIsValid(RFC_SECRET, code, 1_111_111_111_000)).toBe(false);
    },
  );

  it('makes a fresh 160-bit base32 secret each time', () => {
    const a = newOtpSecret();
    expect(a).toMatch(/^[A-Z2-7]{32}$/);
    expect(newOtpSecret()).not.toBe(a);
    expect(currentOtp(a, 0).otp).toMatch(/^\d{6}$/);
  });
});
