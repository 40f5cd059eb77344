import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { compilePathGlob, MAX_GLOB_LENGTH, MAX_GLOB_WILDCARDS } from './path-glob.js';
import { errorCode } from '../testing/error-code.js';

let t: TestApp | undefined;
afterEach(() => t?.close());

/**
 * The regex reading of the glob semantics (docs/faults.md#path-globs), the reference for short inputs:
 * `/**` as a whole segment is `(/.*)?`, a leading `**` segment is `.*`, any other run of stars is `[^/]*`,
 * and trailing slashes are optional on both sides.
 */
function reference(glob: string): (path: string) => boolean {
  const trim = (p: string) => (p.length > 1 ? p.replace(/\/+$/, '') : p);
  const source = trim(glob).replace(
    /(^|\/)(\*{2,})(?=\/|$)|\*+|[^*]/g,
    (m, pre: string | undefined, stars?: string) => {
      if (stars !== undefined) return pre === '/' ? '(?:/.*)?' : '.*';
      return m.startsWith('*') ? '[^/]*' : m.replace(/[.+?^${}()|[\]\\/]/g, '\\$&');
    },
  );
  const re = new RegExp(`^${source}$`);
  return (path) => re.test(trim(path)) || (trim(path) !== '/' && re.test(trim(path) + '/'));
}

/** The documented table (docs/faults.md#path-globs): glob, path, matches. */
const TABLE: Array<[string, string, boolean]> = [
  ['/v3/invoices/**', '/v3/invoices/', true],
  ['/v3/invoices/**', '/v3/invoices', true],
  ['/v3/invoices/**', '/v3/invoices/abc', true],
  ['/v3/invoices/**', '/v3/invoices/abc/x', true],
  ['/v3/invoices/**', '/v3/invoicesX', false],
  ['/v3/invoices/*', '/v3/invoices/', true],
  ['/v3/invoices/*', '/v3/invoices', true],
  ['/v3/invoices/*', '/v3/invoices/abc', true],
  ['/v3/invoices/*', '/v3/invoices/abc/', true],
  ['/v3/invoices/*', '/v3/invoices/abc/x', false],
  ['/v3/invoices', '/v3/invoices/', true],
  ['/v3/invoices/', '/v3/invoices', true],
  ['/v3/invoices', '/v3/invoices/abc', false],
  ['/v3/invoices**', '/v3/invoices', true],
  ['/v3/invoices**', '/v3/invoicesX', true],
  ['/v3/invoices**', '/v3/invoices/abc', false],
  ['/payment/**/status', '/payment/status', true],
  ['/payment/**/status', '/payment/invoice/abc/status', true],
  ['/payment/**/status', '/payment/invoice/abc/status/x', false],
  ['/payment/invoice/*/status', '/payment/invoice/abc/status', true],
  ['/payment/invoice/*/status', '/payment/invoice/status', false],
  ['/v3/**/callbacks', '/v3/callbacks', true],
  ['/v3/**/callbacks', '/v3/invoices/abc/callbacks', true],
  ['/v3/**/callbacks', '/v3/invoices/abc/callbacks/x', false],
  ['/**', '/', true],
  ['/**', '/anything/at/all', true],
  ['**/callbacks', '/v1/invoices/x/callbacks', true],
  ['/v1/invoices/*/callbacks', '/v1/invoices/abc/callbacks', true],
  ['/v1/invoices/*/callbacks', '/v1/invoices/callbacks', false],
  ['/v1/*', '/v3/invoices', false],
  ['/v1/a.b(c)', '/v1/aXb(c)', false],
  ['/v1/a.b(c)', '/v1/a.b(c)', true],
];

describe('path glob semantics (picomatch / .gitignore-like)', () => {
  it.each(TABLE)('%s ~ %s → %s', (glob, path, expected) => {
    expect(compilePathGlob(glob).test(path)).toBe(expected);
    expect(reference(glob)(path), 'the reference agrees with the table').toBe(expected);
  });
});

/** The globs of the table in docs/faults.md, with what it says each matches and does not. */
function docsTable(): Array<{ glob: string; matches: string[]; misses: string[] }> {
  const md = readFileSync(new URL('../../docs/faults.md', import.meta.url), 'utf8');
  const cells = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
  return md
    .split('\n')
    .filter((line) => /^\| `/.test(line))
    .map((line) => line.split('|'))
    .map(([, glob = '', matches = '', misses = '']) => ({
      glob: cells(glob)[0] ?? '',
      matches: cells(matches),
      misses: cells(misses),
    }));
}

describe('the table of docs/faults.md', () => {
  const rows = docsTable();
  it('is there', () => expect(rows.length).toBeGreaterThanOrEqual(7));
  it.each(rows)(
    '$glob: matches and misses what the table says, and the API accepts it',
    async (row) => {
      const glob = compilePathGlob(row.glob);
      for (const p of row.matches) expect(glob.test(p), p).toBe(true);
      for (const p of row.misses) expect(glob.test(p), p).toBe(false);
      t = createTestApp();
      const res = await t.request('POST', '/_sandbox/faults', { body: { path: row.glob } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    },
  );
});

describe('path globs in linear time', () => {
  it('agrees with the regex reading of the semantics on short paths', () => {
    const glob = fc
      .array(fc.constantFrom('/', 'a', 'b', '.', '*', '**'), { maxLength: 8 })
      .map((p) => p.join(''));
    const path = fc
      .array(fc.constantFrom('/', 'a', 'b', '.'), { maxLength: 12 })
      .map((p) => '/' + p.join(''));
    fc.assert(
      fc.property(glob, path, (g, p) => {
        expect(compilePathGlob(g).test(p), `${g} ~ ${p}`).toBe(reference(g)(p));
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

  it('trims a megabyte of slashes that do not end the path (`/\\/+$/` was quadratic on them)', () => {
    const slashes = '/'.repeat(1024 * 1024);
    const matcher = compilePathGlob('/v1/invoices/**');
    expect(matcher.test(`/v1/invoices${slashes}`)).toBe(true);
    expect(matcher.test(`/v1/invoices${slashes}x`)).toBe(true);
    expect(compilePathGlob('/v1/invoices').test(`/v1/invoices${slashes}`)).toBe(true);
    expect(compilePathGlob('/v1/invoices').test(`/v1/invoices${slashes}x`)).toBe(false);
  });

  it('a fault with that glob leaves the server answering every request', async () => {
    t = createTestApp();
    const glob = '/**/' + '*a'.repeat(MAX_GLOB_WILDCARDS - 1) + 'b';
    expect(
      (await t.request('POST', '/_sandbox/faults', { body: { path: glob, status: 503 } })).status,
    ).toBe(201);
    const long = await t.request('GET', '/' + 'a'.repeat(6000), { operationId: false });
    expect(long.status).toBe(404);
    const hit = await t.request('GET', '/' + 'a'.repeat(6000) + 'b', { operationId: false });
    expect(hit.status).toBe(503);
    expect(errorCode(hit.body)).toBe('injected_fault');
  });

  it('refuses a glob that is too long or has too many wildcards, with a 400 on `path`', async () => {
    t = createTestApp();
    const many = await t.request('POST', '/_sandbox/faults', {
      body: { path: '/' + '*a'.repeat(MAX_GLOB_WILDCARDS + 1) },
    });
    expect(many.status).toBe(400);
    expect(many.body.errors.path[0]).toMatch(/at most 16 wildcards/);
    const long = await t.request('POST', '/_sandbox/faults', {
      body: { path: '/' + 'a'.repeat(MAX_GLOB_LENGTH) },
    });
    expect(long.status).toBe(400);
    expect(long.body.errors.path).toHaveLength(1);
    expect((await t.request('GET', '/_sandbox/faults')).body.faults).toEqual([]);
  });
});
