import { allCases } from '../cases/index.js';
import type { ContractCase } from '../harness/case.context.js';
import { runCases, type CaseResult } from '../harness/case.runner.js';
import { createRecorder } from '../harness/drift.recorder.js';
import {
  buildDriftReport,
  renderDriftMarkdown,
  type DriftReport,
} from '../harness/drift.report.js';
import { contractSpec, createChecker } from '../harness/response.checker.js';
import type { Target } from '../harness/target.types.js';

export interface SuiteRun {
  results: CaseResult[];
  byName: Map<string, CaseResult>;
  report: DriftReport;
  markdown: string;
}

/** Run the whole suite against a target outside vitest's collection (the meta-tests), then close it. */
export async function runSuite(
  target: Target,
  cases: ContractCase[] = allCases,
): Promise<SuiteRun> {
  const contract = contractSpec();
  const recorder = createRecorder(createChecker(contract));
  try {
    const results = await runCases(cases, target, recorder);
    const report = buildDriftReport(contract.spec, recorder, target.info);
    return {
      results,
      byName: new Map(results.map((r) => [r.name, r])),
      report,
      markdown: renderDriftMarkdown(report),
    };
  } finally {
    await target.close();
  }
}
