import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OutboxEventRow } from '../events/outbox.repo.js';
import type { Merchant } from '../identities/identities.api.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { createEventDeliveryWriter } from './event-delivery.writer.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

describe('the delivery writer counts the deliveries the dispatcher will send', () => {
  it('counts a pending delivery, not one failed at once for a merchant with nowhere to send', () => {
    const merchant = t.services.identities.merchantById(t.merchant.id) as Merchant;
    const inv = t.services.invoices.create(merchant, {
      amount: '20',
      currency: 'PHP',
      external_transaction_id: 'writer-count',
    });
    const event = t.db
      .prepare('SELECT * FROM outbox_events WHERE invoice_id = ?')
      .get(inv.id) as OutboxEventRow;
    let target: Merchant = { ...merchant, callback_url: null };
    const write = createEventDeliveryWriter({
      db: t.db,
      ids: t.services.ids,
      merchantById: () => target,
    });
    write(event);
    expect(write.pendingWritten()).toBe(0);
    target = { ...merchant, callback_url: 'https://merchant.example/callbacks' };
    write(event);
    expect(write.pendingWritten()).toBe(1);
    const statuses = t.db
      .prepare('SELECT status FROM deliveries WHERE event_id = ? ORDER BY seq')
      .pluck()
      .all(event.id);
    expect(statuses.slice(-2)).toEqual(['failed', 'pending']);
  });
});
