import { afterEach, describe, expect, it } from 'vitest';
import { bodyLimitOf } from '../http/body-limit.js';
import { createTestApp, type TestApp } from '../testing/test-app.js';
import { errorCode } from '../testing/error-code.js';

// Statuses the sandbox answers that the document must list (found by the spec-driven fuzzer in
// src/testing/fuzz/): the test app fails any answer whose status the operation does not document.
let t: TestApp;
afterEach(() => t?.close());

describe('the document lists every status the sandbox answers', () => {
  it('413 on every operation that takes a body, for a body over its limit (64 KiB; 8 MiB for a snapshot import)', async () => {
    t = createTestApp();
    const ops = t.sandbox.spec.operations.filter((o) => o.hasBody);
    expect(ops.length).toBeGreaterThanOrEqual(19);
    for (const op of ops) {
      const path = op.path.replace(/\{[^}]+\}/g, '0'.repeat(32));
      const raw = JSON.stringify({ pad: 'p'.repeat(bodyLimitOf(path) + 6_000) });
      const method = op.method.toUpperCase();
      const res =
        op.auth === 'hmac'
          ? await t.signed(method, path, { raw, operationId: op.operationId })
          : await t.request(method, path, {
              raw,
              token: t.merchant.merchant_api_token,
              operationId: op.operationId,
            });
      expect(res.status, op.operationId).toBe(413);
      expect(errorCode(res.body), op.operationId).toBe('payload_too_large');
    }
  });

  it('400 on the signed reads by id, for a nonce that is not a number', async () => {
    t = createTestApp();
    for (const path of ['/v1/sellorder/', '/v1/buyorder/', '/v3/transfers/']) {
      const res = await t.signed('GET', path + '0'.repeat(32), { nonce: 'not-a-number' });
      expect(res.status, path).toBe(400);
      expect(errorCode(res.body)).toBe('invalid_nonce_format');
    }
  });
});
