import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/test-app.js';

describe('GET / leads somewhere useful', () => {
  let t: ReturnType<typeof createTestApp>;
  afterEach(async () => t.close());

  it('sends a browser to the dashboard', async () => {
    t = createTestApp();
    const res = await t.request('GET', '/', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
      operationId: false,
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/_sandbox/');
    const dashboard = await t.request('GET', '/_sandbox/', { operationId: false });
    expect(dashboard.status).toBe(200);
    expect(dashboard.headers.get('content-type')).toMatch(/text\/html/);
  });

  it('gives any other client an index of links on the host it used, and every link answers', async () => {
    t = createTestApp();
    const res = await t.request('GET', '/', {
      headers: { accept: 'application/json', host: 'localhost:7070' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'paysandbox', version: expect.any(String) });
    expect(res.body.links).toEqual({
      dashboard: 'http://localhost:7070/_sandbox/',
      docs: 'http://localhost:7070/docs',
      openapi_yaml: 'http://localhost:7070/openapi.yaml',
      openapi_json: 'http://localhost:7070/openapi.json',
      healthz: 'http://localhost:7070/healthz',
      control_api: 'http://localhost:7070/_sandbox',
    });
    for (const [name, link] of Object.entries(res.body.links as Record<string, string>)) {
      if (name === 'control_api') continue; // a prefix, not a page
      const page = await t.request('GET', new URL(link).pathname, { operationId: false });
      expect(page.status, `${name} ${link}`).toBe(200);
    }
    const curl = await t.request('GET', '/', { headers: { accept: '*/*' } });
    expect(curl.status).toBe(200);
    expect(curl.text.endsWith('}\n'), 'curl $BASE/ ends with a newline').toBe(true);
    expect(curl.body.links.healthz).toMatch(/\/healthz$/);
  });

  it('serves /favicon.ico: a real 16×16 icon, cached, not in the request log', async () => {
    t = createTestApp();
    const res = await t.sandbox.app.request('http://localhost/favicon.ico');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/x-icon');
    expect(res.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([bytes.readUInt16LE(0), bytes.readUInt16LE(2), bytes.readUInt16LE(4)]).toEqual([
      0, 1, 1,
    ]); // ICO, one image
    expect([bytes[6], bytes[7], bytes.readUInt16LE(12)]).toEqual([16, 16, 32]);
    expect(bytes.readUInt32LE(14) + 22).toBe(bytes.length);
    expect((await t.request('GET', '/_sandbox/requests')).body.requests).toEqual([]);
  });
});
