import { describe, expect, it } from 'vitest';
import { faultLine } from './fault.js';

describe('paysandbox fault list: one line per fault', () => {
  it('shows the last request hit and a used-up fault as exhausted', () => {
    const id = 'a'.repeat(32);
    expect(
      faultLine({
        id,
        method: 'POST',
        path: '/v1/invoices',
        status: 503,
        count: 0,
        state: 'exhausted',
        hits: 1,
        last_hit: { at: '2026-11-26T10:11:12.345678Z', method: 'POST', path: '/v1/invoices/' },
      }),
    ).toBe(
      `${id}  POST   /v1/invoices  status 503, count 0, exhausted  hits 1  last_hit 2026-11-26T10:11:12.345678Z POST /v1/invoices/`,
    );
    expect(
      faultLine({ id, method: '*', path: '/v3/**', state: 'active', hits: 0, last_hit: null }),
    ).toBe(`${id}  *      /v3/**    hits 0`);
  });
});
