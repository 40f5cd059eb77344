#!/usr/bin/env node
import { writeFileSync } from 'node:fs';
import { CONFIG_OPTIONS, configFrom } from '../config-flags.js';
import { defaultFixturesPath } from '../fixtures/load.js';
import { fixtureExtensions } from '../fixtures/extensions.js';
import { closest, packageVersion, parseCommandArgs, UsageError, type OptionSpec } from './args.js';
import { ControlError } from './control-http.js';
import { startCommand } from './start.js';
import { commands } from './commands.js';

const START_OPTIONS = `Options of start (flags override env, env overrides defaults):
${Object.entries(CONFIG_OPTIONS)
  .map(([name, o]) => `  --${name.padEnd(26)}${o.help}  [${o.env}]`)
  .join('\n')}`;

const USAGE = `paysandbox — a local sandbox of the wallet payments API

Usage:
  paysandbox [start] [options]          start the sandbox (default command)
  paysandbox fixtures [--seed N] [--out FILE]
                                        regenerate fixtures/sandbox.json reproducibly
${commands.map((c) => (c.usage.length < 27 ? `  paysandbox ${c.usage.padEnd(27)}${c.summary}` : `  paysandbox ${c.usage}\n${' '.repeat(40)}${c.summary}`)).join('\n')}
  paysandbox <command> --help           help of one command
  paysandbox --version                  the installed version

${START_OPTIONS}
`;

const HELP: Record<string, string> = {
  start: `Usage: paysandbox [start] [options]

Start the sandbox; it prints a banner with every fixture credential, then one line per request and per
callback attempt (--quiet: none; --log-format json: one JSON object per line).

${START_OPTIONS}`,
  fixtures: `Usage: paysandbox fixtures [--seed N] [--out FILE]

Regenerate fixtures/sandbox.json reproducibly from a seed.`,
};

const START_FLAGS: OptionSpec = Object.fromEntries(
  Object.entries(CONFIG_OPTIONS).map(([k, o]) => [k, { type: o.type }]),
);
const COMMAND_NAMES = ['start', 'fixtures', 'help', ...commands.map((c) => c.name)];

async function run(command: string, rest: string[]): Promise<number> {
  if (command === 'start') {
    const { values } = parseCommandArgs(rest, START_FLAGS);
    try {
      configFrom(values, process.env); // a bad value is bad usage: said before anything starts
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    await startCommand(values, process.env);
    return -1; // keep running
  }
  if (command === 'fixtures') {
    const { values } = parseCommandArgs(rest, {
      seed: { type: 'string' },
      out: { type: 'string' },
    });
    // Loaded here only: faker alone takes longer to import than the whole server takes to start.
    const { DEFAULT_SEED, generateFixtures } = await import('../fixtures/generate.js');
    const seed = values.seed !== undefined ? Number(values.seed) : DEFAULT_SEED;
    if (!Number.isInteger(seed)) throw new UsageError('--seed must be an integer');
    const out = (values.out as string | undefined) ?? defaultFixturesPath();
    writeFileSync(out, JSON.stringify(generateFixtures(seed, fixtureExtensions), null, 2) + '\n');
    console.log(`wrote ${out} (seed ${seed})`);
    return 0;
  }
  const sub = commands.find((c) => c.name === command);
  if (!sub) throw new UsageError(`unknown command "${command}"`); // main() checked the name already
  return sub.run(rest, process.env);
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === '--version' || argv[0] === '-V') {
    console.log(packageVersion());
    return 0;
  }
  if (argv[0] === 'help' || argv[0] === '--help' || argv[0] === '-h') {
    const about = argv[1] && (HELP[argv[1]] ?? commands.find((c) => c.name === argv[1])?.help);
    console.log(about || USAGE);
    return 0;
  }
  const command = argv[0] && !argv[0].startsWith('-') ? argv[0] : 'start';
  const rest = command === argv[0] ? argv.slice(1) : argv;
  if (!COMMAND_NAMES.includes(command)) {
    const guess = closest(command, COMMAND_NAMES);
    console.error(
      `paysandbox: unknown command "${command}"${guess ? `; did you mean ${guess}?` : ''} (paysandbox --help lists them)`,
    );
    return 2;
  }
  const sub = commands.find((c) => c.name === command);
  if (rest.includes('--help') || rest.includes('-h')) {
    const help = HELP[command] ?? sub?.help;
    // A command with no help text here prints its own (contract).
    if (help) {
      console.log(help);
      return 0;
    }
  }
  try {
    return await run(command, rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`paysandbox ${command}: ${err.message} (paysandbox ${command} --help)`);
      return 2;
    }
    // The sandbox cannot be reached or refuses (trigger): one line, exit 1.
    if (err instanceof ControlError) {
      console.error(`paysandbox ${command}: ${err.message}`);
      return 1;
    }
    const e = err as Error & { code?: string };
    // A sub-command's own strict parseArgs (contract): still bad usage, still one line.
    if (e.code?.startsWith('ERR_PARSE_ARGS')) {
      console.error(
        `paysandbox ${command}: ${e.message.split('\n')[0]} (paysandbox ${command} --help)`,
      );
      return 2;
    }
    throw err;
  }
}

/**
 * Exit once stdout and stderr have handed everything to the OS. Into a pipe, a large output (the
 * `deliveries --all --json` of a CI run) is written in 64 KiB pieces as the reader takes them:
 * `process.exit` at once would cut it there and still exit 0.
 */
function exitAfterOutput(code: number): void {
  const flushed = (stream: NodeJS.WriteStream) =>
    new Promise<void>((resolve) => {
      if (stream.writableLength === 0) resolve();
      else stream.write('', () => resolve());
    });
  void Promise.all([flushed(process.stdout), flushed(process.stderr)]).then(() =>
    process.exit(code),
  );
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) exitAfterOutput(code);
  },
  (err: Error) => {
    console.error(`paysandbox: ${err.message}`);
    exitAfterOutput(1);
  },
);
