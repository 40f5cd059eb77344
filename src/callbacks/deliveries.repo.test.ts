import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sql as initial } from '../db/migrations/001-initial.js';
import { migrations } from '../db/migrations/index.js';
import { migrate, openDatabase } from '../db/open.js';
import { createOutbox, type EventBody } from '../events/outbox.repo.js';
import type { Merchant } from '../identities/identities.api.js';
import { createClock } from '../shared/clock.js';
import { createEventDeliveryWriter } from './event-delivery.writer.js';

const insertEvent = (db: Database.Database, id: string, seq: number) =>
  db
    .prepare(
      'INSERT INTO outbox_events (id, seq, name, invoice_id, merchant_id, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    .run(id, seq, 'invoice.created', 'i'.repeat(32), 'm'.repeat(32), '{"event":{}}', 1_000 + seq);

describe('deliveries are written with their outbox event', () => {
  const body = (id: string): EventBody => ({
    event: {
      name: 'invoice.created',
      data: {
        id,
        currency: 'PHP',
        amount: '1.00000000',
        amount_received: '0.00000000',
        external_transaction_id: 'x',
      },
    },
  });

  it('creates one pending delivery per event in the same transaction, and none when it rolls back', () => {
    const db = openDatabase(':memory:');
    const merchant = {
      id: 'm'.repeat(32),
      callback_url: 'http://127.0.0.1:9/cb',
      disabled: 0,
    } as Merchant;
    let n = 0;
    const ids = () => (++n).toString(16).padStart(32, '0');
    const clock = createClock({ realNowMs: () => 1_000 });
    const outbox = createOutbox(
      db,
      clock,
      ids,
      createEventDeliveryWriter({ db, ids, merchantById: () => merchant }),
    );
    const e1 = db.transaction(() =>
      outbox.append('invoice.created', merchant.id, body('i'.repeat(32))),
    )();
    expect(() =>
      db.transaction(() => {
        outbox.append('invoice.created', merchant.id, body('j'.repeat(32)));
        throw new Error('the change failed');
      })(),
    ).toThrow('the change failed');
    const rows = db
      .prepare(
        'SELECT event_id, status, ordered, url, next_attempt_at, created_at, body FROM deliveries',
      )
      .all();
    expect(rows).toEqual([
      {
        event_id: e1.id,
        status: 'pending',
        ordered: 1,
        url: merchant.callback_url,
        next_attempt_at: e1.created_at,
        created_at: e1.created_at,
        body: e1.payload,
      },
    ]);
    expect((db.prepare('SELECT id FROM deliveries').get() as { id: string }).id).toMatch(
      /^[0-9a-f]{32}$/,
    );
    db.close();
  });

  it('leaves nothing to SQL: no trigger writes deliveries behind the outbox', () => {
    const db = openDatabase(':memory:');
    insertEvent(db, 'bare', 1);
    expect(db.prepare('SELECT COUNT(*) AS n FROM deliveries').get()).toEqual({ n: 0 });
    expect(
      db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'outbox_events'",
        )
        .all(),
    ).toEqual([]);
    db.close();
  });

  it('gives events written before the callbacks migration their deliveries when it runs', () => {
    const db = new Database(':memory:');
    db.exec(initial);
    db.pragma('user_version = 1');
    insertEvent(db, 'old-1', 1);
    insertEvent(db, 'old-2', 2);
    migrate(db);
    expect(db.prepare('SELECT event_id, status FROM deliveries ORDER BY seq').all()).toEqual([
      { event_id: 'old-1', status: 'pending' },
      { event_id: 'old-2', status: 'pending' },
    ]);
    db.close();
  });
});
