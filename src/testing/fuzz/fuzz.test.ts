import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFixtures } from '../../fixtures/load.js';
import { loadSpec } from '../../spec/load.js';
import { spawnServer, type SpawnedServer } from '../spawn-server.js';
import { runFuzz, summarize, type FuzzReport } from './fuzz.runner.js';

// The CI budget of the spec-driven fuzzer: a fixed seed (failures reproduce with
// `npm run fuzz -- --seed 20261123 --requests <case + 1>`) and a request count, not a duration, so
// that a loaded machine runs the same cases, only slower. `npm run fuzz -- --minutes 10` goes further.
const SEED = 20261123;
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 1000);
const CONTROL_TOKEN = 'fuzz-control-token';

let server: SpawnedServer;
let report: FuzzReport;

beforeAll(async () => {
  server = await spawnServer(['--db', ':memory:', '--quiet', '--control-token', CONTROL_TOKEN], { timeoutMs: 60_000 });
  report = await runFuzz({ baseUrl: server.url, controlToken: CONTROL_TOKEN, fixtures: readFixtures(), seed: SEED, maxRequests: REQUESTS });
  console.log(summarize(report));
}, 170_000);

afterAll(async () => {
  await server?.kill9();
});

describe('spec-driven fuzzing of the running sandbox', () => {
  it('sends every operation of the document valid and invalid requests', () => {
    expect(report.requests).toBe(REQUESTS);
    const documented = loadSpec().operations.map((o) => o.operationId).sort();
    expect(Object.keys(report.operations).sort()).toEqual(documented);
    for (const [id, s] of Object.entries(report.operations)) {
      expect(s.valid, `${id}: valid requests`).toBeGreaterThan(0);
      expect(s.invalid, `${id}: invalid requests`).toBeGreaterThan(0);
    }
    // The valid generator reaches the success path of (nearly) every operation: requests that all
    // bounce on validation would prove nothing about the rest of the code.
    const succeeded = Object.values(report.operations).filter((s) => s.succeeded > 0).length;
    expect(succeeded / documented.length).toBeGreaterThanOrEqual(0.9);
  });

  it('gets documented, schema-valid JSON answers only: no 5xx, no hang, no invalid request accepted', () => {
    expect(report.hang).toBe(false);
    expect(report.failures.map((f) => `${f.target} [${f.kind}] case ${f.index}: ${f.problems.join(' | ')}`)).toEqual([]);
  });
});
