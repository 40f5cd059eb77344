import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { editDistance } from '../shared/edit-distance.js';
import { packageRoot } from '../spec/load.js';

/** Bad usage: printed as one line on stderr, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export type OptionSpec = Record<
  string,
  { type: 'string' | 'boolean'; short?: string; multiple?: boolean }
>;

/** The candidate closest to `given`, if it is close enough to be a typo (or `given` is a prefix of it). */
export function closest(given: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const score =
      c.startsWith(given) && given.length >= 2 ? 0.5 : editDistance(given, c, { swaps: true });
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return bestScore <= Math.max(1, Math.floor(given.length / 3)) ? best : undefined;
}

/**
 * `parseArgs`, strict, with the errors a person can act on: an unknown flag names the closest known
 * one ("unknown flag --prot; did you mean --port?"), a flag without its value says so.
 */
export function parseCommandArgs(
  args: string[],
  options: OptionSpec,
  opts: { positionals?: boolean } = {},
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  const names = Object.keys(options);
  // `--port -1`: a value that looks like a negative number is the flag's value (parseArgs would call it
  // "ambiguous"), so that its own check can say what is wrong with it.
  const given = args;
  args = given.flatMap((arg, i) => {
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (
      name !== undefined &&
      options[name]?.type === 'string' &&
      /^-[\d.]/.test(given[i + 1] ?? '')
    )
      return [`${arg}=${given[i + 1]}`];
    const before = given[i - 1] ?? '';
    if (
      /^-[\d.]/.test(arg) &&
      before.startsWith('--') &&
      !before.includes('=') &&
      options[before.slice(2)]?.type === 'string'
    )
      return [];
    return [arg];
  });
  for (const arg of args) {
    if (arg === '--') break;
    if (!arg.startsWith('--')) continue;
    const [name = ''] = arg.slice(2).split('=');
    if (options[name]) continue;
    const guess = closest(name, names);
    throw new UsageError(`unknown flag --${name}${guess ? `; did you mean --${guess}?` : ''}`);
  }
  try {
    const { values, positionals } = parseArgs({
      args,
      options,
      strict: true,
      allowPositionals: opts.positionals === true,
    });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (err) {
    const e = err as Error & { code?: string };
    const missing = /^Option '(-\w, )?(--[\w-]+) <value>' argument missing/.exec(e.message);
    if (missing) throw new UsageError(`${missing[2]} needs a value`);
    // `--limit --all`: the next word is a flag, not this one's value.
    const ambiguous = /^Option '(-\w, )?(--[\w-]+)' argument is ambiguous/.exec(e.message);
    if (ambiguous)
      throw new UsageError(
        `${ambiguous[2]} needs a value (one that starts with "-" goes as ${ambiguous[2]}=-VALUE)`,
      );
    const short = /^Unknown option '(-\w)'/.exec(e.message);
    if (short) throw new UsageError(`unknown flag ${short[1]}`);
    const positional = /^Unexpected argument '([^']*)'/.exec(e.message);
    if (positional) throw new UsageError(`unexpected argument "${positional[1]}"`);
    if (e.code?.startsWith('ERR_PARSE_ARGS')) {
      const [firstLine = ''] = e.message.split('\n');
      throw new UsageError(firstLine);
    }
    throw err;
  }
}

/**
 * A flag's whole-number value, digits only (not `1e3`, `1.5`, `0x10`, ` 5` or `-1`, which `Number`
 * would take or round), of at least `min`.
 */
export function wholeNumberFlag(text: string, flag: string, min = 0): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min)
    throw new UsageError(
      `--${flag} must be a whole number${min > 0 ? ` of at least ${min}` : ''}, got "${text}"`,
    );
  return n;
}

/** The version of the installed package (package.json next to openapi/). */
export function packageVersion(): string {
  return (
    JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }
  ).version;
}
