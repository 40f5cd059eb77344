import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BEGIN,
  END,
  FIDELITY_DOC,
  fidelityEntries,
  fidelityProblems,
  operationsTables,
  withGeneratedOperations,
} from './fidelity-doc.js';
import { readDocument } from './operation-types.js';

/**
 * docs/fidelity.md section 1 is generated from the `x-fidelity` of every operation of
 * openapi/openapi.yaml (`npm run gen:docs`). These checks keep the notes complete and the page current.
 */

const document = readDocument();
const page = readFileSync(FIDELITY_DOC, 'utf8');

/** A copy of the document with one operation's `x-fidelity` changed (or removed, with `undefined`). */
function withNote(operationId: string, note: unknown): typeof document {
  const copy = structuredClone(document);
  for (const items of [copy.paths, copy.webhooks]) {
    for (const item of Object.values(items ?? {}) as Array<Record<string, any>>) {
      for (const op of Object.values(item)) {
        if (op?.operationId !== operationId) continue;
        if (note === undefined) delete op['x-fidelity'];
        else op['x-fidelity'] = note;
      }
    }
  }
  return copy;
}

describe('x-fidelity in openapi/openapi.yaml', () => {
  it('is on every operation, paths and webhooks, with a summary and a source', () => {
    expect(fidelityProblems(document)).toEqual([]);
    const ids = fidelityEntries(document).map((e) => e.operationId);
    expect(ids).toContain('createTransfer');
    expect(ids).toContain('invoiceFullyPaidWebhook');
  });

  it('reports an operation without one', () => {
    expect(fidelityProblems(withNote('createTransfer', undefined))).toEqual([
      '`createTransfer` has no x-fidelity: { summary, source }',
    ]);
    expect(fidelityProblems(withNote('invoiceCreatedWebhook', undefined))).toEqual([
      '`invoiceCreatedWebhook` has no x-fidelity: { summary, source }',
    ]);
  });

  it('reports a note without a source, with an unknown key, or with deviations that are not a list', () => {
    expect(
      fidelityProblems(withNote('getHealth', { summary: 'Health.', source: 'trust me' })),
    ).toEqual([expect.stringMatching(/`getHealth`: x-fidelity.source names no source/)]);
    expect(
      fidelityProblems(withNote('getHealth', { summary: 'Health.', source: 'seed', sauce: 1 })),
    ).toEqual(['`getHealth`: x-fidelity has an unknown key "sauce"']);
    expect(
      fidelityProblems(withNote('getHealth', { summary: ' ', source: 'seed', deviations: 'none' })),
    ).toEqual([
      '`getHealth`: x-fidelity.summary must be text',
      '`getHealth`: x-fidelity.deviations must be a list',
    ]);
    expect(
      fidelityProblems(
        withNote('getHealth', { summary: 'Health.', source: 'seed', deviations: [] }),
      ),
    ).toEqual([]);
  });
});

describe('docs/fidelity.md section 1', () => {
  it('is what the document generates (npm run gen:docs rewrites it)', () => {
    expect(page).toBe(withGeneratedOperations(page, document));
  });

  it('has one row per operation, with its method and path', () => {
    const tables = operationsTables(document);
    for (const e of fidelityEntries(document))
      expect(tables).toContain(`| \`${e.operationId}\` | ${e.where} |`);
    expect(tables).toContain('| `getHealth` | `GET /healthz` |');
    expect(tables).toContain(
      '| `invoiceFullyPaidWebhook` | `POST <callback_url>` (`invoice.fully_paid`) |',
    );
  });

  it('goes stale when a note changes, and regenerating changes only the part between the markers', () => {
    const edited = withNote('getHealth', {
      summary: 'A new summary | with a pipe.',
      source: 'seed',
    });
    const regenerated = withGeneratedOperations(page, edited);
    expect(regenerated).not.toBe(page);
    expect(regenerated).toContain(
      '| `getHealth` | `GET /healthz` | A new summary \\| with a pipe. | seed |',
    );
    const outside = (s: string) => [s.slice(0, s.indexOf(BEGIN)), s.slice(s.indexOf(END))];
    expect(outside(regenerated)).toEqual(outside(page));
  });

  it('refuses to generate from a document with a missing note, or into a page without the markers', () => {
    expect(() => operationsTables(withNote('createTransfer', undefined))).toThrow(
      /`createTransfer` has no x-fidelity/,
    );
    expect(() => withGeneratedOperations('# no markers', document)).toThrow(
      /must hold the markers/,
    );
  });
});
