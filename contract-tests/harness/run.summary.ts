import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ContractCase } from './case.context.js';
import type { CaseResult } from './case.runner.js';
import type { DriftReport } from './drift.report.js';
import { TAGS, type TargetInfo } from './target.types.js';

/**
 * CONTRACT_REPORTS_DIR (`paysandbox contract` always sets it, from the caller's working directory),
 * else contract-tests/reports of this checkout (`npm run contract`).
 */
export function reportsDir(env: Record<string, string | undefined> = process.env): string {
  return env.CONTRACT_REPORTS_DIR || join(dirname(fileURLToPath(import.meta.url)), '..', 'reports');
}

export interface RunSummary {
  target: TargetInfo;
  durationMs: number;
  cases: number;
  byTag: Record<string, number>;
  /** Cases left out by a tags filter (`--tags-filter`). */
  notSelected: number;
  passed: number;
  failed: number;
  skipped: Array<{ name: string; reason: string }>;
  /** Cases that failed while an operation answered 501 not_implemented, with those operations. */
  failedOn501: Array<{ name: string; operations: string[] }>;
  failedOther: string[];
  driftOperations: string[];
  reports: string[];
}

export function summarize(
  cases: ContractCase[],
  results: CaseResult[],
  info: TargetInfo,
  durationMs: number,
  drift: DriftReport,
  reports: string[],
): RunSummary {
  const byTag = Object.fromEntries(
    TAGS.map((t) => [t, cases.filter((c) => c.tags.includes(t)).length]),
  );
  const failed = results.filter((r) => r.state === 'fail');
  return {
    target: info,
    durationMs: Math.round(durationMs),
    cases: cases.length,
    byTag,
    notSelected: cases.length - results.length,
    passed: results.filter((r) => r.state === 'pass').length,
    failed: failed.length,
    skipped: results
      .filter((r) => r.state === 'skip')
      .map((r) => ({ name: r.name, reason: r.message ?? '' })),
    failedOn501: failed
      .filter((r) => r.notImplemented.length)
      .map((r) => ({ name: r.name, operations: r.notImplemented })),
    failedOther: failed.filter((r) => !r.notImplemented.length).map((r) => r.name),
    driftOperations: drift.operations.filter((o) => o.drift).map((o) => o.operation_id),
    reports,
  };
}

/** The human summary printed at the end of a run. */
export function renderSummary(s: RunSummary): string {
  const t = s.target;
  const lines = [
    '',
    `── paysandbox contract suite ─ ${t.kind} ${t.baseUrl} (run ${t.runId}; credentials: ${t.credentialSource}; control API: ${t.hasControl ? 'present' : 'absent'})`,
    `   ${s.cases} cases (${Object.entries(s.byTag)
      .map(([k, v]) => `${k} ${v}`)
      .join(
        ', ',
      )}): ${s.passed} passed, ${s.failed} failed, ${s.skipped.length} skipped${s.notSelected ? `, ${s.notSelected} not selected by the tags filter` : ''} in ${(s.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const k of s.skipped) lines.push(`   skipped  ${k.name} — ${k.reason}`);
  for (const f of s.failedOn501)
    lines.push(`   501      ${f.name} — not implemented yet: ${f.operations.join(', ')}`);
  for (const f of s.failedOther) lines.push(`   FAILED   ${f}`);
  if (s.driftOperations.length)
    lines.push(
      `   drift in ${s.driftOperations.length} operation(s): ${s.driftOperations.join(', ')}`,
    );
  for (const r of s.reports) lines.push(`   report   ${r}`);
  return lines.join('\n');
}

export function writeSummary(dir: string, s: RunSummary): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'summary.json');
  writeFileSync(file, JSON.stringify(s, null, 2) + '\n');
  return file;
}
