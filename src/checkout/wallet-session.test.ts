import { expect, it } from 'vitest';
import { createSessionStore, MAX_SESSIONS } from './checkout.session.js';
import { walletSubject } from './wallet-session.service.js';

const NOW = 1_000_000;
const open = (
  sessions: ReturnType<typeof createSessionStore>,
  subject: string,
  tenant: string | null = null,
  expiresAt = NOW + 1,
) => sessions.open({ customerId: 'customer-1', subject, tenant, expiresAt });

it('a wallet session counts for its own subject only: never another invoice, request, or the other kind with the same id', () => {
  const sessions = createSessionStore();
  const id = 'a'.repeat(32);
  const subjects = [
    walletSubject.invoice(id),
    walletSubject.paymentRequest(id),
    walletSubject.invoice('b'.repeat(32)),
    walletSubject.paymentRequest('b'.repeat(32)),
  ];
  for (const openedFor of subjects) {
    const token = open(sessions, openedFor);
    for (const askedFor of subjects)
      expect(sessions.verify(token, askedFor, NOW), `${openedFor} → ${askedFor}`).toBe(
        askedFor === openedFor ? 'customer-1' : null,
      );
    expect(sessions.verify(token, openedFor, NOW + 1), 'expired').toBeNull();
  }
});

it('ends a session on the server: logout, its tenant ending, or its expiry (which a clock moved back never undoes)', () => {
  const sessions = createSessionStore();
  const s = walletSubject.invoice('a'.repeat(32));
  const later = NOW + 100;
  const loggedOut = open(sessions, s, null, later);
  const ofTenant = open(sessions, s, 'ws-1', later);
  const otherTenant = open(sessions, s, 'ws-2', later);
  const base = open(sessions, s, null, later);
  const expiring = open(sessions, s, null, NOW + 10);
  sessions.end(loggedOut);
  expect(sessions.verify(loggedOut, s, NOW)).toBeNull();
  expect(sessions.endTenant('ws-1')).toBe(1);
  expect(sessions.verify(ofTenant, s, NOW)).toBeNull();
  expect(sessions.verify(otherTenant, s, NOW)).toBe('customer-1');
  expect(sessions.verify(base, s, NOW)).toBe('customer-1');
  expect(sessions.expire(() => NOW + 10)).toBe(1);
  expect(sessions.verify(expiring, s, NOW), 'clock moved back').toBeNull();
  expect(sessions.verify(base, s, NOW)).toBe('customer-1');
});

it('keeps at most MAX_SESSIONS, ending the oldest; tokens are 256 random bits', () => {
  const sessions = createSessionStore();
  const s = walletSubject.invoice('a'.repeat(32));
  const first = open(sessions, s);
  expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
  for (let i = 1; i < MAX_SESSIONS; i++) open(sessions, s);
  expect(sessions.verify(first, s, NOW)).toBe('customer-1');
  open(sessions, s);
  expect(sessions.size()).toBe(MAX_SESSIONS);
  expect(sessions.verify(first, s, NOW)).toBeNull();
});

it("expires each session on its own tenant's clock, and tells the earliest expiry of all or of one workspace", () => {
  const sessions = createSessionStore();
  const s = walletSubject.invoice('a'.repeat(32));
  expect(sessions.nextExpiry(null)).toBeNull();
  // ws-1's clock is 50 µs ahead of the sandbox's; the base data and ws-2 are on the sandbox time.
  const offsets: Record<string, number> = { 'ws-1': 50 };
  const nowOf = (now: number) => (tenant: string | null) =>
    now + (tenant ? (offsets[tenant] ?? 0) : 0);
  const ahead = open(sessions, s, 'ws-1', NOW + 60);
  const base = open(sessions, s, null, NOW + 40);
  const other = open(sessions, s, 'ws-2', NOW + 30);
  expect(sessions.nextExpiry(null)).toBe(NOW + 30);
  expect(sessions.nextExpiry('ws-1')).toBe(NOW + 60);
  expect(sessions.nextExpiry('ws-3')).toBeNull();
  expect(sessions.expire(nowOf(NOW + 10))).toBe(1);
  expect(sessions.verify(ahead, s, NOW)).toBeNull();
  expect(sessions.verify(base, s, NOW)).toBe('customer-1');
  expect(sessions.verify(other, s, NOW)).toBe('customer-1');
  expect(sessions.nextExpiry('ws-1')).toBeNull();
  expect(sessions.expire(nowOf(NOW + 30))).toBe(1);
  expect(sessions.nextExpiry(null)).toBe(NOW + 40);
});
