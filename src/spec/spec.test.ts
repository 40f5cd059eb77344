import { afterAll, describe, expect, it } from 'vitest';
import { ENVELOPE_CODES, STATUS_OF } from '../shared/api-error.js';
import { pathsOf, unimplementedOperations } from '../http/create-app.js';
import { sharedSpec } from '../sandbox.js';
import { createTestApp } from '../testing/test-app.js';

const t = createTestApp();
afterAll(() => t.close());
const { spec, validators } = sharedSpec();

/**
 * Operations that still answer 501 `not_implemented`. Listed here so nothing hides: implementing one
 * makes this test fail until it is removed from the list.
 */
const STILL_501: string[] = [];

describe('the document and the handlers agree', () => {
  it('binds every handler to an operation of the document', () => {
    const known = new Set(spec.operations.map((o) => o.operationId));
    const orphans = Object.keys(t.sandbox.handlers).filter((id) => !known.has(id));
    expect(orphans).toEqual([]);
  });

  it('lists exactly the operations that still answer 501', () => {
    expect(unimplementedOperations(spec, t.sandbox.handlers).sort()).toEqual([...STILL_501].sort());
  });

  it('routes every operation at its path and its legacy aliases (never a 404 for the route itself)', async () => {
    for (const op of spec.operations) {
      for (const p of pathsOf(op)) {
        const path = p.replace(/:[a-z_]+/g, 'f'.repeat(32));
        const res = await t.sandbox.app.request(`http://localhost${path}`, {
          method: op.method.toUpperCase(),
        });
        const body = res.headers.get('content-type')?.includes('json')
          ? ((await res.json()) as { error_codes?: string[] })
          : {};
        // a 404 is fine only when it is the resource that is missing, not the route
        const routeMissing = res.status === 404 && !/\{/.test(op.path);
        expect(
          routeMissing,
          `${op.method.toUpperCase()} ${path} (${op.operationId}) → ${res.status} ${JSON.stringify(body)}`,
        ).toBe(false);
        expect(res.status, `${op.method.toUpperCase()} ${path}`).not.toBe(405);
      }
    }
  });

  it('compiles a validator for every JSON response the document lists', () => {
    for (const op of spec.operations) {
      for (const status of op.statuses) {
        if (status === '204' || status.startsWith('3')) continue; // no body: nothing to validate
        const content = (spec.document.paths?.[op.path] as any)?.[op.method]?.responses?.[status]
          ?.content;
        if (content && !content['application/json']) continue; // a stream (text/event-stream), not JSON
        expect(
          validators.response(op.operationId, status),
          `${op.operationId} ${status}`,
        ).toBeTypeOf('function');
      }
    }
  });

  it('lists in the document exactly the error codes the server can send', () => {
    const envelope = spec.document.components?.schemas?.ErrorEnvelope as {
      properties: { error_codes: { items: { enum: string[] } } };
    };
    expect([...envelope.properties.error_codes.items.enum].sort()).toEqual(
      [...ENVELOPE_CODES].sort(),
    );
    const debug = spec.document.components?.schemas?.SandboxDebug as {
      properties: { code: { enum: string[] } };
    };
    expect([...debug.properties.code.enum].sort()).toEqual(Object.keys(STATUS_OF).sort());
    const merchant = spec.document.components?.schemas?.MerchantError as {
      properties: { error_codes: { items: { enum: string[] } } };
    };
    expect([...merchant.properties.error_codes.items.enum].sort()).toEqual(
      [...ENVELOPE_CODES].sort(),
    );
  });

  it('resolves every $ref of the document, webhooks and extensions included', () => {
    const dangling: string[] = [];
    const resolve = (ref: string) =>
      ref
        .slice(2)
        .split('/')
        .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>(
          (node, key) =>
            node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined,
          spec.document,
        );
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (!node || typeof node !== 'object') return;
      for (const [k, v] of Object.entries(node)) {
        if (
          k === '$ref' &&
          typeof v === 'string' &&
          (!v.startsWith('#/') || resolve(v) === undefined)
        )
          dangling.push(`${at}: ${v}`);
        else walk(v, `${at}/${k}`);
      }
    };
    walk(spec.document, '#');
    expect(dangling).toEqual([]);
  });

  it('gives every operation a unique operationId, a tag and security', () => {
    for (const op of spec.operations) {
      expect(op.tags.length, op.operationId).toBeGreaterThan(0);
      // The quote service's markets are public on the real service too; the example receiver is a merchant's
      // callback handler: the merchant token it checks is its own business.
      const open = [
        'getHealth',
        'getIndex',
        'listMarketsV1',
        'getMarketV1',
        'listMarketsV2',
        'receiveInboxCallback',
      ];
      if (!open.includes(op.operationId)) expect(op.auth, op.operationId).not.toBe('none');
    }
  });
});
