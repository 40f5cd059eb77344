/**
 * Acceptance: THE SUITE CATCHES DRIFT. The whole suite runs against the sandbox as it is, then again
 * once per injected deviation (a test-only fetch wrapper that rewrites real responses). Each deviation
 * must make a case that passed fail, with a drift entry that says what is wrong.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCases } from '../cases/index.js';
import { reportsDir } from '../harness/run.summary.js';
import { createSandboxTarget } from '../harness/sandbox.target.js';
import { deviationFetch, deviations } from './deviations.js';
import { runSuite, type SuiteRun } from './suite.runner.js';

let baseline: SuiteRun;
const evidence: string[] = ['# Drift the suite catches (meta-test evidence)', ''];

beforeAll(async () => {
  baseline = await runSuite(await createSandboxTarget());
}, 180_000);

afterAll(() => {
  const dir = reportsDir();
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'meta-drift.md'), evidence.join('\n') + '\n');
});

describe('the contract suite catches drift', () => {
  it('has a baseline: on the sandbox as it is, no case is skipped and most pass', () => {
    expect(baseline.results.filter((r) => r.state === 'skip')).toEqual([]);
    expect(baseline.results.filter((r) => r.state === 'pass').length).toBeGreaterThan(
      allCases.length / 2,
    );
  });

  for (const d of deviations) {
    it(`fails with a readable drift entry when the target answers with: ${d.name}`, async () => {
      const run = await runSuite(await createSandboxTarget({ fetch: deviationFetch(d) }));
      const newlyFailing = run.results.filter(
        (r) => r.state === 'fail' && baseline.byName.get(r.name)?.state === 'pass',
      );
      expect(
        newlyFailing.map((r) => r.name),
        'cases that pass on the sandbox and fail under the deviation',
      ).not.toEqual([]);
      const explained = newlyFailing.filter((r) => d.expect.test(r.message ?? ''));
      const messages = newlyFailing.map((r) => `${r.name}\n${r.message}`).join('\n---\n');
      expect(
        explained.length,
        `no failure says ${d.expect}; failures were:\n${messages.slice(0, 4000)}`,
      ).toBeGreaterThan(0);
      expect(run.report.summary.operations_with_drift).toBeGreaterThan(0);
      expect(run.markdown).toMatch(d.expect);
      evidence.push(
        `## ${d.name}`,
        '',
        `${newlyFailing.length} case(s) fail that pass on the sandbox; ${run.report.summary.operations_with_drift} operation(s) with drift. First entry:`,
        '',
        '```',
        explained[0]!.name,
        explained[0]!.message!.split('\n').slice(0, 12).join('\n'),
        '```',
        '',
      );
    }, 180_000);
  }
});
