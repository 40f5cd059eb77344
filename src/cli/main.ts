#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CONFIG_OPTIONS } from '../config.js';
import { defaultFixturesPath } from '../fixtures/load.js';
import { fixtureExtensions } from '../fixtures/extensions.js';
import { startCommand } from './start.js';
import { commands } from './commands.js';

const USAGE = `paysandbox — a local sandbox of the wallet payments API

Usage:
  paysandbox [start] [options]          start the sandbox (default command)
  paysandbox fixtures [--seed N] [--out FILE]
                                        regenerate fixtures/sandbox.json reproducibly
${commands.map((c) => `  ${c.usage.padEnd(38)}${c.summary}`).join('\n')}

Options of start (flags override env, env overrides defaults):
${Object.entries(CONFIG_OPTIONS)
  .map(([name, o]) => `  --${name.padEnd(26)}${o.help}  [${o.env}]`)
  .join('\n')}
`;

async function main(argv: string[]): Promise<number> {
  const command = argv[0] && !argv[0].startsWith('-') ? argv[0] : 'start';
  const rest = command === argv[0] ? argv.slice(1) : argv;
  if (rest.includes('--help') || rest.includes('-h') || command === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (command === 'start') {
    const options = Object.fromEntries(Object.entries(CONFIG_OPTIONS).map(([k, o]) => [k, { type: o.type }])) as Record<
      string,
      { type: 'string' | 'boolean' }
    >;
    const { values } = parseArgs({ args: rest, options, strict: true });
    await startCommand(values, process.env);
    return -1; // keep running
  }
  if (command === 'fixtures') {
    const { values } = parseArgs({ args: rest, options: { seed: { type: 'string' }, out: { type: 'string' } }, strict: true });
    // Loaded here only: faker alone takes longer to import than the whole server takes to start.
    const { DEFAULT_SEED, generateFixtures } = await import('../fixtures/generate.js');
    const seed = values.seed !== undefined ? Number(values.seed) : DEFAULT_SEED;
    if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
    const out = values.out ?? defaultFixturesPath();
    writeFileSync(out, JSON.stringify(generateFixtures(seed, fixtureExtensions), null, 2) + '\n');
    console.log(`wrote ${out} (seed ${seed})`);
    return 0;
  }
  const sub = commands.find((c) => c.name === command);
  if (!sub) {
    console.error(`unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  return sub.run(rest, process.env);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: Error) => {
    console.error(`paysandbox: ${err.message}`);
    process.exit(1);
  },
);
