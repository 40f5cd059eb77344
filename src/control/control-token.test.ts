import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

const TOKEN = 'qa-control-token-123';
let t: TestApp;
beforeEach(() => {
  t = createTestApp({ config: { controlToken: TOKEN } });
});
afterEach(() => t.close());

/** Every control operation of the document, with a concrete path. */
function controlCalls() {
  return t.sandbox.spec.operations
    .filter((op) => op.auth === 'control')
    .map((op) => ({
      id: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path.replace(/\{[^}]+\}/g, 'a'.repeat(32)),
    }));
}

const REFUSED = {
  error_codes: ['control_token_required'],
  errors: { non_field_errors: ['A valid X-Sandbox-Token header is required for the control API.'] },
};

describe('control token', () => {
  it('covers every control operation of the document', () => {
    const ids = controlCalls().map((c) => c.id);
    for (const mine of [
      'payInvoice',
      'confirmCounterPayment',
      'expireInvoice',
      'cancelInvoice',
      'triggerEvent',
      'getClock',
      'advanceClock',
      'resetClock',
      'resetSandbox',
      'createWorkspace',
      'deleteWorkspace',
      'createMerchant',
      'updateMerchant',
      'createApp',
      'resetAppNonce',
      'getAppOtp',
      'createCustomer',
      'getAccount',
      'fundAccount',
      'listFaults',
      'createFault',
      'clearFaults',
      'listRequests',
    ]) {
      expect(ids).toContain(mine);
    }
  });

  it('refuses every control call without the token, with a wrong one, or with a merchant token alone', async () => {
    for (const call of controlCalls()) {
      const body = call.method === 'GET' || call.method === 'DELETE' ? undefined : {};
      const attempts: Array<Record<string, string>> = [
        {},
        { 'x-sandbox-token': 'wrong' },
        { 'x-sandbox-token': TOKEN.slice(0, -1) },
        // wrong tokens of the right length: only a byte-by-byte compare tells them apart
        { 'x-sandbox-token': TOKEN.slice(0, -1) + '4' },
        { 'x-sandbox-token': 'Q' + TOKEN.slice(1) },
        { authorization: `Token ${t.merchant.merchant_api_token}` },
      ];
      for (const headers of attempts) {
        const res = await t.request(call.method, call.path, {
          body,
          headers,
          operationId: call.id,
        });
        expect(res.status, `${call.id} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.body).toEqual(REFUSED);
      }
    }
  });

  it('refuses every control call with valid HMAC credentials alone', async () => {
    for (const call of controlCalls()) {
      const body = call.method === 'GET' || call.method === 'DELETE' ? undefined : {};
      const res = await t.signed(call.method, call.path, { body, operationId: call.id });
      expect(res.status, call.id).toBe(401);
      expect(res.body.error_codes).toEqual(['control_token_required']);
    }
  });

  it('lets every control call through with the token', async () => {
    for (const call of controlCalls()) {
      const body = call.method === 'GET' || call.method === 'DELETE' ? undefined : {};
      const res = await t.request(call.method, call.path, {
        body,
        headers: { 'X-Sandbox-Token': TOKEN },
        operationId: false,
      });
      expect(res.status, call.id).not.toBe(401);
    }
  });

  it('a refused call changes nothing', async () => {
    await t.request('POST', '/_sandbox/clock/advance', { body: { seconds: 600 } });
    await t.request('POST', '/_sandbox/faults', { body: { path: '/**' } });
    await t.request('POST', '/_sandbox/trigger', { body: { event: 'invoice.created' } });
    expect(t.services.clock.offsetMicros()).toBe(0);
    expect((t.db.prepare('SELECT COUNT(*) AS n FROM invoices').get() as { n: number }).n).toBe(0);
    const faults = await t.request('GET', '/_sandbox/faults', {
      headers: { 'X-Sandbox-Token': TOKEN },
    });
    expect(faults.body.faults).toEqual([]);
  });

  it('the dashboard needs ?token= or the header, and hands the token to its own calls', async () => {
    const none = await t.request('GET', '/_sandbox/', { operationId: false });
    expect(none.status).toBe(401);
    expect(none.text).toContain('Control token required');
    expect(none.text).not.toContain(TOKEN);
    expect(none.text).not.toContain(t.merchant.merchant_api_token);
    expect((await t.request('GET', '/_sandbox/?token=wrong', { operationId: false })).status).toBe(
      401,
    );
    expect(
      (
        await t.request('GET', '/_sandbox/', {
          token: t.merchant.merchant_api_token,
          operationId: false,
        })
      ).status,
    ).toBe(401);
    const signed = await t.signed('GET', '/_sandbox/', { operationId: false });
    expect(signed.status).toBe(401);
    const byQuery = await t.request('GET', `/_sandbox/?token=${TOKEN}`, { operationId: false });
    expect(byQuery.status).toBe(200);
    expect(byQuery.text).toContain(`data-token="${TOKEN}"`);
    const byHeader = await t.request('GET', '/_sandbox', {
      headers: { 'X-Sandbox-Token': TOKEN },
      operationId: false,
    });
    expect(byHeader.status).toBe(200);
    const script = await t.request('GET', '/_sandbox/dashboard/dashboard.js', {
      operationId: false,
    });
    expect(script.status).toBe(200);
    expect(script.text).toContain("h['X-Sandbox-Token'] = token");
    expect(script.text).not.toContain(TOKEN);
    // The live poll is guarded like the page.
    const poll = await t.request('GET', '/_sandbox/dashboard/state', { operationId: false });
    expect(poll.status).toBe(401);
    expect(poll.body.error_codes).toEqual(['control_token_required']);
    expect(
      (
        await t.request('GET', '/_sandbox/dashboard/state', {
          headers: { 'X-Sandbox-Token': TOKEN },
          operationId: false,
        })
      ).status,
    ).toBe(200);
  });
});
