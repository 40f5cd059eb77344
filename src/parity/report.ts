import type { EntryResult, EntryStatus } from './run.js';

export interface Tally {
  name: string;
  matched: number;
  total: number;
  gaps: number;
  unexplained: number;
  skipped: number;
}

/** An entry counts as matched when nothing differs or every difference is an accepted deviation. */
export const isMatched = (s: EntryStatus) => s === 'match' || s === 'accepted';

/** Entries matched / total, per family (the HAR file) or per operation. */
export function tally(results: EntryResult[], by: (r: EntryResult) => string): Tally[] {
  const rows = new Map<string, Tally>();
  for (const r of results) {
    const name = by(r);
    const t = rows.get(name) ?? { name, matched: 0, total: 0, gaps: 0, unexplained: 0, skipped: 0 };
    if (r.status === 'skipped') t.skipped++;
    else {
      t.total++;
      if (isMatched(r.status)) t.matched++;
      if (r.status === 'gap') t.gaps++;
      if (r.status === 'unexplained' || r.status === 'error') t.unexplained++;
    }
    rows.set(name, t);
  }
  return [...rows.values()].sort((a, b) => a.name.localeCompare(b.name));
}

export const operationName = (r: EntryResult) =>
  r.operationId ?? `(none) ${r.method} ${new URL(r.url.replace(/[{}]/g, '')).pathname}`;

export function totals(results: EntryResult[]): Tally {
  return (
    tally(results, () => 'total')[0] ?? {
      name: 'total',
      matched: 0,
      total: 0,
      gaps: 0,
      unexplained: 0,
      skipped: 0,
    }
  );
}

const MARK: Record<string, string> = {
  accepted: 'accepted',
  gap: 'gap',
  unexplained: 'UNEXPLAINED',
};

/** How the answers compared are named: ours (parity), the target's (replay, another service). */
const labels = (replay?: boolean) =>
  replay
    ? { them: 'target', answer: "the target's answer" }
    : { them: 'ours', answer: 'our answer' };

/**
 * The text report: one block per entry that differs, then the table per operation and the totals.
 * `replay`: the answers are the target's (not ours), and skipped entries are listed with their reason.
 */
export function textReport(
  results: EntryResult[],
  opts: { all?: boolean; replay?: boolean } = {},
): string {
  const { them, answer } = labels(opts.replay);
  const lines: string[] = [];
  for (const r of results) {
    if (!opts.all && (r.status === 'match' || (r.status === 'skipped' && !opts.replay))) continue;
    lines.push(
      `${r.key}  ${r.method} ${r.url}  → ${r.operationId ?? 'no operation'}  [${r.status}]${r.note ? `  ${r.note}` : ''}`,
    );
    for (const d of r.differences) {
      lines.push(
        `    ${MARK[d.verdict]!.padEnd(11)} ${d.kind.padEnd(7)} ${(d.path || '(body)').padEnd(40)} recorded ${d.recorded}; ${them} ${d.ours}`,
      );
    }
    if (r.ours !== undefined) lines.push(`    ${answer}: ${r.ours}`);
  }
  const table = tally(results, operationName);
  const w = Math.max(9, ...table.map((t) => t.name.length));
  lines.push('', `${'operation'.padEnd(w)}  matched  gaps  unexplained  skipped`);
  for (const t of [...table, totals(results)]) {
    lines.push(
      `${t.name.padEnd(w)}  ${`${t.matched}/${t.total}`.padEnd(7)}  ${String(t.gaps).padEnd(4)}  ${String(t.unexplained).padEnd(11)}  ${t.skipped}`,
    );
  }
  return lines.join('\n');
}

const xml = (s: string) =>
  s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);

/** JUnit XML: one test case per entry; an unexplained difference is a failure, a skipped entry is skipped. */
export function junitReport(
  results: EntryResult[],
  command: 'parity' | 'replay' = 'parity',
): string {
  const failures = results.filter((r) => r.status === 'unexplained' || r.status === 'error').length;
  const skipped = results.filter((r) => r.status === 'skipped').length;
  const cases = results.map((r) => {
    const name = `${r.key} ${r.method} ${r.url}`;
    const open = `  <testcase classname="${command}.${xml(r.family)}" name="${xml(name)}">`;
    if (r.status === 'skipped')
      return `${open}<skipped message="${xml(r.note ?? '')}"/></testcase>`;
    if (r.status !== 'unexplained' && r.status !== 'error') return `${open}</testcase>`;
    const { them, answer } = labels(command === 'replay');
    const detail = r.differences
      .filter((d) => d.verdict === 'unexplained')
      .map((d) => `${d.kind} ${d.path}: recorded ${d.recorded}; ${them} ${d.ours}`)
      .concat(r.ours !== undefined ? [`${answer}: ${r.ours}`] : []);
    return `${open}<failure message="${xml(r.note ?? `${detail.length} unexplained difference(s)`)}">${xml(detail.join('\n'))}</failure></testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="paysandbox ${command}" tests="${results.length}" failures="${failures}" skipped="${skipped}">`,
    `<testsuite name="${command}" tests="${results.length}" failures="${failures}" skipped="${skipped}">`,
    ...cases,
    '</testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
