/**
 * The README and docs/contract-tests.md list every CONTRACT_* variable the code reads and every flag
 * of `paysandbox contract`, in one table each: nobody has to read the source to configure a run.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { packageRoot } from '../../src/spec/load.js';

const root = packageRoot();

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'reports' ? [] : sources(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

const code = [...sources(join(root, 'contract-tests')), join(root, 'src', 'cli', 'contract.ts')]
  .map((f) => readFileSync(f, 'utf8'))
  .join('\n');
// Names the code reads from the environment (CONTRACT_REQUIRED_ENV is a constant, not a variable).
const variables = [...new Set(code.match(/CONTRACT_[A-Z0-9_]+/g))]
  .filter((v) => v !== 'CONTRACT_REQUIRED_ENV')
  .sort();
const cli = readFileSync(join(root, 'src', 'cli', 'contract.ts'), 'utf8');
const flags = [...cli.matchAll(/'?([a-z][a-z-]*)'?: \{ type: '(?:string|boolean)'/g)]
  .map((m) => `--${m[1]}`)
  .filter((f) => f !== '--help');

/** The rows of the Markdown table whose header starts with `| Variable |`. */
function contractTable(markdown: string): string {
  const start = markdown.indexOf('| Variable | Flag of `paysandbox contract` |');
  expect(
    start,
    'a table headed | Variable | Flag of `paysandbox contract` |',
  ).toBeGreaterThanOrEqual(0);
  const rows: string[] = [];
  for (const line of markdown.slice(start).split('\n')) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return rows.join('\n');
}

describe.each(['README.md', 'docs/contract-tests.md'])('%s', (file) => {
  const table = contractTable(readFileSync(join(root, file), 'utf8'));
  it('has every CONTRACT_* variable the code reads in its table', () => {
    expect(variables.length).toBeGreaterThan(10);
    expect(variables.filter((v) => !table.includes(`\`${v}`))).toEqual([]);
  });
  it('has every flag of paysandbox contract in its table', () => {
    expect(flags).toEqual(
      expect.arrayContaining([
        '--base-url',
        '--tags',
        '--reports',
        '--allow-money',
        '--read-only',
        '--min-interval',
      ]),
    );
    expect(flags.filter((f) => !table.includes(`\`${f}`))).toEqual([]);
  });
  it('its CI jobs: the permissions the JUnit reporter needs, every variable defined, the staging name rule and its override', () => {
    const text = readFileSync(join(root, file), 'utf8');
    const blocks = [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map(
      (m) => parseYaml(m[1]!) as Record<string, any>,
    );
    const gha = blocks.find((b) => b.name === 'contract-staging')!;
    expect(gha.permissions).toEqual({ contents: 'read', checks: 'write' });
    expect(JSON.stringify(gha.jobs)).toContain('mikepenz/action-junit-report');
    const gl = blocks.find((b) => b['contract-staging'])!['contract-staging'];
    const used = new Set(
      [...JSON.stringify(gl.script).matchAll(/\$\{?([A-Z_][A-Z0-9_]*)/g)].map((m) => m[1]!),
    );
    for (const name of used)
      if (!name.startsWith('CI_'))
        expect(Object.keys(gl.variables), `$${name} in the GitLab job`).toContain(name);
    expect(text).toMatch(/`stage`,\s+`staging`, `sandbox` or `test`/);
    expect(text).toContain('CONTRACT_I_KNOW_THIS_IS_PRODUCTION=1');
  });

  it('has a GitHub Actions and a GitLab CI job that run the contract command with JUnit', () => {
    const text = readFileSync(join(root, file), 'utf8');
    expect(text).toMatch(
      /```yaml\nname: contract-staging\n[\s\S]*?npm run paysandbox -- contract --base-url[\s\S]*?junit\.xml[\s\S]*?```/,
    );
    expect(text).toMatch(
      /```yaml\ncontract-staging:\n[\s\S]*?npm run paysandbox -- contract --base-url[\s\S]*?junit: contract-tests\/reports\/junit\.xml\n```/,
    );
  });
});
