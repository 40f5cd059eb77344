import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a wallet login on the hosted page lasts, on its tenant's clock. */
export const SESSION_SECONDS = 15 * 60;

export interface WalletSession {
  customerId: string;
  /** What the session is for (`walletSubject` in wallet-session.service.ts): one invoice or one payment request. */
  subject: string;
  /** The customer's tenant: a workspace id, null for the base data. Deleting the workspace ends the session. */
  tenant: string | null;
  /** Microseconds on its tenant's clock (the page that opened it runs on its subject's tenant's clock). */
  expiresAt: number;
}

/** At most this many sessions are kept; opening one more ends the oldest (a login flood cannot grow memory). */
export const MAX_SESSIONS = 10_000;

/**
 * The wallet logins of the hosted pages, kept on the server: the cookie holds only a random token (256
 * bits) naming a record here, so a customer id cannot be forged, a session counts for its own subject
 * alone (one invoice or payment request), and ending it on the server ends it everywhere: logout ends
 * that session, a deleted workspace every session of its customers, expiry (on its tenant's clock, by the
 * due work: src/clock/due-work.ts) each one for good, even if the clock moves back. Records live in
 * memory: a restart logs everyone out.
 *
 * @example
 * const sessions = createSessionStore();
 * const token = sessions.open({ customerId, subject: 'invoice:42', tenant: null, expiresAt: now + 60e6 });
 * sessions.verify(token, 'invoice:42', now); // → customerId
 * sessions.end(token);
 * sessions.verify(token, 'invoice:42', now); // → null
 */
export function createSessionStore(
  newToken: () => string = () => randomBytes(32).toString('base64url'),
) {
  const live = new Map<string, WalletSession>();
  return {
    /** Open a session; its token for the cookie. */
    open(s: WalletSession): string {
      const token = newToken();
      if (live.size >= MAX_SESSIONS) live.delete(live.keys().next().value!);
      live.set(token, { ...s });
      return token;
    },
    /** The customer id of a live token for this subject; otherwise null. An expired session ends here. */
    verify(token: string | undefined, subject: string, nowMicros: number): string | null {
      if (!token || token.length > 512) return null;
      const s = live.get(token);
      if (!s) return null;
      if (s.expiresAt <= nowMicros) {
        live.delete(token);
        return null;
      }
      return s.subject === subject ? s.customerId : null;
    },
    /** Log out: the token never counts again. */
    end(token: string | undefined): void {
      if (token) live.delete(token);
    },
    /** End every session of a tenant's customers (its workspace was deleted or expired); how many. */
    endTenant(tenant: string): number {
      let n = 0;
      for (const [token, s] of live) if (s.tenant === tenant && live.delete(token)) n++;
      return n;
    },
    /**
     * End every session whose time has come on its tenant's clock (`nowOf`: the clock's due work), so
     * that no clock move back revives one; how many.
     */
    expire(nowOf: (tenant: string | null) => number): number {
      let n = 0;
      for (const [token, s] of live) if (s.expiresAt <= nowOf(s.tenant) && live.delete(token)) n++;
      return n;
    },
    /**
     * The earliest expiry of a live session, on its tenant's clock: of every session (`null`) or of one
     * workspace's customers' (the guard of the due work).
     */
    nextExpiry(workspaceId: string | null): number | null {
      let at: number | null = null;
      for (const s of live.values())
        if ((workspaceId === null || s.tenant === workspaceId) && (at === null || s.expiresAt < at))
          at = s.expiresAt;
      return at;
    },
    size: () => live.size,
  };
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/** Compare a typed password with the stored sandbox password without leaking where they differ. */
export function passwordMatches(given: string, stored: string | null): boolean {
  if (stored === null) return false;
  const key = randomBytes(16);
  const a = createHmac('sha256', key).update(given).digest();
  const b = createHmac('sha256', key).update(stored).digest();
  return timingSafeEqual(a, b);
}
