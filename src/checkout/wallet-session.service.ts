import type { User } from '../identities/identities.api.js';
import type { ServicesWith } from '../module.types.js';
import { passwordMatches, SESSION_SECONDS, type SessionStore } from './checkout.session.js';

/**
 * What a wallet session is for. Each hosted page signs its sessions for its own subject, kind and id
 * together, so the session of one invoice or payment request is never accepted for another (nor an
 * invoice's for a request with the same id).
 */
export const walletSubject = {
  invoice: (id: string) => `invoice:${id}`,
  paymentRequest: (id: string) => `payment-request:${id}`,
};

/**
 * The wallet login of the hosted pages (an invoice's and a payment request's): who is logged in for a
 * subject, logging a customer of one tenant in for it, and logging out (the session ends on the server).
 */
export function createWalletSessions(s: ServicesWith<'identities'>, sessions: SessionStore) {
  return {
    /** The customer of a valid, unexpired session for this subject; otherwise null. */
    customer(subject: string, token: string | undefined): User | null {
      const id = sessions.verify(token, subject, s.clock.now());
      const user = id ? s.identities.userById(id) : undefined;
      return user && user.kind === 'customer' ? user : null;
    },

    /**
     * Check a customer's credentials in `tenant` (a workspace id, null for the base data; undefined when
     * the subject does not exist): a session token for this subject, or null. A customer of another
     * tenant fails exactly as an unknown login does.
     */
    login(
      subject: string,
      tenant: string | null | undefined,
      login: string,
      password: string,
    ): string | null {
      const customer =
        tenant !== undefined && login
          ? s.identities.customerByLogin(login.trim(), tenant)
          : undefined;
      // Compare even for an unknown login, so both failures take the same path.
      const matches = passwordMatches(password, customer?.password ?? null);
      if (!customer || !matches) return null;
      // On the current tenant's clock, the subject's: its customer's, or the login failed above.
      const expiresAt = s.clock.now() + SESSION_SECONDS * 1_000_000;
      const token = sessions.open({
        customerId: customer.id,
        subject,
        tenant: customer.workspace_id ?? null,
        expiresAt,
      });
      s.dueWork.expect(expiresAt);
      return token;
    },

    /** End the session of this token on the server: the cookie, if kept or copied, no longer counts. */
    logout: (token: string | undefined) => sessions.end(token),
  };
}

export type WalletSessions = ReturnType<typeof createWalletSessions>;
