/**
 * Hosted payment page: page weight and server render time.
 *
 *   npx tsx bench/scenarios/hosted-page.ts [--renders 200]
 *
 * Renders `GET /payment/invoice/{id}` in-process through the whole Hono app (`app.request`, no
 * socket), for a pending invoice (the first page a customer sees) and for the counter step with its
 * barcode. Prints bytes (raw and gzip) and render time (mean, p50, p99, max) per page.
 */
import { gzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';
import { openDatabase } from '../../src/db/open.js';
import { createSandbox, sharedSpec } from '../../src/sandbox.js';
import { itemAt } from '../../src/shared/defined.js';

const { values } = parseArgs({ options: { renders: { type: 'string', default: '200' } } });
const renders = Number(values.renders);
if (!Number.isInteger(renders) || renders < 1)
  throw new Error('--renders must be a positive integer');

const sandbox = createSandbox({
  db: openDatabase(':memory:'),
  spec: sharedSpec(),
  config: { db: ':memory:', quiet: true },
});
const merchant = itemAt(sandbox.fixtures.merchants, 0);

async function createInvoice(ext: string): Promise<string> {
  const res = await sandbox.app.request('http://localhost/v1/invoices/', {
    method: 'POST',
    headers: {
      authorization: `Token ${merchant.merchant_api_token}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      amount: '1250.75',
      currency: 'PHP',
      external_transaction_id: ext,
      description: 'Order 1042: two coffees',
    }),
  });
  return ((await res.json()) as { invoice: { id: string } }).invoice.id;
}

function quantile(sorted: number[], q: number): number {
  return itemAt(sorted, Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1));
}

async function measure(name: string, path: string) {
  const get = async () => {
    const res = await sandbox.app.request(`http://localhost${path}`);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    return res.text();
  };
  const html = await get();
  for (let i = 0; i < 20; i++) await get(); // warm-up: JIT, prepared statements
  const times: number[] = [];
  for (let i = 0; i < renders; i++) {
    const started = performance.now();
    await get();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  return {
    page: name,
    bytes: Buffer.byteLength(html),
    gzip_bytes: gzipSync(html).length,
    renders,
    mean_ms: +mean.toFixed(3),
    p50_ms: +quantile(times, 0.5).toFixed(3),
    p99_ms: +quantile(times, 0.99).toFixed(3),
    max_ms: +itemAt(times, times.length - 1).toFixed(3),
  };
}

const pending = await createInvoice('bench-pending');
const counter = await createInvoice('bench-counter');
const outlet = itemAt(sandbox.fixtures.payin_outlets, 0);
sandbox.modules.payments.api.issueReference(counter, outlet.collector);

const results = [
  await measure('pending invoice (first view)', `/payment/invoice/${pending}`),
  await measure(
    'counter step (reference + Code 128 SVG)',
    `/payment/invoice/${counter}?method=counter&outlet=${outlet.id}`,
  ),
];
console.log(
  `hosted payment page, node ${process.version}, ${renders} renders each via app.request\n`,
);
console.table(results);
console.log(JSON.stringify({ scenario: 'hosted-page', results }));
await sandbox.close();
