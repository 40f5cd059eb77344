import { describe, expect, it } from 'vitest';
import { listDeliveries } from './deliveries.js';
import { pageMeta, pageRequest } from '../shared/pagination.js';

interface Row {
  seq: number;
  id: string;
  status: string;
}

/**
 * The control API's list as it pages (newest first by seq, `page`/`per_page`, a `status` filter),
 * with `between` run after each answer: deliveries arriving or changing state while the CLI reads.
 */
function fakeApi(rows: Row[], between: (reads: number) => void) {
  let reads = 0;
  const call = async <T>(method: string, path: string): Promise<T> => {
    expect(method).toBe('GET');
    const q = new URL(path, 'http://sandbox').searchParams;
    const status = q.get('status');
    const matching = rows
      .filter((r) => status === null || r.status === status)
      .sort((a, b) => b.seq - a.seq);
    const req = pageRequest({
      page: Number(q.get('page') ?? 1),
      per_page: Number(q.get('per_page') ?? 10),
    });
    const page = matching.slice(req.offset, req.offset + req.limit).map((r) => ({
      id: r.id,
      status: r.status,
      event: 'invoice.created',
      invoice_id: 'inv',
      url: null,
      attempts_count: 0,
      created_at: '2026-01-01T00:00:00Z',
      last_error: null,
      redelivery_of: null,
    }));
    const answer = { deliveries: page, meta: pageMeta(req, matching.length) };
    between(++reads);
    return answer as T;
  };
  return call;
}

const rows = (n: number, status: (i: number) => string): Row[] =>
  Array.from({ length: n }, (_, i) => ({ seq: i + 1, id: `d${i + 1}`, status: status(i) }));

describe('listDeliveries page by page', () => {
  it('--all: deliveries made while it reads are not counted; the meta describes what it listed', async () => {
    const log = rows(250, () => 'failed');
    const before = log.map((r) => r.id).reverse();
    let seq = 250;
    const call = fakeApi(log, () => {
      for (let i = 0; i < 4; i++) log.push({ seq: ++seq, id: `new${seq}`, status: 'failed' });
    });
    const all = await listDeliveries(call, new URLSearchParams(), Infinity);
    expect(all.deliveries.map((d) => d.id)).toEqual(before);
    expect(all.meta).toEqual({ total_count: 250, next_page: null, previous_page: null });
  });

  it('--all --status pending: one that is sent between two pages does not hide an older one', async () => {
    // 150 pending; after the first read, the newest pending one is delivered (it leaves the filter,
    // which pulled the 101st onto page 1 when the filter was the API's).
    const log = rows(150, () => 'pending');
    const call = fakeApi(log, (reads) => {
      if (reads === 1) {
        const newest = log.find((r) => r.seq === 150);
        if (newest) newest.status = 'delivered';
      }
    });
    const all = await listDeliveries(call, new URLSearchParams({ status: 'pending' }), Infinity);
    const ids = all.deliveries.map((d) => d.id);
    expect(ids).toEqual(
      log
        .filter((r) => r.seq < 150)
        .map((r) => r.id)
        .reverse(),
    );
    expect(all.meta).toEqual({ total_count: 149, next_page: null, previous_page: null });
  });

  it('--limit 120 --status delivering: reads past deliveries in other states, stops at the limit', async () => {
    const log = rows(400, (i) => (i % 2 ? 'delivering' : 'delivered'));
    const call = fakeApi(log, () => {});
    const some = await listDeliveries(call, new URLSearchParams({ status: 'delivering' }), 120);
    expect(some.deliveries).toHaveLength(120);
    expect(some.deliveries.every((d) => d.status === 'delivering')).toBe(true);
    expect(some.deliveries[0]?.id).toBe('d400');
    expect(some.meta).toEqual({ total_count: 200, next_page: 2, previous_page: null });
  });
});
