import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { required } from '../shared/defined.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { exportedScenario, rowCounts } from './snapshot.test-support.js';

/**
 * Test support for the import's refusals (snapshot-import-refusals.test.ts,
 * snapshot-import-field-rules.test.ts): a copy of an export is spoilt one way per test.
 */

// Real time stands still (the sandbox clock moves by its offset only): two copies restored and read one
// after the other count the same seconds left and the same order times.
const NOW_MS = Date.parse('2026-11-20T09:00:00.000Z');

/** A bad document: what it is, the field the 400 names, and how to spoil a copy of the export. */
export type Spoilt<D> = [string, string, (d: D) => void];

/**
 * For the calling test file: the export of buildScenario's workspace, made once from a sandbox of its own
 * (as a team's committed scenario file is), and a fresh test app before each test, handed to `use`, to
 * import a copy of it into.
 */
export function importPerTest(use: (t: TestApp) => void) {
  let doc: unknown;
  let app: TestApp | undefined;
  beforeAll(async () => {
    doc = await exportedScenario(NOW_MS);
  });
  beforeEach(() => {
    app = createTestApp({ realNowMs: () => NOW_MS });
    use(app);
  });
  afterEach(() => app?.close());
  const current = () => required(app, 'the test app (made before each test)');
  /** A fresh copy of the exported document, to spoil. */
  const copy = (): unknown => JSON.parse(JSON.stringify(doc));
  const importing = (body: unknown) => current().request('POST', '/_sandbox/snapshots', { body });
  /** A test for each case: the spoilt copy is a 400 naming its field, and nothing changes. */
  const refuses = <D>(cases: Array<Spoilt<D>>) => {
    for (const [what, field, spoil] of cases) {
      it(`${what}: 400 naming ${field}, and nothing changes`, async () => {
        const bad = copy() as D;
        spoil(bad);
        const before = rowCounts(current());
        const res = await importing(bad);
        expect(res.status, res.text).toBe(400);
        expect(res.body.error_codes).toEqual(['validation_error']);
        expect(Object.keys(res.body.errors), res.text).toContain(field);
        expect(rowCounts(current())).toEqual(before);
      });
    }
  };
  return { copy, importing, refuses };
}
