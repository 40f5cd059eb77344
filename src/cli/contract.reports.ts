import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Every file a contract run writes into its reports directory (docs/contract-tests.md#reports). */
export const REPORT_FILES = ['junit.xml', 'summary.json', 'drift.md', 'drift.json'] as const;

/**
 * Where a run's reports go: `--reports DIR`, else CONTRACT_REPORTS_DIR, else
 * `contract-tests/reports` — each relative to the caller's working directory, never to the installed
 * package (which may sit in node_modules, where CI never looks).
 */
export function contractReportsDir(
  flag: string | undefined,
  env: Record<string, string | undefined>,
  cwd = process.cwd(),
): string {
  return resolve(cwd, flag || env.CONTRACT_REPORTS_DIR || join('contract-tests', 'reports'));
}

/** Remove the reports of an earlier run, so that none of them ever passes for this run's. */
export function clearReports(dir: string): void {
  for (const name of REPORT_FILES) rmSync(join(dir, name), { force: true });
}

/** Text as XML 1.0 attribute or element content: what it cannot carry dropped, the rest escaped. */
export const xml = (s: string) =>
  s
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/**
 * The JUnit file of a run stopped before any case (usage, configuration or preflight): one failing
 * test case, `preflight`, carrying the one-line reason, so that a CI test view shows why nothing ran
 * (instead of an old file, or none). `target` is the base URL, or undefined for the in-process sandbox.
 */
export function renderStoppedJunit(target: string | undefined, line: string): string {
  const name = target ? `url ${target}` : 'sandbox in-process';
  return (
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="${xml(`paysandbox contract ${name}`)}" tests="1" failures="1" skipped="0" errors="0" time="0.000">`,
      '  <testsuite name="preflight" tests="1" failures="1" skipped="0" errors="0" time="0.000">',
      `    <testcase classname="preflight" name="${xml(`preflight of ${target ?? 'the in-process sandbox'}`)}" time="0.000">`,
      `      <failure message="${xml(line)}" type="PreflightFailure">${xml(line)}</failure>`,
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
    ].join('\n') + '\n'
  );
}

/** Write that JUnit file into `dir` (created when missing); its path. */
export function writeStoppedJunit(dir: string, target: string | undefined, line: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'junit.xml');
  writeFileSync(file, renderStoppedJunit(target, line));
  return file;
}
