/**
 * `npm run fuzz -- [--minutes 10] [--requests N] [--seed S] [--json FILE]`: the spec-driven fuzzer's
 * long mode. Starts the sandbox (in-memory database, a control token) on 127.0.0.1, runs until the
 * budget is spent, prints the request count, the operations covered and every distinct failure with
 * its seed and case number; exits 1 on any failure. The same `--seed` replays the same sequence.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readFixtures } from '../../fixtures/load.js';
import { spawnServer } from '../spawn-server.js';
import { summarize } from './fuzz.report.js';
import { runFuzz } from './fuzz.runner.js';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string' },
    requests: { type: 'string' },
    seed: { type: 'string' },
    json: { type: 'string' },
    verbose: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});

if (args.help) {
  console.log('npm run fuzz -- [--minutes 10] [--requests N] [--seed S] [--json FILE] [--verbose]');
  process.exit(0);
}

const seed = args.seed !== undefined ? Number(args.seed) : Math.floor(Math.random() * 2 ** 31);
const maxMs =
  args.minutes !== undefined ? Number(args.minutes) * 60_000 : args.requests ? undefined : 60_000;
const maxRequests = args.requests !== undefined ? Number(args.requests) : undefined;
const controlToken = 'fuzz-control-token';

const server = await spawnServer(['--db', ':memory:', '--quiet', '--control-token', controlToken], {
  timeoutMs: 60_000,
});
const stop = () => server.kill9();
process.once('SIGINT', () => void stop().then(() => process.exit(130)));
let code = 1;
try {
  console.log(
    `fuzz: sandbox on ${server.url}, seed ${seed}, budget ${maxRequests ? `${maxRequests} requests` : `${((maxMs ?? 0) / 60_000).toFixed(1)} min`}`,
  );
  const report = await runFuzz({
    baseUrl: server.url,
    controlToken,
    fixtures: readFixtures(),
    seed,
    maxMs,
    maxRequests,
    onRequest: args.verbose ? (line) => console.log(line) : undefined,
    onProgress: (r) => {
      if (r.requests % 2000 < 200)
        console.log(`fuzz: … ${r.requests} requests, ${r.failures.length} distinct failures`);
    },
  });
  console.log(summarize(report));
  if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2) + '\n');
  code = report.failures.length ? 1 : 0;
} finally {
  await stop();
}
process.exit(code);
