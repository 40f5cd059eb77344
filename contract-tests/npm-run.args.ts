import { tagsExpressionProblem } from '../src/cli/contract.tags.js';

/** The flags that filter the suite by tag: ours (as `paysandbox contract` names it) and vitest's own. */
const TAG_FLAGS = new Set(['--tags', '--tags-filter']);

/** vitest's arguments for those of `npm run contract`, or the usage line that refuses them. */
export function vitestArgs(args: string[]): { argv: string[] } | { problem: string } {
  const argv: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    if (!TAG_FLAGS.has(flag)) {
      argv.push(arg);
      continue;
    }
    const expr = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (expr === undefined || expr === '') return { problem: `${flag} needs a value` };
    const problem = tagsExpressionProblem(expr);
    if (problem) return { problem: `${flag} "${expr}": ${problem}` };
    argv.push('--tags-filter', expr);
  }
  return { argv };
}
