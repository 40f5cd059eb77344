import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
beforeEach(() => {
  t = createTestApp();
});
afterEach(() => t.close());

it('forgets the customers of a deleted workspace', async () => {
  const ws = (await t.request('POST', '/_sandbox/workspaces', { body: {} })).body.workspace;
  expect(t.services.identities.customerByLogin(ws.customer.email, ws.id)?.id).toBe(ws.customer.id);
  expect((await t.request('DELETE', `/_sandbox/workspaces/${ws.id}`)).status).toBe(204);
  expect(t.services.identities.customerByLogin(ws.customer.email, ws.id)).toBeUndefined();
  expect(t.services.identities.customerByLogin(t.fixtures.customers[0]!.email, null)?.id).toBe(
    t.fixtures.customers[0]!.id,
  );
});
