import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readFixtures } from '../../fixtures/load.js';
import { loadSpec } from '../../spec/load.js';
import { compileValidators } from '../../spec/validators.js';
import { bodySchemaOf } from './fuzz.document.js';
import { invalidDraft } from './fuzz.invalid.js';
import { validDraft } from './fuzz.valid.js';
import { FuzzWorld } from './fuzz.world.js';
import { documentResolver } from './schema.arbitrary.js';

// The fuzzer's verdicts are only as good as its generators: "valid" bodies must be valid for the
// document's own validator, and the body mutations that must be refused must really break it.
const spec = loadSpec();
const validators = compileValidators(spec);
const resolve = documentResolver(spec.document);
const world = new FuzzWorld('http://127.0.0.1:1', 'token', readFixtures());
const withBody = spec.operations.filter((o) => o.hasBody);

describe('fuzzer generators', () => {
  it('make bodies the document accepts, for every operation with a body', () => {
    for (const op of withBody) {
      const drafts = fc.sample(validDraft(op, world, resolve, bodySchemaOf(spec, op)), {
        seed: 1,
        numRuns: 60,
      });
      const check = validators.forOperation(op.operationId).body!;
      const bodies = drafts.map((d) => d.body).filter((b) => b !== undefined);
      const accepted = bodies.filter((b) => check(b)).length;
      expect(
        accepted / bodies.length,
        `${op.operationId}: ${JSON.stringify(bodies.find((b) => !check(b)))} ${JSON.stringify(check.errors)}`,
      ).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('break bodies for real when the mutation must be refused (missing, wrong type, too long, not an object)', () => {
    for (const op of withBody) {
      const schema = bodySchemaOf(spec, op);
      const arb = validDraft(op, world, resolve, schema).chain((v) =>
        invalidDraft(v, resolve, schema),
      );
      const check = validators.forOperation(op.operationId).body!;
      for (const d of fc.sample(arb, { seed: 2, numRuns: 80 })) {
        if (!/^(missing-|wrong-type-|too-long-|body-not-object)/.test(d.kind)) continue;
        const body = d.raw !== undefined ? JSON.parse(d.raw) : JSON.parse(JSON.stringify(d.body));
        expect(
          check(body),
          `${op.operationId} [${d.kind}] ${JSON.stringify(body).slice(0, 200)}`,
        ).toBe(false);
      }
    }
  });
});
