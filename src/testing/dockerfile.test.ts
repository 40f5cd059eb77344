/**
 * The Dockerfile, checked without Docker (none on the machines that run the tests): its stages, what
 * each copies and in which order, and its entrypoint, against package.json, the lockfile and the tree.
 * `npm run lint:docker` checks its syntax; a real `docker build` is not run here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/load.js';
// @ts-expect-error: a plain .mjs script without types
import { closure } from '../../scripts/runtime-deps.mjs';

const root = packageRoot();
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8'));
const dockerignore = readFileSync(join(root, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  name: string;
  from: string;
  steps: Instruction[];
}

/** The Dockerfile as stages of instructions (continuation lines joined, comments dropped). */
function parseDockerfile(text: string): Stage[] {
  const joined = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of joined) {
    const [, op, args] = /^(\w+)\s+(.*)$/.exec(line) ?? [];
    if (!op) continue;
    if (op.toUpperCase() === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args!.trim())!;
      stages.push({ from: m[1]!, name: m[2] ?? `#${stages.length}`, steps: [] });
    } else stages.at(-1)!.steps.push({ op: op.toUpperCase(), args: args!.trim() });
  }
  return stages;
}

const stages = parseDockerfile(readFileSync(join(root, 'Dockerfile'), 'utf8'));
const stage = (name: string) => stages.find((s) => s.name === name)!;
/** The stage and the ones it is built FROM, base first. */
const lineage = (s: Stage): Stage[] =>
  stages.some((x) => x.name === s.from) ? [...lineage(stage(s.from)), s] : [s];
const copies = (s: Stage) =>
  s.steps
    .filter((i) => i.op === 'COPY')
    .map((i) => {
      const words = i.args
        .split(/\s+/)
        .filter((w) => !w.startsWith('--') || w.startsWith('--from'));
      const from = words[0]!.startsWith('--from=')
        ? words.shift()!.slice('--from='.length)
        : undefined;
      return { from, sources: words.slice(0, -1), dest: words.at(-1)! };
    });
const runtime = stages.at(-1)!;

describe('the Dockerfile (checked without Docker)', () => {
  it('has a deps, a build, a runtime-deps and an unnamed runtime stage on one Node 20 base', () => {
    expect(stages.map((s) => s.name)).toEqual(['deps', 'build', 'runtime-deps', '#3']);
    expect(stage('build').from).toBe('deps');
    expect(stage('runtime-deps').from).toBe('deps');
    expect(new Set([stage('deps').from, runtime.from])).toEqual(new Set(['node:20-bookworm-slim']));
    expect(pkg.engines.node).toBe('>=20');
  });

  it('installs from package*.json alone, before any source is copied (a source change never recompiles better-sqlite3)', () => {
    const deps = stage('deps');
    const steps = deps.steps.map((i) => `${i.op} ${i.args}`);
    const install = steps.findIndex((s) => /^RUN .*npm ci\b/.test(s));
    expect(install).toBeGreaterThan(0);
    expect(copies(deps).flatMap((c) => c.sources)).toEqual(['package.json', 'package-lock.json']);
    expect(steps[install]).toMatch(/npm rebuild better-sqlite3/);
    const build = stage('build');
    expect(copies(build).flatMap((c) => c.sources)).toContain('src');
    expect(build.steps.at(-1)).toEqual({ op: 'RUN', args: 'npm run build' });
  });

  it('copies into the build everything `npm run build` compiles and runs', () => {
    const copied = new Set(
      lineage(stage('build')).flatMap((s) => copies(s).flatMap((c) => c.sources)),
    );
    const tsBuild = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as {
      include: string[];
    };
    for (const inc of tsBuild.include)
      expect(copied, `tsconfig.build.json includes ${inc}`).toContain(inc.split('/')[0]);
    for (const file of ['tsconfig.json', 'tsconfig.build.json', 'scripts', 'openapi'])
      expect(copied).toContain(file);
    for (const used of pkg.scripts.build.match(/\b(?:scripts|dist)\/[\w./-]+/g) as string[]) {
      if (used.startsWith('scripts/')) expect(existsSync(join(root, used)), used).toBe(true);
    }
  });

  it('runs the bin of package.json, and the runtime has what `start` and `contract` read', () => {
    const entry = runtime.steps.find((i) => i.op === 'ENTRYPOINT')!;
    expect(JSON.parse(entry.args)).toEqual(['node', pkg.bin.paysandbox]);
    expect(pkg.bin.paysandbox).toMatch(/^dist\//);
    const all = copies(runtime);
    expect(all.find((c) => c.sources.includes('/app/dist'))?.from).toBe('build');
    expect(all.find((c) => c.sources.includes('/app/node_modules'))?.from).toBe('runtime-deps');
    const local = all.filter((c) => !c.from).flatMap((c) => c.sources);
    // The document, the fixtures, and the suite with the src/ modules it imports (vitest runs the TypeScript).
    for (const needed of [
      'package.json',
      'openapi',
      'fixtures',
      'contract-tests',
      'src',
      'tsconfig.json',
    ])
      expect(local).toContain(needed);
    // The suite's imports of src/ resolve inside the copied src/ (as TypeScript, which vitest runs).
    const harness = ['contract-tests/harness', 'contract-tests/cases'].flatMap((d) =>
      readdirSync(join(root, d))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(root, d, f)),
    );
    const imports = harness.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(/from '(?:\.\.\/)+(src\/[^']+)\.js'/g)].map(
        (m) => m[1]!,
      ),
    );
    expect(imports.length).toBeGreaterThan(0);
    for (const m of imports) expect(existsSync(join(root, `${m}.ts`)), m).toBe(true);
    expect(runtime.steps.some((i) => i.op === 'USER' && i.args === 'node')).toBe(true);
    expect(runtime.steps.some((i) => i.op === 'HEALTHCHECK')).toBe(true);
  });

  it('every local COPY source exists and is not left out of the build context by .dockerignore', () => {
    for (const s of stages) {
      for (const c of copies(s).filter((x) => !x.from)) {
        for (const src of c.sources) {
          expect(existsSync(join(root, src)), `${s.name}: COPY ${src}`).toBe(true);
          expect(dockerignore, `${src} is in .dockerignore`).not.toContain(src);
        }
      }
    }
  });

  it('keeps a slim runtime: no compiler, and only production dependencies plus vitest (with what they need)', () => {
    expect(
      runtime.steps.some((i) => i.op === 'RUN' && /apt-get|g\+\+|npm (ci|install)/.test(i.args)),
    ).toBe(false);
    const prune = stage('runtime-deps').steps.find((i) => i.op === 'RUN')!.args;
    expect(prune).toMatch(/node scripts\/runtime-deps\.mjs vitest/);
    const keep: Set<string> = closure(lock, [...Object.keys(pkg.dependencies), 'vitest']);
    for (const dep of [...Object.keys(pkg.dependencies), 'vitest', 'vite'])
      expect(keep, dep).toContain(`node_modules/${dep}`);
    for (const dev of [
      'typescript',
      '@stryker-mutator/core',
      'playwright-core',
      'dependency-cruiser',
      'autocannon',
    ]) {
      expect(keep, dev).not.toContain(`node_modules/${dev}`);
    }
    // What the contract command runs: vitest's CLI, found from the package root.
    expect(existsSync(join(root, 'node_modules', 'vitest', 'vitest.mjs'))).toBe(true);
  });
});
