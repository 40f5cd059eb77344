/** The command line of `npm run bench` (bench/run.ts): its options, their defaults and the usage text. */
import { parseArgs } from 'node:util';

export const USAGE = `npm run bench -- [--quick] [--with-prism] [--connections 10] [--duration s] [--warmup s]
  [--invoices 100000] [--deep-page 9000] [--deep-rate 100] [--node-flags "..."] [--durability normal|full]
  [--only id,id] [--no-build] [--server-log FILE]
npm run bench -- --soak SECONDS [--soak-warmup s] [--soak-tolerance MiB] [--soak-tolerance-pct %] [--soak-workers 4]
  mixed flows against the built server for SECONDS; fails on any error or on RSS growth after warm-up
  beyond MiB + % of the post-warm-up RSS (default 16 MiB + 10%); writes bench/results/soak.json
ids for --only (the baseline always runs): healthz list-page-1 list-deep list-deep-fixed invoice-get hmac-get
  invoice-create invoice-create-callbacks sellorder payment payment-callbacks cold-start callbacks
  hosted-page`;

export interface BenchOptions {
  help: boolean;
  quick: boolean;
  withPrism: boolean;
  connections: number;
  durationSec: number;
  warmupSec: number;
  invoices: number;
  deepPage: number;
  deepRate: number;
  nodeFlags: string[];
  durability: string;
  /** The scenario ids of --only; null runs them all. */
  only: Set<string> | null;
  noBuild: boolean;
  serverLog?: string;
  soak?: string;
  soakWarmup?: string;
  soakTolerance: string;
  soakTolerancePct: string;
  soakWorkers: string;
}

/** Parses `argv` (strict: an unknown option throws); --quick shortens the default timings. */
export function parseOptions(argv: string[] = process.argv.slice(2)): BenchOptions {
  const { values: args } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      'with-prism': { type: 'boolean', default: false },
      connections: { type: 'string', default: '10' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      invoices: { type: 'string', default: '100000' },
      'deep-page': { type: 'string', default: '9000' },
      'deep-rate': { type: 'string', default: '100' },
      'node-flags': { type: 'string', default: '' },
      durability: { type: 'string', default: 'normal' },
      only: { type: 'string' },
      'no-build': { type: 'boolean', default: false },
      'server-log': { type: 'string' },
      soak: { type: 'string' },
      'soak-warmup': { type: 'string' },
      'soak-tolerance': { type: 'string', default: '16' },
      'soak-tolerance-pct': { type: 'string', default: '10' },
      'soak-workers': { type: 'string', default: '4' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  const quick = args.quick;
  return {
    help: args.help,
    quick,
    withPrism: args['with-prism'],
    connections: Number(args.connections),
    durationSec: Number(args.duration ?? (quick ? 2 : 10)),
    warmupSec: Number(args.warmup ?? (quick ? 1 : 3)),
    invoices: Number(args.invoices),
    deepPage: Number(args['deep-page']),
    deepRate: Number(args['deep-rate']),
    nodeFlags: args['node-flags'].split(' ').filter(Boolean),
    durability: args.durability,
    only: args.only ? new Set(args.only.split(',')) : null,
    noBuild: args['no-build'],
    serverLog: args['server-log'],
    soak: args.soak,
    soakWarmup: args['soak-warmup'],
    soakTolerance: args['soak-tolerance'],
    soakTolerancePct: args['soak-tolerance-pct'],
    soakWorkers: args['soak-workers'],
  };
}
