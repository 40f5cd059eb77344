import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sql as initial } from '../db/migrations/001-initial.js';
import { migrations } from '../db/migrations/index.js';
import { migrate, openDatabase } from '../db/open.js';

const insertEvent = (db: Database.Database, id: string, seq: number) =>
  db
    .prepare('INSERT INTO outbox_events (id, seq, name, invoice_id, merchant_id, payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(id, seq, 'invoice.created', 'i'.repeat(32), 'm'.repeat(32), '{"event":{}}', 1_000 + seq);

describe('deliveries are written with their outbox event', () => {
  it('creates one pending delivery per event in the same transaction, and none when it rolls back', () => {
    const db = openDatabase(':memory:');
    insertEvent(db, 'e1', 1);
    expect(() =>
      db.transaction(() => {
        insertEvent(db, 'e2', 2);
        throw new Error('the change failed');
      })(),
    ).toThrow('the change failed');
    const rows = db.prepare('SELECT event_id, status, ordered, next_attempt_at, created_at, body FROM deliveries').all();
    expect(rows).toEqual([{ event_id: 'e1', status: 'pending', ordered: 1, next_attempt_at: 1_001, created_at: 1_001, body: '{"event":{}}' }]);
    expect((db.prepare('SELECT id FROM deliveries').get() as { id: string }).id).toMatch(/^[0-9a-f]{32}$/);
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
