import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedSpec } from '../sandbox.js';
import { packageRoot } from '../spec/load.js';
import { apiOperations, committedHistory, parityMarkdown } from './docs.js';
import { corpusFiles, loadEntries } from './har.js';
import { operationMatcher, readDeviations } from './operations.js';
import { committedInputs, replayAll, runParity, staleGaps, type EntryResult } from './run.js';
import { freshCredentials, inProcessTarget, type Target } from './target.js';

// The committed corpus against a fresh in-process sandbox: what `paysandbox parity` does with no flag.
let target: Target;
let results: EntryResult[];
const inputs = committedInputs();

beforeAll(async () => {
  target = await inProcessTarget();
  results = await runParity(loadEntries(corpusFiles()), target, sharedSpec().spec, inputs);
});
afterAll(() => target.close());

describe('parity with the recorded corpus (parity/recorded)', () => {
  it('replays every entry: each difference is fixed, an accepted x-fidelity deviation or a known gap', () => {
    const silent = results
      .filter((r) => r.status === 'unexplained' || r.status === 'error')
      .map(
        (r) =>
          `${r.key} ${r.note ?? ''}${r.differences
            .filter((d) => d.verdict === 'unexplained')
            .map((d) => `\n  ${d.kind} ${d.path}: recorded ${d.recorded}; ours ${d.ours}`)
            .join('')}`,
      );
    expect(
      silent,
      'add a deviation with its reason to the operation (x-fidelity) or fix the sandbox',
    ).toEqual([]);
    expect(results).toHaveLength(59);
    // Only the browser's redirect to the merchant is not replayed: the callbacks are compared.
    expect(results.filter((r) => r.status === 'skipped').map((r) => r.key)).toEqual([
      'callbacks.har#2',
    ]);
  });

  it('compares the recorded callbacks with the event the sandbox sends for an invoice of the recorded amount and external id', async () => {
    for (const key of ['callbacks.har#0', 'callbacks.har#1'])
      expect(results.find((r) => r.key === key)).toMatchObject({
        status: 'match',
        differences: [],
      });
    // The same callback recorded with padded amounts: the sandbox's unpadded body differs, unexplained.
    const [cb] = loadEntries([join(packageRoot(), 'parity', 'recorded', 'callbacks.har')]).slice(1);
    if (!cb?.entry.request.postData?.text) throw new Error('callbacks.har#1 has no body');
    const padded = structuredClone(cb);
    padded.corpus = false;
    padded.entry.request.postData = {
      mimeType: 'application/json',
      text: cb.entry.request.postData.text.replace('"amount": "10"', '"amount": "10.00000000"'),
    };
    const creds = await freshCredentials(target);
    const [r] = await replayAll(
      [padded],
      { target, creds, mapIds: true, callbacks: true, unique: () => `cb-${Math.random()}` },
      sharedSpec().spec,
      { gaps: [], overrides: {} },
    );
    expect(r?.status).toBe('unexplained');
    expect(r?.differences).toEqual([
      {
        path: 'event.data.amount',
        kind: 'format',
        recorded: 'decimal(8 places) "10.00000000"',
        ours: 'decimal(as entered) "10"',
        verdict: 'unexplained',
      },
    ]);
  });

  it('lists no known gap that no longer differs (remove it from parity/known-gaps.json when its fix lands)', () => {
    expect(staleGaps(results, inputs.gaps).map((g) => g.entry)).toEqual([]);
    expect(new Set(inputs.gaps.map((g) => g.entry)).size).toBe(inputs.gaps.length);
    for (const key of Object.keys(inputs.overrides))
      expect(
        results.map((r) => r.key),
        key,
      ).toContain(key);
  });

  it('docs/parity.md is what the generator writes (npm run gen:parity)', () => {
    const committed = readFileSync(join(packageRoot(), 'docs', 'parity.md'), 'utf8');
    expect(committed, 'run npm run gen:parity').toBe(
      parityMarkdown(results, {
        ...inputs,
        history: committedHistory(),
        operations: apiOperations(sharedSpec().spec),
      }),
    );
  });

  it('matches each recorded request to the operation it reaches, legacy prefixes included', () => {
    const m = operationMatcher(sharedSpec().spec);
    expect(m.match('GET', '/d/api/payout-outlets/')?.operationId).toBe('listPayoutOutlets');
    expect(m.match('GET', '/api/v2/sellorder/abc/')?.operationId).toBe('getSellOrderV2');
    expect(m.match('POST', '/v1/invoices')?.operationId).toBe('createInvoiceV1');
    expect(m.match('GET', '/no/such/path')).toBeUndefined();
    expect(m.deviations('createInvoiceV1').map((d) => `${d.kind} ${d.path}`)).toContain(
      'extra invoice.description',
    );
  });

  it('refuses an x-fidelity deviation without a kind it knows or a reason', () => {
    expect(readDeviations({ summary: 'x' }, 'GET /a')).toEqual([]);
    expect(() =>
      readDeviations({ deviations: [{ path: 'a', kind: 'odd', reason: 'r' }] }, 'GET /a'),
    ).toThrow(/GET \/a: x-fidelity.deviations\[0\] needs path, kind/);
    expect(() =>
      readDeviations({ deviations: [{ path: 'a', kind: 'extra', reason: ' ' }] }, 'GET /a'),
    ).toThrow(/a reason/);
    expect(() => readDeviations({ deviations: {} }, 'GET /a')).toThrow(/must be a list/);
    expect(
      readDeviations(
        { deviations: [{ path: 'status', kind: 'status', reason: 'r', entries: ['a.har#1'] }] },
        'GET /a',
      ),
    ).toEqual([{ path: 'status', kind: 'status', reason: 'r', entries: ['a.har#1'] }]);
    for (const entries of [[], 'a.har#1', ['a.har'], [1]])
      expect(() =>
        readDeviations(
          { deviations: [{ path: 'a', kind: 'extra', reason: 'r', entries }] },
          'GET /a',
        ),
      ).toThrow(/entries, if any/);
  });

  it('applies a deviation narrowed by entries to those entries only', () => {
    // The refused BTC sell order (sellorders.har#1) is accepted; the same operation's 2018 404
    // (errors.har#8) is not excused by it.
    const btc = results.find((r) => r.key === 'sellorders.har#1');
    expect(btc?.status).toBe('accepted');
    expect(btc?.differences.find((d) => d.kind === 'status')?.verdict).toBe('accepted');
    const other = results.find((r) => r.key === 'errors.har#8');
    expect(other?.differences.find((d) => d.kind === 'status')?.verdict).not.toBe('accepted');
  });
});
