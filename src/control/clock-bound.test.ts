import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { MAX_CLOCK_AHEAD_YEARS } from './clock.routes.js';

// A clock moves at most a century ahead (the sandbox's from real time, a workspace's from the sandbox's):
// past it a saved state could no longer be restored, and microsecond times would stop being exact.
let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

const YEAR = 31_622_400; // the most one advance takes (366 days)
const BOUND = MAX_CLOCK_AHEAD_YEARS * 365.25 * 86_400;

/** Advance by a year at a time until refused: the offsets reached and the refusal. */
async function advanceToTheBound(path: string, offsetOf: () => Promise<number>) {
  for (let i = 0; i < 120; i++) {
    const res = await t.request('POST', path, { body: { seconds: YEAR } });
    if (res.status !== 200) return { res, calls: i, offset: await offsetOf() };
  }
  throw new Error(`${path} was never refused`);
}

describe('how far a clock moves', () => {
  it('the sandbox clock: a century ahead of real time at most, then 400 on seconds, nothing moved', async () => {
    const offset = async () => (await t.request('GET', '/_sandbox/clock')).body.offset_seconds;
    const {
      res,
      calls,
      offset: reached,
    } = await advanceToTheBound('/_sandbox/clock/advance', offset);
    expect(calls).toBe(Math.floor(BOUND / YEAR));
    expect(res.status).toBe(400);
    expect(res.body.error_codes).toEqual(['validation_error']);
    const left = Math.floor(BOUND - reached);
    expect(res.body.errors.seconds).toEqual([
      `A clock can be at most ${MAX_CLOCK_AHEAD_YEARS} years ahead of real time: it can move at most ${left} more seconds (reset it to start over).`,
    ]);
    expect(await offset()).toBe(reached);
    // Up to the bound itself is allowed; then a reset starts over.
    expect(
      (await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: left } })).status,
    ).toBe(200);
    expect(
      (await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 1 } })).status,
    ).toBe(400);
    expect((await t.request('POST', '/_sandbox/clock/reset')).status).toBe(200);
    expect(
      (await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: YEAR } })).status,
    ).toBe(200);
  });

  it("a workspace clock: a century ahead of the sandbox's time at most; its snapshot there still restores", async () => {
    const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
    const path = `/_sandbox/workspaces/${ws.id}/clock`;
    const offset = async () => (await t.request('GET', path)).body.offset_seconds;
    const { res, calls, offset: reached } = await advanceToTheBound(`${path}/advance`, offset);
    expect(calls).toBe(Math.floor(BOUND / YEAR));
    expect(res.status).toBe(400);
    expect(res.body.errors.seconds[0]).toContain(`ahead of the sandbox's time`);
    expect(await offset()).toBe(reached);
    const snap = await t.request('POST', `/_sandbox/workspaces/${ws.id}/snapshots`);
    expect(snap.status, snap.text).toBe(201);
    const copy = await t.request('POST', '/_sandbox/workspaces', {
      body: { from_snapshot: snap.body.snapshot.id },
    });
    expect(copy.status, copy.text).toBe(201);
    // An unknown workspace is still a 404, whatever the seconds.
    const unknown = await t.request(
      'POST',
      `/_sandbox/workspaces/${'f'.repeat(32)}/clock/advance`,
      {
        body: { seconds: YEAR },
      },
    );
    expect(unknown.status).toBe(404);
  });
});
