import { relative } from 'node:path';
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * The contract run's console: one line per case as it finishes (also in CI logs, where vitest's
 * default reporter shows a file only once it is done), the failure's drift entry under a failed case,
 * the skip reason under a skipped one, then the suite's own summary. Colors only on a terminal
 * (and never with NO_COLOR); plain text when piped.
 */
export function useColor(
  stream: { isTTY?: boolean },
  env: Record<string, string | undefined> = process.env,
): boolean {
  if ('NO_COLOR' in env) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0';
  return Boolean(stream.isTTY) && env.TERM !== 'dumb';
}

const SKIPPED_ON_TARGET = ' — skipped on this target: ';
/** Lines of a failure message shown under the case (the rest is in junit.xml and drift.md). */
const MAX_FAILURE_LINES = 14;

export interface ProgressLine {
  state: 'pass' | 'fail' | 'skip';
  area: string;
  name: string;
  durationMs?: number;
  detail?: string;
}

/** `  pass  auth  merchant auth: …  (12 ms)` with the reason or the failure indented below. */
export function formatProgress(line: ProgressLine, color: boolean): string {
  const paint = (code: number, s: string) => (color ? `\u001b[${code}m${s}\u001b[39m` : s);
  const dim = (s: string) => (color ? `\u001b[2m${s}\u001b[22m` : s);
  const label = { pass: paint(32, 'pass'), fail: paint(31, 'FAIL'), skip: paint(33, 'skip') }[
    line.state
  ];
  const time =
    line.durationMs !== undefined && line.state !== 'skip'
      ? dim(`  (${Math.round(line.durationMs)} ms)`)
      : '';
  const out = [`  ${label}  ${dim(line.area)}  ${line.name}${time}`];
  if (line.detail) {
    const lines = line.detail.split('\n');
    const shown = lines.slice(0, MAX_FAILURE_LINES);
    if (lines.length > shown.length)
      shown.push(`… ${lines.length - shown.length} more lines in the reports`);
    out.push(...shown.map((l) => `        ${line.state === 'skip' ? l : dim(l)}`));
  }
  return out.join('\n');
}

export default class ProgressReporter implements Reporter {
  private readonly color: boolean;
  private readonly write: (s: string) => void;
  private readonly counts = { pass: 0, fail: 0, skip: 0, notSelected: 0 };
  private started = Date.now();
  private root = process.cwd();

  constructor(opts: { write?: (s: string) => void; color?: boolean } = {}) {
    this.write = opts.write ?? ((s) => void process.stdout.write(s));
    this.color = opts.color ?? useColor(process.stdout);
  }

  onInit(vitest: { config: { root: string } }): void {
    this.root = vitest.config.root;
    this.started = Date.now();
  }

  onTestModuleStart(module: TestModule): void {
    this.write(`${relative(this.root, module.moduleId)}\n`);
  }

  onTestCaseResult(test: TestCase): void {
    const result = test.result();
    if (result.state !== 'failed') this.takeLogs(test.id);
    const area =
      test.parent.type === 'suite' ? test.parent.name : relative(this.root, test.module.moduleId);
    const durationMs = test.diagnostic()?.duration;
    if (result.state === 'passed') {
      this.counts.pass++;
      this.write(
        formatProgress({ state: 'pass', area, name: test.name, durationMs }, this.color) + '\n',
      );
    } else if (result.state === 'failed') {
      this.counts.fail++;
      const detail = result.errors
        .map((e) =>
          e.name === 'ContractFailure' ? e.message : (e.stack ?? `${e.name}: ${e.message}`),
        )
        .join('\n');
      this.write(
        formatProgress({ state: 'fail', area, name: test.name, durationMs, detail }, this.color) +
          '\n',
      );
      for (const t of this.takeLogs(test.id)) this.write(t.replace(/^/gm, '        '));
    } else if (result.state === 'skipped') {
      const at = test.name.indexOf(SKIPPED_ON_TARGET);
      const reason =
        result.note ?? (at >= 0 ? test.name.slice(at + SKIPPED_ON_TARGET.length) : undefined);
      // Left out by a tags filter: not part of this run, so no line for it.
      if (!reason) return void this.counts.notSelected++;
      this.counts.skip++;
      const name = at >= 0 ? test.name.slice(0, at) : test.name;
      this.write(formatProgress({ state: 'skip', area, name, detail: reason }, this.color) + '\n');
    }
  }

  // Console output, by the task that printed it. A file's own output (the suite's summary, printed by
  // its afterAll) comes after its cases — vitest reports results in batches, so the last case's line
  // could otherwise follow the summary. A test's output is shown only when the test failed.
  private readonly logs = new Map<string, string[]>();

  onUserConsoleLog(log: { content: string; taskId?: string }): void {
    const text = log.content.endsWith('\n') ? log.content : `${log.content}\n`;
    if (!log.taskId) return this.write(text);
    this.logs.set(log.taskId, [...(this.logs.get(log.taskId) ?? []), text]);
  }

  private takeLogs(taskId: string): string[] {
    const texts = this.logs.get(taskId) ?? [];
    this.logs.delete(taskId);
    return texts;
  }

  onTestModuleEnd(module: TestModule): void {
    for (const t of this.takeLogs(module.id)) this.write(t);
  }

  onTestRunEnd(
    modules: ReadonlyArray<TestModule>,
    unhandled: ReadonlyArray<{ name?: string; message?: string; stack?: string }>,
  ): void {
    // What is left of a file's own output (ids of tests and suites have `_`; a test's output went, or
    // was dropped, with its result).
    for (const [id, texts] of this.logs)
      if (!id.includes('_')) for (const t of texts) this.write(t);
    this.logs.clear();
    for (const m of modules) {
      for (const e of m.errors())
        this.write(
          `ERROR  ${relative(this.root, m.moduleId)}: ${e.name ?? 'Error'}: ${e.message}\n${e.stack ?? ''}\n`,
        );
    }
    for (const e of unhandled)
      this.write(`ERROR  unhandled ${e.name ?? 'error'}: ${e.message ?? ''}\n${e.stack ?? ''}\n`);
    const c = this.counts;
    const parts = [`${c.pass} passed`, `${c.fail} failed`, `${c.skip} skipped`];
    if (c.notSelected) parts.push(`${c.notSelected} not selected`);
    this.write(`\n${parts.join(', ')} in ${((Date.now() - this.started) / 1000).toFixed(1)} s\n`);
  }
}
