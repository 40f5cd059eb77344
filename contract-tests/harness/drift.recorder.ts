import type { ApiResponse } from '../../src/client/index.js';
import type { Checker, Finding, Observation } from './response.checker.js';

/**
 * Everything the run saw: one observation per response (with the checker's findings), and what the
 * cases expected of each operation. The drift report and the failure messages are made from it.
 */
export interface Recorder {
  /** Check a response and keep the observation. */
  observe(res: ApiResponse, caseName: string): Observation;
  /** The observation made of a response object (the clients hand the same object to the case). */
  observationOf(res: ApiResponse): Observation | undefined;
  /** A case expected something of a response and got something else. */
  expectationFailed(res: ApiResponse, message: string): Observation | undefined;
  /** A case expected this status from the response's operation. */
  expected(res: ApiResponse, status: number): void;
  forCase(caseName: string): Observation[];
  all(): Observation[];
  expectedStatuses(operationId: string): number[];
}

export function createRecorder(check: Checker): Recorder {
  const observations: Observation[] = [];
  const byResponse = new WeakMap<ApiResponse, Observation>();
  const expectations = new Map<string, Set<number>>();

  return {
    observe(res, caseName) {
      const obs = check(res, caseName);
      observations.push(obs);
      byResponse.set(res, obs);
      return obs;
    },
    observationOf: (res) => byResponse.get(res),
    expectationFailed(res, message) {
      const obs = byResponse.get(res);
      const finding: Finding = { kind: 'expectation', message };
      if (obs) {
        obs.findings.push(finding);
        obs.reported = false;
      }
      return obs;
    },
    expected(res, status) {
      const opId = byResponse.get(res)?.operationId ?? res.operationId;
      if (!opId) return;
      let set = expectations.get(opId);
      if (!set) expectations.set(opId, (set = new Set()));
      set.add(status);
    },
    forCase: (name) => observations.filter((o) => o.caseName === name),
    all: () => observations,
    expectedStatuses: (opId) => [...(expectations.get(opId) ?? [])].sort(),
  };
}

/** One observation's findings as a readable drift entry. */
export function describeObservation(o: Observation, findings: Finding[] = o.findings): string {
  const head = `${o.operationId ?? '(no operation)'} — ${o.method} ${o.path}`;
  const observed = `observed: ${o.status} ${o.contentType ?? '(no content type)'} ${o.excerpt.slice(0, 160)}`;
  return [head, `  ${observed}`, ...findings.map((f) => `  · [${f.kind}] ${f.message}`)].join('\n');
}
