// The baseline of `npm run bench`: a bare Hono app on @hono/node-server answering a small JSON GET.
// Plain JavaScript, started with `node` and the same flags as the sandbox, so ratios compare servers.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const port = Number(process.argv[2] ?? 0);
const app = new Hono();
app.get('/healthz', (c) => c.json({ status: 'ok', version: 'baseline' }));

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, (info) => {
  console.log(`baseline listening on http://127.0.0.1:${info.port}`);
});
server.keepAliveTimeout = 65_000;
for (const signal of ['SIGTERM', 'SIGINT'])
  process.once(signal, () => server.close(() => process.exit(0)));
