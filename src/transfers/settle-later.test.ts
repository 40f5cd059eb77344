import { describe, expect, it } from 'vitest';
import { BalanceLimitError } from '../ledger/ledger.api.js';
import { settleDue } from './transfers.settle-later.js';

describe('settleDue', () => {
  it('fails a due send whose destination cannot take it, settles the others, and never stalls', () => {
    const pending = [
      { id: 'a', tenant: null },
      { id: 'full', tenant: null },
      { id: 'b', tenant: null },
    ];
    const outcome: Record<string, string> = {};
    const settled = settleDue({
      unitOfWork: <T>(work: () => T) => work(),
      clock: { now: () => 10_000_000 } as never,
      tenants: { within: (_tenant, work) => work() },
      settleSeconds: () => 1,
      duePending: () => pending.splice(0),
      settle: (row) => {
        if (row.id === 'full') throw new BalanceLimitError({ owner_type: 'user', currency: 'PHP' });
        outcome[row.id] = 'success';
      },
      fail: (row) => void (outcome[row.id] = 'failed'),
    });
    expect(settled).toBe(3);
    expect(outcome).toEqual({ a: 'success', full: 'failed', b: 'success' });
  });

  it('lets any other error through (a bug is not a failed send)', () => {
    const run = () =>
      settleDue({
        unitOfWork: <T>(work: () => T) => work(),
        clock: { now: () => 10_000_000 } as never,
        tenants: { within: (_tenant, work) => work() },
        settleSeconds: () => 1,
        duePending: () => [{ id: 'x', tenant: null }],
        settle: () => {
          throw new Error('boom');
        },
        fail: () => undefined,
      });
    expect(run).toThrow('boom');
  });
});
