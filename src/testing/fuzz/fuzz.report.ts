import type { Fixtures } from '../../fixtures/fixture-types.js';
import type { WireRequest } from './fuzz.request.js';

/** What a fuzz run is asked to do, what it found, and that report as lines for people. */

export interface FuzzOptions {
  baseUrl: string;
  controlToken: string;
  fixtures: Fixtures;
  seed: number;
  /** Stop after this many requests, or after this many ms, whichever comes first. */
  maxRequests?: number;
  maxMs?: number;
  /** Each request must be fully answered within this (a slower answer is a hang). */
  deadlineMs?: number;
  /** Share of cases that go to routes outside the document (1 in N). */
  extraEvery?: number;
  onProgress?: (r: FuzzReport) => void;
  /** Called after every request (the CLI's --verbose). */
  onRequest?: (line: string) => void;
}

export interface FuzzFailure {
  /** Replays the same sequence: `npm run fuzz -- --seed <seed> --requests <index + 1>`. */
  seed: number;
  index: number;
  target: string;
  kind: string;
  problems: string[];
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  status?: number;
  answer?: string;
}

export interface OperationStats {
  requests: number;
  valid: number;
  invalid: number;
  /** Answers with a 2xx status: the valid generator reached the operation's success path. */
  succeeded: number;
  statuses: Record<string, number>;
}

export interface FuzzReport {
  seed: number;
  requests: number;
  ms: number;
  operations: Record<string, OperationStats>;
  operationsTotal: number;
  extra: Record<string, number>;
  failures: FuzzFailure[];
  /** Failures beyond the distinct ones listed. */
  repeatedFailures: number;
  hang: boolean;
}

/** The report as lines for people: coverage, then each distinct failure with its request. */
export function summarize(r: FuzzReport): string {
  const ops = Object.entries(r.operations);
  const succeeded = ops.filter(([, s]) => s.succeeded > 0).length;
  const lines = [
    `fuzz: seed ${r.seed}, ${r.requests} requests in ${(r.ms / 1000).toFixed(1)} s (${((r.requests * 1000) / r.ms).toFixed(0)}/s)`,
    `fuzz: ${ops.length}/${r.operationsTotal} operations covered, ${succeeded} of them answered 2xx at least once; routes outside the document: ${Object.values(r.extra).reduce((a, b) => a + b, 0)} requests`,
    `fuzz: ${r.failures.length} distinct failures (${r.repeatedFailures} repeats)${r.hang ? ', stopped on a hang' : ''}`,
  ];
  const never = ops
    .filter(([, s]) => s.succeeded === 0)
    .map(([k, s]) => `${k} ${JSON.stringify(s.statuses)}`);
  if (never.length) lines.push(`fuzz: never 2xx: ${never.join(', ')}`);
  for (const f of r.failures) {
    lines.push(
      `  ✗ ${f.target} [${f.kind}] case ${f.index} (seed ${f.seed}): ${f.problems.join(' | ')}`,
    );
    lines.push(
      `    ${f.request.method} ${f.request.url}${f.request.body ? ` body ${JSON.stringify(f.request.body)}` : ''}`,
    );
    if (f.status !== undefined) lines.push(`    → ${f.status} ${f.answer ?? ''}`);
  }
  return lines.join('\n');
}
