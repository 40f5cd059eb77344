/**
 * `npm run contract [-- ARGS]`: the whole contract kit of this repository through vitest — the suite's
 * cases and the kit's own meta-tests — as CI runs it. Two things `paysandbox contract` also does:
 *   - `--tags EXPR` is accepted (vitest itself calls it `--tags-filter`, which works too), and an
 *     expression naming a tag the suite does not have is a usage error (exit 2) before anything runs;
 *   - vitest runs in a process group of its own, and SIGINT / SIGTERM sent to this process, or npm
 *     going away, stop the whole group, so a cancelled CI job leaves no suite running against the target.
 * Every other argument goes to vitest unchanged (`-t NAME`, `--reporter`, a file filter …).
 */
import { runSuite } from '../src/cli/contract.run-suite.js';
import { vitestBin } from '../src/cli/contract.js';
import { packageRoot } from '../src/spec/load.js';
import { vitestArgs } from './npm-run.args.js';

/**
 * npm does not pass SIGTERM on to the script it runs (it exits and leaves it running): when the process
 * that started this one is gone, stop as on SIGTERM, so the suite stops and cleans up with it.
 */
function stopWhenOrphaned(): void {
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
  }, 500).unref();
}

async function main(): Promise<number> {
  const parsed = vitestArgs(process.argv.slice(2));
  if ('problem' in parsed) {
    console.error(`npm run contract: ${parsed.problem}`);
    return 2;
  }
  const root = packageRoot();
  const bin = vitestBin(root);
  if (!bin) {
    console.error('npm run contract: vitest is not installed (npm ci)');
    return 2;
  }
  stopWhenOrphaned();
  const code = await runSuite(
    [bin, 'run', '--config', 'contract-tests/vitest.config.ts', ...parsed.argv],
    root,
    process.env,
  );
  if (typeof code === 'string') {
    console.error(code);
    return 2;
  }
  return code;
}

process.exitCode = await main();
