import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseCommandArgs, UsageError } from './args.js';
import type { CliOutput } from './check-receiver.js';
import type { CliCommand } from './command.types.js';
import { assertNotProduction } from './production-guard.js';

const USAGE = 'parity [--har FILE…] [--base-url URL] [--junit FILE] [--json] [--docs FILE] [--all]';

const HELP = `Usage: paysandbox ${USAGE}

Replay recorded exchanges (HAR 1.2: the committed corpus parity/recorded/*.har, or the files given with
--har, repeatable) against a sandbox — one started in this process, or the one at --base-url (its control
API makes a fresh workspace; SANDBOX_CONTROL_TOKEN if it has one) — and compare each answer with the
recorded one: status, keys, types, formats, enum values. Prints the differences per entry and a table per
operation; --all lists matching entries too, --json prints the results as JSON, --junit writes JUnit XML,
--docs writes the parity document (docs/parity.md). Differences of the committed corpus are accepted by
the operation's x-fidelity.deviations in the document or listed in parity/known-gaps.json; a HAR of your
own is held to every difference. Exit code 0 when no difference is unexplained, 1 when one is, 2 on bad
usage.`;

const consoleOutput: CliOutput = { out: (t) => console.log(t), err: (t) => console.error(t) };

/** `paysandbox parity`: exit 0 when every difference is explained (docs/parity.md). */
export async function runParityCli(
  args: string[],
  env: Record<string, string | undefined>,
  output: CliOutput = consoleOutput,
): Promise<number> {
  const { values } = parseCommandArgs(args, {
    har: { type: 'string', multiple: true },
    'base-url': { type: 'string' },
    junit: { type: 'string' },
    json: { type: 'boolean' },
    docs: { type: 'string' },
    all: { type: 'boolean' },
  });
  const files = (values.har as unknown as string[] | undefined)?.map((f) => resolve(f));
  const baseUrl = values['base-url'] as string | undefined;
  if (baseUrl) {
    try {
      assertNotProduction(baseUrl, env);
    } catch (err) {
      throw new UsageError((err as Error).message.replace('the contract suite', 'parity'));
    }
  }
  // Loaded here: the comparison engine and the sandbox are not for the CLI's other commands to pay for.
  const {
    parityMarkdown,
    committedHistory,
    corpusFiles,
    loadEntries,
    junitReport,
    textReport,
    totals,
    committedInputs,
    runParity,
    staleGaps,
    inProcessTarget,
    urlTarget,
    loadSpec,
    apiOperations,
  } = await import('../parity/index.js');
  let entries;
  try {
    entries = loadEntries(files ?? corpusFiles());
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const spec = loadSpec();
  const inputs = files ? { gaps: [], overrides: {} } : committedInputs();
  const target = baseUrl ? urlTarget(baseUrl, env.SANDBOX_CONTROL_TOKEN) : await inProcessTarget();
  let results;
  try {
    results = await runParity(entries, target, spec, inputs);
  } finally {
    await target.close();
  }
  if (values.junit) writeFileSync(resolve(values.junit as string), junitReport(results));
  if (values.docs)
    writeFileSync(
      resolve(values.docs as string),
      parityMarkdown(results, {
        ...inputs,
        history: committedHistory(),
        operations: apiOperations(spec),
      }),
    );
  const stale = files ? [] : staleGaps(results, inputs.gaps);
  output.out(
    values.json
      ? JSON.stringify({ results, staleGaps: stale }, null, 2)
      : textReport(results, { all: values.all === true }),
  );
  for (const g of stale)
    output.err(
      `parity: ${g.entry} no longer differs (or does not exist): remove it from parity/known-gaps.json`,
    );
  const t = totals(results);
  return t.unexplained > 0 || stale.length > 0 ? 1 : 0;
}

export const parityCommand: CliCommand = {
  name: 'parity',
  usage: USAGE,
  summary: 'replay recorded exchanges (HAR) against the sandbox and compare the answers',
  help: HELP,
  run: (args, env) => runParityCli(args, env),
};
