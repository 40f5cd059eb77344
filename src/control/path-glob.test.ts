import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { compilePathGlob, MAX_GLOB_LENGTH, MAX_GLOB_WILDCARDS } from './path-glob.js';
import { errorCode } from '../testing/error-code.js';

let t: TestApp | undefined;
afterEach(() => t?.close());

/** The regex reading of a glob (what faults used before): the reference for short inputs. */
function reference(glob: string): RegExp {
  const source = glob
    .split(/(\*\*|\*)/)
    .map((part) => (part === '**' ? '.*' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

describe('path globs in linear time', () => {
  it('agrees with the regex reading of globs on short paths', () => {
    const glob = fc.array(fc.constantFrom('/', 'a', 'b', '.', '*', '**'), { maxLength: 8 }).map((p) => p.join(''));
    const path = fc.array(fc.constantFrom('/', 'a', 'b', '.'), { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(glob, path, (g, p) => {
        expect(compilePathGlob(g).test(p), `${g} ~ ${p}`).toBe(reference(g).test(p));
      }),
      { seed: 11, numRuns: 3000 },
    );
  });

  it('answers the worst case of a backtracking regex (`/*a*a…*ab` on a long path of `a`)', () => {
    const glob = '/' + '*a'.repeat(MAX_GLOB_WILDCARDS) + 'b';
    const matcher = compilePathGlob(glob);
    // A regex needs about n^16 steps here; this returns after 16 × n.
    for (let i = 0; i < 20; i++) {
      expect(matcher.test('/' + 'a'.repeat(8000))).toBe(false);
      expect(matcher.test('/' + 'a'.repeat(8000) + 'b')).toBe(true);
    }
  });

  it('a fault with that glob leaves the server answering every request', async () => {
    t = createTestApp();
    const glob = '/' + '*a'.repeat(MAX_GLOB_WILDCARDS) + 'b';
    expect((await t.request('POST', '/_sandbox/faults', { body: { path: glob, status: 503 } })).status).toBe(201);
    const long = await t.request('GET', '/' + 'a'.repeat(6000), { operationId: false });
    expect(long.status).toBe(404);
    const hit = await t.request('GET', '/' + 'a'.repeat(6000) + 'b', { operationId: false });
    expect(hit.status).toBe(503);
    expect(errorCode(hit.body)).toBe('injected_fault');
  });

  it('refuses a glob that is too long or has too many wildcards, with a 400 on `path`', async () => {
    t = createTestApp();
    const many = await t.request('POST', '/_sandbox/faults', { body: { path: '/' + '*a'.repeat(MAX_GLOB_WILDCARDS + 1) } });
    expect(many.status).toBe(400);
    expect(many.body.errors.path[0]).toMatch(/at most 16 wildcards/);
    const long = await t.request('POST', '/_sandbox/faults', { body: { path: '/' + 'a'.repeat(MAX_GLOB_LENGTH) } });
    expect(long.status).toBe(400);
    expect(long.body.errors.path).toHaveLength(1);
    expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
  });
});
