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

/** `/openapi.json`, `/openapi.yaml` and `/docs`: the API reference served from local assets (no CDN). */
export function registerDocs(app: Hono<AppEnv>, spec: LoadedSpec): void {
  const json = JSON.stringify(spec.document);
  app.get('/openapi.json', (c) => c.body(json, 200, { 'content-type': 'application/json' }));
  const require = createRequire(import.meta.url);
  // `yaml` only when there is no source text to serve (it is not loaded at start-up otherwise).
  const yaml = () => spec.yamlText ?? (require('yaml') as typeof import('yaml')).stringify(spec.document);
  app.get('/openapi.yaml', (c) => c.body(yaml(), 200, { 'content-type': 'application/yaml; charset=utf-8' }));

  const dist = dirname(require.resolve('swagger-ui-dist/package.json'));
  const cache = new Map<string, Buffer>();
  app.get('/docs/assets/:file', (c) => {
    const file = c.req.param('file');
    const type = ASSETS.get(file);
    if (!type) return c.notFound();
    let data = cache.get(file);
    if (!data) cache.set(file, (data = readFileSync(join(dist, file))));
    return c.body(new Uint8Array(data), 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
  });
  app.get('/docs', (c) =>
    c.html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>paysandbox API reference</title><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="api"></div><script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#api', deepLinking: true, tryItOutEnabled: false });</script>
</body></html>`),
  );
}
