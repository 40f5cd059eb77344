import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a wallet login on the hosted page lasts, on the sandbox clock. */
export const SESSION_SECONDS = 15 * 60;

export interface WalletSession {
  customerId: string;
  /** What the session is for (`walletSubject` in wallet-session.service.ts): one invoice or one payment request. */
  subject: string;
  /** Sandbox-clock microseconds. */
  expiresAt: number;
}

/**
 * The wallet login of the hosted page, kept in a cookie as `<payload>.<HMAC>`. The key is random per
 * process, so a customer id cannot be forged (nor replayed against another subject: another invoice or
 * payment request) to pay from someone else's wallet; a restart simply logs everyone out.
 *
 * @example
 * const sessions = createSessionSigner();
 * const token = sessions.sign({ customerId, subject: 'invoice:42', expiresAt: now + 60e6 });
 * sessions.verify(token, 'invoice:42', now); // → customerId
 */
export function createSessionSigner(key: Buffer = randomBytes(32)) {
  const mac = (payload: string) => createHmac('sha256', key).update(payload).digest();
  return {
    sign(s: WalletSession): string {
      const payload = Buffer.from(JSON.stringify([s.customerId, s.subject, s.expiresAt])).toString('base64url');
      return `${payload}.${mac(payload).toString('base64url')}`;
    },
    /** The customer id of a valid, unexpired token for this subject; otherwise null. */
    verify(token: string | undefined, subject: string, nowMicros: number): string | null {
      if (!token || token.length > 512) return null;
      const [payload, sig, extra] = token.split('.');
      if (!payload || !sig || extra !== undefined) return null;
      const given = Buffer.from(sig, 'base64url');
      const expected = mac(payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
      } catch {
        return null;
      }
      if (!Array.isArray(parsed) || parsed.length !== 3) return null;
      const [customerId, forSubject, expiresAt] = parsed as [unknown, unknown, unknown];
      if (typeof customerId !== 'string' || forSubject !== subject || typeof expiresAt !== 'number') return null;
      return expiresAt > nowMicros ? customerId : null;
    },
  };
}

export type SessionSigner = ReturnType<typeof createSessionSigner>;

/** Compare a typed password with the stored sandbox password without leaking where they differ. */
export function passwordMatches(given: string, stored: string | null): boolean {
  if (stored === null) return false;
  const key = randomBytes(16);
  const a = createHmac('sha256', key).update(given).digest();
  const b = createHmac('sha256', key).update(stored).digest();
  return timingSafeEqual(a, b);
}
