import { expect, it } from 'vitest';
import { createSessionSigner } from './checkout.session.js';
import { walletSubject } from './wallet-session.service.js';

const NOW = 1_000_000;

it('a wallet session counts for its own subject only: never another invoice, request, or the other kind with the same id', () => {
  const sessions = createSessionSigner();
  const id = 'a'.repeat(32);
  const subjects = [walletSubject.invoice(id), walletSubject.paymentRequest(id), walletSubject.invoice('b'.repeat(32)), walletSubject.paymentRequest('b'.repeat(32))];
  for (const signedFor of subjects) {
    const token = sessions.sign({ customerId: 'customer-1', subject: signedFor, expiresAt: NOW + 1 });
    for (const askedFor of subjects) expect(sessions.verify(token, askedFor, NOW), `${signedFor} → ${askedFor}`).toBe(askedFor === signedFor ? 'customer-1' : null);
    expect(sessions.verify(token, signedFor, NOW + 1), 'expired').toBeNull();
  }
});
