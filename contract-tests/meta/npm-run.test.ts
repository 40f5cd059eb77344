/**
 * `npm run contract` (contract-tests/npm-run.ts): `--tags EXPR` as `paysandbox contract` takes it, vitest's
 * own `--tags-filter`, an unknown tag refused before anything runs, every other argument passed on.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/spec/load.js';
import { vitestArgs } from '../npm-run.args.js';

describe('npm run contract: its arguments', () => {
  it.each([
    [
      ['--tags', 'read || write'],
      ['--tags-filter', 'read || write'],
    ],
    [['--tags=read && !sandbox'], ['--tags-filter', 'read && !sandbox']],
    [
      ['--tags-filter', 'money'],
      ['--tags-filter', 'money'],
    ],
    [
      ['-t', 'lists invoices', '--tags', 'read', '--reporter=dot'],
      ['-t', 'lists invoices', '--tags-filter', 'read', '--reporter=dot'],
    ],
    [[], []],
  ])('%j goes to vitest as %j', (args, argv) => {
    expect(vitestArgs(args)).toEqual({ argv });
  });

  it.each([
    [['--tags', 'raed'], /^--tags "raed": .*raed.*read, write, money, sandbox/],
    [['--tags-filter', 'read ||'], /^--tags-filter "read \|\|": /],
    [['--tags'], /^--tags needs a value$/],
    [['--tags='], /^--tags needs a value$/],
  ])('%j is refused: %s', (args, line) => {
    const out = vitestArgs(args);
    expect('problem' in out && out.problem).toMatch(line);
  });

  it('an unknown tag exits 2 with one line, before vitest starts', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'contract-tests/npm-run.ts', '--tags', 'read || raed'],
      { cwd: packageRoot(), encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^npm run contract: --tags "read \|\| raed": .*raed/),
    ]);
    expect(run.stdout).toBe('');
  });
});
