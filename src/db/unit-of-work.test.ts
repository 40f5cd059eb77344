import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createOutbox, type OutboxEventRow } from '../events/outbox.repo.js';
import { commitBarrier } from '../http/create-app.js';
import type { AppEnv } from '../http/operation.js';
import { createClock } from '../shared/clock.js';
import { newId } from '../shared/ids.js';
import { openDatabase, type Db } from './open.js';
import { createWriteBatch, type WriteBatch } from './unit-of-work.js';
import { errorCode } from '../testing/error-code.js';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('group commit (write batch)', () => {
  let db: Db;
  let batch: WriteBatch;
  let outbox: ReturnType<typeof createOutbox>;
  let heard: OutboxEventRow[];
  let logged: string[];

  beforeEach(() => {
    db = openDatabase(':memory:');
    db.exec(`CREATE TABLE parent (id TEXT PRIMARY KEY);
      CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);`);
    outbox = createOutbox(db, createClock(), newId, () => {}); // the write batch alone: no delivery rows
    heard = [];
    outbox.onAppend((e) => heard.push(e));
    logged = [];
    batch = createWriteBatch(db, outbox, { log: (m) => logged.push(m) });
  });
  afterEach(() => db.close());

  const insertParent = (id: string) => db.prepare('INSERT INTO parent (id) VALUES (?)').run(id);
  const parents = () =>
    (db.prepare('SELECT id FROM parent ORDER BY id').all() as Array<{ id: string }>).map(
      (r) => r.id,
    );
  const event = (invoiceId: string) =>
    outbox.append('invoice.created', 'm1', {
      event: {
        name: 'invoice.created',
        data: {
          id: invoiceId,
          currency: 'PHP',
          amount: '1.00000000',
          amount_received: '0.00000000',
          external_transaction_id: invoiceId,
        },
      },
    });

  it('commits the units of one turn of the event loop together, after the turn, then tells listeners', async () => {
    const g = batch.generation();
    for (const id of ['a', 'b', 'c']) {
      batch.unit(() => {
        insertParent(id);
        event(id);
      });
    }
    // Written and visible on the connection, not yet committed; listeners hear nothing before the commit.
    expect(parents()).toEqual(['a', 'b', 'c']);
    expect(db.inTransaction).toBe(true);
    expect(heard).toEqual([]);
    expect(batch.generation()).toBe(g); // still the same open batch
    await batch.settled();
    expect(db.inTransaction).toBe(false);
    expect(heard.map((e) => e.invoice_id)).toEqual(['a', 'b', 'c']);
    expect(batch.generation()).toBe(g + 1); // the next one to open
    expect(batch.failedGeneration()).toBe(0);
    expect(batch.settled()).toBeNull();
  });

  it('rolls back a failing unit alone, with its events', async () => {
    batch.unit(() => {
      insertParent('kept');
      event('kept');
    });
    expect(() =>
      batch.unit(() => {
        insertParent('dropped');
        event('dropped');
        throw new Error('validation failed half way');
      }),
    ).toThrow('validation failed half way');
    batch.unit(() => insertParent('after'));
    await batch.settled();
    expect(parents()).toEqual(['after', 'kept']);
    expect(heard.map((e) => e.invoice_id)).toEqual(['kept']);
    expect(batch.failedGeneration()).toBe(0);
  });

  it('runs a nested unit as part of its caller (one rollback for both)', async () => {
    expect(() =>
      batch.unit(() => {
        insertParent('outer');
        batch.unit(() => insertParent('inner'));
        throw new Error('outer fails');
      }),
    ).toThrow('outer fails');
    await nextTurn();
    expect(parents()).toEqual([]);
  });

  it('when the commit fails: nothing of the batch stays, listeners hear nothing, the failure is counted and logged', async () => {
    const g = batch.generation();
    batch.unit(() => {
      insertParent('p');
      event('p');
    });
    // A deferred foreign key is checked only by COMMIT: the units succeed, the commit cannot.
    batch.unit(() =>
      db.prepare('INSERT INTO child (id, parent_id) VALUES (?, ?)').run('c', 'missing'),
    );
    await batch.settled();
    expect(db.inTransaction).toBe(false);
    expect(parents()).toEqual([]);
    expect(heard).toEqual([]);
    expect(batch.failedGeneration()).toBe(g);
    expect(logged.join('\n')).toMatch(/group commit failed/);
    // The next batch works.
    batch.unit(() => insertParent('next'));
    await batch.settled();
    expect(parents()).toEqual(['next']);
    expect(batch.failedGeneration()).toBe(g);
  });

  it('runs a single statement in the open batch without a savepoint, and opens one when none is', async () => {
    const g = batch.generation();
    batch.statement(() => insertParent('s1'));
    expect(db.inTransaction).toBe(true);
    batch.unit(() => insertParent('u1'));
    expect(() => batch.statement(() => insertParent('s1'))).toThrow(/UNIQUE/); // fails alone
    await batch.settled();
    expect(parents()).toEqual(['s1', 'u1']);
    expect(batch.generation()).toBe(g + 1);
    expect(batch.failedGeneration()).toBe(0);
  });

  it('flush commits at once (before close or reset)', () => {
    batch.unit(() => insertParent('now'));
    expect(db.inTransaction).toBe(true);
    batch.flush();
    expect(db.inTransaction).toBe(false);
    batch.flush(); // nothing open: no-op
    expect(parents()).toEqual(['now']);
  });

  it('joins a transaction somebody else opened instead of nesting a batch in it', () => {
    db.transaction(() => {
      batch.unit(() => insertParent('inside'));
    })();
    expect(db.inTransaction).toBe(false);
    expect(batch.settled()).toBeNull();
    expect(parents()).toEqual(['inside']);
  });

  it('holds each HTTP response until its commit, and answers 500 when that commit failed', async () => {
    const app = new Hono<AppEnv>();
    app.use('*', commitBarrier(batch));
    app.post('/ok/:id', (c) => {
      batch.unit(() => insertParent(c.req.param('id')));
      // The response is built before the commit; the barrier holds it.
      return c.json({ committed: !db.inTransaction }, 201);
    });
    app.post('/poison', (c) => {
      batch.unit(() =>
        db.prepare('INSERT INTO child (id, parent_id) VALUES (?, ?)').run(newId(), 'missing'),
      );
      return c.json({ ok: true }, 201);
    });
    app.get('/read', (c) => c.json({ parents: parents() }));

    const ok = await app.request('/ok/x', { method: 'POST' });
    expect(ok.status).toBe(201);
    expect(db.inTransaction).toBe(false); // committed before the response was handed back
    expect(parents()).toEqual(['x']);

    // Three requests in one turn share one batch; the poisoned commit takes all of them down.
    const [a, p, r] = await Promise.all([
      app.request('/ok/y', { method: 'POST' }),
      app.request('/poison', { method: 'POST' }),
      app.request('/read'),
    ]);
    expect(a.status).toBe(500);
    expect(errorCode(await a.json())).toBe('internal_error');
    expect(p.status).toBe(500);
    // The read saw 'y' (uncommitted, then lost): it must not be answered as if that were true.
    expect(r.status).toBe(500);
    expect(parents()).toEqual(['x']);

    // A request that starts after the failure is not blamed for it.
    const later = await app.request('/read');
    expect(later.status).toBe(200);
    expect(await later.json()).toEqual({ parents: ['x'] });
  });
});
