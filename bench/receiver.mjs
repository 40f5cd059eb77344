// A callback receiver for `npm run bench`: answers 200 to every POST and counts them (GET /count).
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
let received = 0;
let last = 0;
const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/count') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ received, idle_ms: last ? Date.now() - last : null }));
    return;
  }
  req.resume();
  req.once('end', () => {
    received++;
    last = Date.now();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"ok":true}');
  });
});
server.keepAliveTimeout = 65_000;
server.listen(port, '127.0.0.1', () =>
  console.log(`receiver listening on http://127.0.0.1:${server.address().port}`),
);
for (const signal of ['SIGTERM', 'SIGINT']) process.once(signal, () => process.exit(0));
