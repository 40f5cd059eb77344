import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Hono } from 'hono';
import type { LoadedSpec } from '../spec/load.js';
import type { AppEnv } from './operation.js';

// A Map, not an object literal: `/docs/assets/constructor` must not find an inherited member.
const ASSETS = new Map<string, string>([
  ['swagger-ui-bundle.js', 'application/javascript; charset=utf-8'],
  ['swagger-ui.css', 'text/css; charset=utf-8'],
]);

/** The served document's `servers`: the one base URL the sandbox answers on, so "Try it out" calls it. */
export function servedServers(baseUrl: string): Array<{ url: string; description: string }> {
  return [{ url: baseUrl, description: 'This sandbox' }];
}

/** The YAML source with its top-level `servers:` block replaced (the rest stays byte for byte). */
export function yamlWithServers(yamlText: string, baseUrl: string): string {
  const block = `servers:\n  - url: ${JSON.stringify(baseUrl)}\n    description: This sandbox\n`;
  const re = /^servers:\n(?:[ -].*\n)*/m;
  return re.test(yamlText)
    ? yamlText.replace(re, () => block)
    : `${yamlText.replace(/\n?$/, '\n')}${block}`;
}

/**
 * The document's JSON with every `external_transaction_id` example made unique (`order-1001` →
 * `order-1001-3f9a0c1e`): what `/docs` loads, so that "Try it out" twice, or after a reload, creates a
 * new invoice instead of answering `duplicate_external_transaction_id`.
 */
export function withUniqueExamples(json: string, suffix: string): string {
  return json.replace(
    /"external_transaction_id":"([^"\\]*)"/g,
    (_, id: string) => `"external_transaction_id":"${id}-${suffix}"`,
  );
}

/**
 * `/openapi.json`, `/openapi.yaml` and `/docs`: the API reference served from local assets (no CDN).
 * The document's `servers` is `baseUrl()` (the public URL, which is the listening URL once the server
 * is up on a port chosen at start): each text is built once per base URL and kept, not per request.
 */
export function registerDocs(app: Hono<AppEnv>, spec: LoadedSpec, baseUrl: () => string): void {
  const require = createRequire(import.meta.url);
  const texts = new Map<string, { json: string; yaml?: string }>();
  const textsFor = (url: string) => {
    let t = texts.get(url);
    if (!t) {
      // A handful of URLs over a process's life (the configured one, then the listening one).
      if (texts.size >= 8) texts.clear();
      texts.set(
        url,
        (t = { json: JSON.stringify({ ...spec.document, servers: servedServers(url) }) }),
      );
    }
    return t;
  };
  app.get('/openapi.json', (c) => {
    const json = textsFor(baseUrl()).json;
    // `?examples=unique` (the API reference's own load): fresh example ids per page load.
    const body =
      c.req.query('examples') === 'unique'
        ? withUniqueExamples(json, randomBytes(4).toString('hex'))
        : json;
    return c.body(body, 200, {
      'content-type': 'application/json',
      ...(body === json ? {} : { 'cache-control': 'no-store' }),
    });
  });
  // `yaml` only when there is no source text to serve (it is not loaded at start-up otherwise).
  const yaml = (url: string) =>
    spec.yamlText
      ? yamlWithServers(spec.yamlText, url)
      : (require('yaml') as typeof import('yaml')).stringify({
          ...spec.document,
          servers: servedServers(url),
        });
  app.get('/openapi.yaml', (c) => {
    const url = baseUrl();
    const t = textsFor(url);
    return c.body((t.yaml ??= yaml(url)), 200, {
      'content-type': 'application/yaml; charset=utf-8',
    });
  });

  const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Buffer>();
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = ASSETS.get(file);
    if (!type) return c.notFound();
    let data = cache.get(file);
    if (!data) cache.set(file, (data = readFileSync(join(dist, file))));
    return c.body(new Uint8Array(data), 200, {
      'content-type': type,
      'cache-control': 'public, max-age=86400',
    });
  });
  app.get('/docs', (c) =>
    c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>paysandbox API reference</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="api"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json?examples=unique', dom_id: '#api', deepLinking: true, tryItOutEnabled: false });</script>
</body></html>`),
  );
}
