/**
 * The contract suite. Against the sandbox started in-process by default, or against
 * CONTRACT_BASE_URL with CONTRACT_* credentials (docs/contract-tests.md) after the preflight
 * (harness/preflight.setup.ts). Every response is checked against openapi/openapi.yaml; a case
 * skipped because of the target says why in its name, one skipped at run time in its note.
 */
import { afterAll, describe, inject, it } from 'vitest';
import { allCases, areaOf, caseGroups } from './cases/index.js';
import { ContractFailure } from './harness/case.context.js';
import { CASE_TIMEOUT_MS, runCase, skipReason, type CaseResult } from './harness/case.runner.js';
import { createRecorder } from './harness/drift.recorder.js';
import { buildDriftReport, writeDriftReport } from './harness/drift.report.js';
import { writeJunit } from './harness/junit.report.js';
import { contractSpec, createChecker } from './harness/response.checker.js';
import { renderSummary, reportsDir, summarize, writeSummary } from './harness/run.summary.js';
import { createTargetFromEnv } from './harness/url.target.js';

const started = performance.now();
const target = await createTargetFromEnv(process.env, {
  nonceFloor: inject('contractNonceFloor') || undefined,
});
const contract = contractSpec();
const recorder = createRecorder(
  createChecker(contract, new URL(target.info.baseUrl).pathname.replace(/\/$/, '')),
);
const results: CaseResult[] = [];

afterAll(async () => {
  await target.close();
  const drift = buildDriftReport(contract.spec, recorder, target.info);
  const dir = reportsDir();
  const reports: string[] = [];
  if (target.info.kind !== 'sandbox') {
    const { md, json } = writeDriftReport(dir, drift);
    reports.push(md, json);
  }
  reports.push(
    writeJunit(dir, { target: target.info, results, areaOf, areas: caseGroups.map((g) => g.area) }),
  );
  const summary = summarize(
    allCases,
    results,
    target.info,
    performance.now() - started,
    drift,
    reports,
  );
  reports.push(writeSummary(dir, summary));
  console.log(renderSummary(summary));
});

for (const group of caseGroups) {
  describe(group.area, () => {
    for (const c of group.cases) {
      const reason = skipReason(c, target);
      if (reason)
        results.push({
          name: c.name,
          tags: c.tags,
          state: 'skip',
          message: reason,
          notImplemented: [],
          durationMs: 0,
        });
      const title = reason ? `${c.name} — skipped on this target: ${reason}` : c.name;
      it.skipIf(Boolean(reason))(
        title,
        { tags: c.tags, timeout: CASE_TIMEOUT_MS + 5_000 },
        async (test) => {
          const result = await runCase(c, target, recorder);
          results.push(result);
          if (result.state === 'skip') test.skip(result.message);
          if (result.state === 'fail') throw new ContractFailure(result.message);
        },
      );
    }
  });
}
