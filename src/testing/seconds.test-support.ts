import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

/**
 * A time the sandbox wrote in whole seconds (`canceled_time`, `marked_paid_time`) while `act` ran: it
 * lies between the clock's second before and after it. Comparing with one reading taken afterwards
 * fails whenever a second ticks over between the write and the reading (a busy machine makes that
 * common), so the answer is checked against both ends.
 */
export async function expectSecondsDuring<T>(
  t: TestApp,
  act: () => Promise<T>,
  written: (result: T) => unknown,
): Promise<T> {
  const second = () => Math.floor(t.services.clock.now() / 1_000_000);
  const from = second();
  const result = await act();
  const to = second();
  const value = Number(written(result));
  expect(value, `a second between ${from} and ${to}`).toBeGreaterThanOrEqual(from);
  expect(value, `a second between ${from} and ${to}`).toBeLessThanOrEqual(to);
  return result;
}
