import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaseResult } from './case.runner.js';
import type { TargetInfo } from './target.types.js';
import { xml } from '../../src/cli/contract.reports.js';
import { itemAt } from '../../src/shared/defined.js';

/**
 * The suite's own JUnit file: one `classname` per area (auth, invoices, paging, …) and each case's
 * own name as the test name, so a CI test view groups by area and every line reads on its own.
 * (vitest's reporter would use the file name as classname for all of them.)
 */
const seconds = (ms: number) => (ms / 1000).toFixed(3);

export interface JunitInput {
  target: TargetInfo;
  results: CaseResult[];
  /** Area of each case name. */
  areaOf: ReadonlyMap<string, string>;
  /** Areas in the order the suite runs them. */
  areas: readonly string[];
}

export function renderJunit({ target, results, areaOf, areas }: JunitInput): string {
  const byArea = new Map<string, CaseResult[]>(areas.map((a) => [a, []]));
  for (const r of results) {
    const area = areaOf.get(r.name) ?? 'other';
    const list = byArea.get(area);
    if (list) list.push(r);
    else byArea.set(area, [r]);
  }
  const count = (rs: CaseResult[], state: CaseResult['state']) =>
    rs.filter((r) => r.state === state).length;
  const total = (rs: CaseResult[]) => rs.reduce((t, r) => t + r.durationMs, 0);
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${xml(`paysandbox contract ${target.kind} ${target.baseUrl}`)}" tests="${results.length}" failures="${count(results, 'fail')}" skipped="${count(results, 'skip')}" errors="0" time="${seconds(total(results))}">`,
  ];
  for (const [area, rs] of byArea) {
    if (rs.length === 0) continue;
    lines.push(
      `  <testsuite name="${xml(area)}" tests="${rs.length}" failures="${count(rs, 'fail')}" skipped="${count(rs, 'skip')}" errors="0" time="${seconds(total(rs))}">`,
    );
    for (const r of rs) {
      const open = `    <testcase classname="${xml(area)}" name="${xml(r.name)}" time="${seconds(r.durationMs)}"`;
      if (r.state === 'pass') lines.push(`${open}/>`);
      else if (r.state === 'skip')
        lines.push(
          `${open}>`,
          `      <skipped message="${xml(r.message ?? '')}"/>`,
          '    </testcase>',
        );
      else {
        const message = r.message ?? 'failed';
        lines.push(
          `${open}>`,
          `      <failure message="${xml(itemAt(message.split('\n'), 0))}" type="ContractFailure">${xml(message)}</failure>`,
          '    </testcase>',
        );
      }
    }
    lines.push('  </testsuite>');
  }
  lines.push('</testsuites>');
  return lines.join('\n') + '\n';
}

export function writeJunit(dir: string, input: JunitInput): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'junit.xml');
  writeFileSync(file, renderJunit(input));
  return file;
}
