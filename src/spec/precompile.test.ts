import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSpec } from './load.js';
import { writePrecompiled } from './precompile.js';
import { loadPrecompiledValidators, readPrecompiledDocument } from './precompiled.js';
import {
  compileValidators,
  requestSchemas,
  toFieldErrors,
  VALIDATOR_RUNTIME,
  validatorsFingerprint,
} from './validators.js';

const dir = mkdtempSync(join(tmpdir(), 'paysandbox-precompiled-'));
const dirUrl = pathToFileURL(dir + '/');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = loadSpec(undefined, { precompiled: false });
const compiled = compileValidators(spec);
const { sourceSha256 } = writePrecompiled(dirUrl);
const schemas = requestSchemas(spec);
const generated = loadPrecompiledValidators(
  validatorsFingerprint(spec),
  schemas.map((s) => s.exportName),
  VALIDATOR_RUNTIME,
  dirUrl,
)!;

/** Inputs near the document's own examples and plain wrong ones, plus random JSON. */
function corpus(): unknown[] {
  const base: unknown[] = [
    undefined,
    null,
    {},
    [],
    'text',
    0,
    true,
    { amount: '1e3' },
    { amount: '100.123456789' },
    { amount: 0 },
    { amount: -1 },
  ];
  base.push({
    amount: '100.50',
    currency: 'PHP',
    external_transaction_id: 'x',
    supported_payment_collectors: ['nope', 'nope'],
  });
  base.push({
    amount: 10,
    currency: 'USD',
    external_transaction_id: '',
    metadata: [],
    expires_at: 5,
    description: 'x'.repeat(1001),
  });
  base.push({
    outlet_id: 'bpi',
    amount: '500',
    currency: 'PHP',
    fields: 'x',
    otp: '1234567890123456789',
  });
  base.push({ collector: 'coins_peso_wallet', amount: '1.5', customer: '' });
  base.push({ page: 0, per_page: 1000, status: 'nope', currency: 'x'.repeat(11) });
  base.push({ page: 2, per_page: 10, status: 'pending' });
  return base.concat(fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 150, seed: 7 }));
}

describe('validators generated at build time', () => {
  it('exist for every request schema of the document', () => {
    expect(generated).toBeDefined();
    expect(Object.keys(generated).sort()).toEqual(schemas.map((s) => s.exportName).sort());
  });

  it('answer exactly like the validators compiled at load (verdict and every error)', () => {
    const inputs = corpus();
    for (const s of schemas) {
      const a = compiled.forOperation(s.operationId)[s.part]!;
      const b = generated[s.exportName]!;
      for (const input of inputs) {
        const where = `${s.exportName} ${JSON.stringify(input)}`;
        expect(b(input), where).toBe(a(input));
        expect(b.errors ?? null, where).toEqual(a.errors ?? null);
      }
    }
  });

  it('keep the money messages of the x-amount keyword', () => {
    const v = generated['body_createInvoiceV1']!;
    expect(v({ amount: '1.000000001', currency: 'PHP', external_transaction_id: 'x' })).toBe(false);
    expect(toFieldErrors(v.errors)).toEqual({
      amount: ['Ensure that there are no more than 8 decimal places.'],
    });
  });

  it('are ignored when what they were generated from changed after the build', () => {
    expect(
      loadPrecompiledValidators(
        '0'.repeat(64),
        ['body_createInvoiceV1'],
        VALIDATOR_RUNTIME,
        dirUrl,
      ),
    ).toBeUndefined();
    expect(
      loadPrecompiledValidators(
        validatorsFingerprint(spec),
        ['body_notAnOperation'],
        VALIDATOR_RUNTIME,
        dirUrl,
      ),
    ).toBeUndefined();
    expect(validatorsFingerprint({ ...spec, sourceSha256: '1'.repeat(64) })).not.toBe(
      validatorsFingerprint(spec),
    );
  });
});

describe('the JSON copy of the document', () => {
  it('is the parsed YAML, and only for that YAML', () => {
    expect(readPrecompiledDocument(sourceSha256, dirUrl)).toEqual(spec.document);
    expect(readPrecompiledDocument('0'.repeat(64), dirUrl)).toBeUndefined();
  });
});
