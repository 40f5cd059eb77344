import { describe, expect, it } from 'vitest';
import {
  accountsAnswer,
  fakeService,
  har,
  MARKETS_READ,
  notFound,
  path,
  replay,
} from './replay.e2e.test-support.js';

/**
 * `paysandbox replay` runs a session again and again (fresh external_transaction_ids per run), reads the
 * HAR 1.2 forms other tools write (base64 answers, forms as params, devtools exports with pages and other
 * hosts, skipped with the reason) and labels the target's answers as such (docs/parity.md, "Replay").
 */

describe('replay: re-runnable', () => {
  it('gives each recorded external_transaction_id a fresh one per run, the same wherever the session names it', async () => {
    const refs = new Set<string>();
    const svc = await fakeService((r) => {
      const p = path(r);
      if (p === '/v3/crypto-accounts/') return accountsAnswer;
      if (p === '/v3/invoices/' && r.method === 'POST') {
        const ref = (JSON.parse(r.body) as { external_transaction_id: string })
          .external_transaction_id;
        if (refs.has(ref))
          return {
            status: 400,
            body: { errors: { external_transaction_id: ['Duplicate.'] } },
          };
        refs.add(ref);
        return {
          status: 201,
          body: { invoice: { id: `${refs.size}`.padEnd(32, '0'), external_transaction_id: ref } },
        };
      }
      if (p === '/v3/invoices/') {
        const ref = new URL(r.url, 'http://x').searchParams.get('external_transaction_id');
        if (ref === null) return { status: 200, body: { invoices: [] } }; // the preflight's read
        return refs.has(ref)
          ? { status: 200, body: { invoices: [{ external_transaction_id: ref }] } }
          : { status: 404, body: { errors: { detail: 'Not found.' } } };
      }
      return notFound;
    });
    const file = har([
      {
        method: 'POST',
        path: '/v3/invoices/',
        status: 201,
        auth: 'token',
        request: { amount: '20', currency: 'PHP', external_transaction_id: 'order-1001' },
        response: { invoice: { id: 'aa'.repeat(16), external_transaction_id: 'order-1001' } },
      },
      {
        method: 'GET',
        path: '/v3/invoices/?external_transaction_id=order-1001',
        status: 200,
        auth: 'token',
        response: { invoices: [{ external_transaction_id: 'order-1001' }] },
      },
    ]);
    const first = await replay(file, svc.url);
    const second = await replay(file, svc.url);
    expect(first.out).toMatch(/total\s+2\/2/);
    expect(second.out).toBe(first.out);
    expect(second.code).toBe(0);
    expect(refs.size).toBe(2);
    const posts = svc.seen.filter((r) => r.method === 'POST');
    const reads = svc.seen.filter(
      (r) => r.method === 'GET' && path(r) === '/v3/invoices/' && r.url.includes('external'),
    );
    for (const [i, post] of posts.entries()) {
      const ref = (JSON.parse(post.body) as { external_transaction_id: string })
        .external_transaction_id;
      expect(ref).not.toBe('order-1001');
      expect(reads[i]?.url).toBe(`/v3/invoices/?external_transaction_id=${ref}`);
    }
  });
});

describe('replay: HAR 1.2 bodies as other tools write them, and the target named as such', () => {
  it('decodes a base64 answer, sends a form given as params, and labels the answer the target’s', async () => {
    const svc = await fakeService((r) => {
      const p = path(r);
      if (p === '/v3/crypto-accounts/') return accountsAnswer;
      if (p === '/v1/markets') return { status: 200, body: MARKETS_READ.response };
      if (p === '/v3/payment-requests/' && r.method === 'POST') {
        const form = new URLSearchParams(r.body);
        return form.get('amount') === '5'
          ? { status: 201, body: { payment_request: { id: 'ab'.repeat(16), amount: '5' } } }
          : { status: 400, body: { errors: { detail: 'No data provided.' } } };
      }
      return notFound;
    });
    const file = har([
      { ...MARKETS_READ, base64: true },
      {
        method: 'POST',
        path: '/v3/payment-requests/',
        status: 201,
        params: { amount: '5', currency: 'PHP', message: 'lunch' },
        response: { payment_request: { id: 'cd'.repeat(16), amount: '5' } },
      },
      { ...MARKETS_READ, path: '/v1/markets/BTC-PHP' },
    ]);
    const { code, out } = await replay(file, svc.url);
    expect(out).toMatch(/total\s+2\/3/);
    expect(out).toMatch(/UNEXPLAINED status\s+\S*\s+recorded 200; target 404/);
    expect(out).toContain('the target\'s answer: {"errors":{"detail":"Not found."}}');
    expect(out).not.toMatch(/session\d+\.har#[01] /);
    expect(code).toBe(1);
    expect(svc.seen.find((r) => r.method === 'POST')?.body).toBe(
      'amount=5&currency=PHP&message=lunch',
    );
  });

  it('skips what a devtools export holds besides API calls: other hosts, pages and static files', async () => {
    const svc = await fakeService((r) =>
      path(r) === '/v1/markets' ? { status: 200, body: MARKETS_READ.response } : accountsAnswer,
    );
    const file = har([
      {
        ...MARKETS_READ,
        origin: 'https://cdn.example.com',
        path: '/app.js',
        mimeType: 'application/javascript',
        response: 'x',
      },
      {
        ...MARKETS_READ,
        path: '/payment/invoice/abc',
        mimeType: 'text/html; charset=utf-8',
        response: '<html>',
      },
      MARKETS_READ,
    ]);
    const { code, out } = await replay(file, svc.url, {}, ['--json']);
    const { results } = JSON.parse(out) as { results: Array<{ status: string; note?: string }> };
    expect(results.map((r) => [r.status, r.note])).toEqual([
      [
        'skipped',
        "not a call to the API: another host (https://cdn.example.com; the session's API is http://127.0.0.1:7070)",
      ],
      ['skipped', 'not a call to the API: a page or static file (text/html)'],
      ['match', undefined],
    ]);
    expect(code).toBe(0);
    expect(svc.seen.map(path)).toEqual(['/v3/crypto-accounts/', '/v1/markets']);
  });
});
