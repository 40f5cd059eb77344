import { expect } from 'vitest';
import type { TestApp } from '../testing/test-app.js';

/** Test support for the dashboard's in-process tests (dashboard.test.ts, dashboard-panels.test.ts). */

/** The dashboard (`/_sandbox/` with `query`) as HTML, checked to answer 200 with an HTML page. */
export async function dashboardHtml(t: TestApp, query = ''): Promise<string> {
  const res = await t.request('GET', `/_sandbox/${query}`, { operationId: false });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  return res.text;
}
