import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedSpec } from '../../src/spec/load.js';
import type { Recorder } from './drift.recorder.js';
import type { FindingKind } from './response.checker.js';
import { documentedShape, responseSchema } from './schema.shape.js';
import type { TargetInfo } from './target.types.js';
import { itemAt } from '../../src/shared/defined.js';

export interface FindingSummary {
  kind: FindingKind;
  message: string;
  status: number;
  count: number;
  cases: string[];
}

export interface ShapeComparison {
  documented_required: string[];
  missing_required: string[];
  undocumented: string[];
  observed: string[];
}

/** Per operation: what the document says, what the cases expected, what the target answered. */
export interface OperationDrift {
  operation_id: string;
  method: string;
  path: string;
  documented_statuses: string[];
  expected_statuses: number[];
  observed_statuses: Record<string, number>;
  content_types: string[];
  findings: FindingSummary[];
  shapes: Record<string, ShapeComparison>;
  drift: boolean;
}

export interface DriftReport {
  generated_at: string;
  target: {
    kind: string;
    base_url: string;
    run_id: string;
    credentials: string;
    control_api: boolean;
  };
  summary: {
    responses: number;
    operations_exercised: number;
    operations_with_drift: number;
    not_exercised: string[];
  };
  operations: OperationDrift[];
}

/** Aggregate the observations of a run by operation. */
export function buildDriftReport(
  spec: LoadedSpec,
  recorder: Recorder,
  info: TargetInfo,
  now = new Date(),
): DriftReport {
  const groups = new Map<string, ReturnType<Recorder['all']>>();
  for (const o of recorder.all()) {
    const key = o.operationId ?? `${o.method} ${o.path}`;
    groups.set(key, [...(groups.get(key) ?? []), o]);
  }
  const operations: OperationDrift[] = [];
  for (const [key, list] of groups) {
    const first = itemAt(list, 0);
    const op = first.operationId ? spec.byId.get(first.operationId) : undefined;
    const observed: Record<string, number> = {};
    const findings = new Map<string, FindingSummary>();
    const shapes: Record<string, ShapeComparison> = {};
    for (const o of list) {
      observed[o.status] = (observed[o.status] ?? 0) + 1;
      for (const f of o.findings) {
        const id = `${f.kind} ${o.status} ${f.message}`;
        const s = findings.get(id) ?? {
          kind: f.kind,
          message: f.message,
          status: o.status,
          count: 0,
          cases: [],
        };
        s.count += 1;
        if (!s.cases.includes(o.caseName)) s.cases.push(o.caseName);
        findings.set(id, s);
      }
      if (op && o.shape.length) {
        const doc = documentedShape(spec, responseSchema(spec, op, o.status));
        const cmp = (shapes[o.status] ??= {
          documented_required: doc.required,
          missing_required: [],
          undocumented: [],
          observed: [],
        });
        const paths = o.shape.map((e) => e.slice(0, e.lastIndexOf(':')));
        for (const e of o.shape) if (!cmp.observed.includes(e)) cmp.observed.push(e);
        for (const r of doc.required)
          if (!paths.includes(r) && !cmp.missing_required.includes(r)) cmp.missing_required.push(r);
        for (const p of paths)
          if (doc.known.length && !doc.known.includes(p) && !cmp.undocumented.includes(p))
            cmp.undocumented.push(p);
      }
    }
    for (const s of Object.values(shapes)) s.observed.sort();
    operations.push({
      operation_id: key,
      method: first.method,
      path: first.path,
      documented_statuses: first.documentedStatuses,
      expected_statuses: first.operationId ? recorder.expectedStatuses(first.operationId) : [],
      observed_statuses: observed,
      content_types: [...new Set(list.map((o) => o.contentType ?? '(none)'))],
      findings: [...findings.values()],
      shapes,
      drift: findings.size > 0 || Object.values(shapes).some((s) => s.missing_required.length > 0),
    });
  }
  operations.sort(
    (a, b) => Number(b.drift) - Number(a.drift) || a.operation_id.localeCompare(b.operation_id),
  );
  const seen = new Set(operations.map((o) => o.operation_id));
  const publicOps = spec.operations.filter((o) => info.hasControl || !o.tags.includes('sandbox'));
  return {
    generated_at: now.toISOString(),
    target: {
      kind: info.kind,
      base_url: info.baseUrl,
      run_id: info.runId,
      credentials: info.credentialSource,
      control_api: info.hasControl,
    },
    summary: {
      responses: recorder.all().length,
      operations_exercised: operations.length,
      operations_with_drift: operations.filter((o) => o.drift).length,
      not_exercised: publicOps.filter((o) => !seen.has(o.operationId)).map((o) => o.operationId),
    },
    operations,
  };
}

const statuses = (o: OperationDrift) =>
  Object.entries(o.observed_statuses)
    .map(([s, n]) => `${s}×${n}`)
    .join(', ');

/** The report as markdown: a table of every operation, then one section per operation that drifted. */
export function renderDriftMarkdown(r: DriftReport): string {
  const lines = [
    '# Contract drift report',
    '',
    `Target: ${r.target.kind} ${r.target.base_url} (run ${r.target.run_id}, credentials from ${r.target.credentials}, control API ${r.target.control_api ? 'present' : 'absent'})`,
    `Generated ${r.generated_at}. ${r.summary.responses} responses, ${r.summary.operations_exercised} operations exercised, **${r.summary.operations_with_drift} with drift**.`,
    '',
    '| Operation | Documented | Expected by cases | Observed | Drift |',
    '|---|---|---|---|---|',
    ...r.operations.map(
      (o) =>
        `| ${o.operation_id} \`${o.method} ${o.path}\` | ${o.documented_statuses.join(', ') || '—'} | ${o.expected_statuses.join(', ') || '—'} | ${statuses(o)} | ${o.drift ? '**yes**' : 'no'} |`,
    ),
  ];
  if (r.summary.not_exercised.length)
    lines.push('', `Not exercised: ${r.summary.not_exercised.join(', ')}.`);
  for (const o of r.operations.filter((x) => x.drift)) {
    lines.push('', `## ${o.operation_id} — ${o.method} ${o.path}`, '');
    lines.push(
      `- documented statuses: ${o.documented_statuses.join(', ') || '—'}; expected by cases: ${o.expected_statuses.join(', ') || '—'}; observed: ${statuses(o)}`,
    );
    for (const f of o.findings)
      lines.push(
        `- [${f.kind}] (${f.status}, ${f.count}×) ${f.message} — cases: ${f.cases.map((c) => `"${c}"`).join(', ')}`,
      );
    for (const [status, s] of Object.entries(o.shapes)) {
      if (s.missing_required.length)
        lines.push(
          `- shape of ${status}: missing required ${s.missing_required.map((p) => `\`${p}\``).join(', ')}`,
        );
      if (s.undocumented.length)
        lines.push(
          `- shape of ${status}: undocumented fields ${s.undocumented.map((p) => `\`${p}\``).join(', ')}`,
        );
    }
  }
  return lines.join('\n') + '\n';
}

/** Write drift.md and drift.json into the reports directory. */
export function writeDriftReport(dir: string, report: DriftReport): { md: string; json: string } {
  mkdirSync(dir, { recursive: true });
  const md = join(dir, 'drift.md');
  const json = join(dir, 'drift.json');
  writeFileSync(md, renderDriftMarkdown(report));
  writeFileSync(json, JSON.stringify(report, null, 2) + '\n');
  return { md, json };
}
