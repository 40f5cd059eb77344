// `npm run lint:deps`, step 1: src/ as JavaScript that keeps every import, type-only ones included, for
// dependency-cruiser (.dependency-cruiser.cjs), which cannot parse TypeScript 7 itself. A type import
// couples two modules as much as a value import does, so `import type { X }` is written as `import { X }`
// and esbuild keeps every import as written (verbatimModuleSyntax). The output is never run.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { transformSync } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, '.lint-deps');
// What ships (tsconfig.build.json): no tests, no test support, nothing of src/testing.
const skipped = (path: string) =>
  /\.test(-support)?\.tsx?$/.test(path) || path.startsWith(join(root, 'src', 'testing'));

/** The source with every type-only import and re-export written as a value one. */
export function keepTypeImports(code: string): string {
  return (
    code
      // eslint-disable-next-line regexp/no-super-linear-move -- the repository's own source, not client input
      .replace(/^(\s*import)\s+type\s+(?=[{*\w])/gm, '$1 ')
      // eslint-disable-next-line regexp/no-super-linear-move -- the repository's own source, not client input
      .replace(/^(\s*export)\s+type\s+(?=[{*])/gm, '$1 ')
      .replace(
        /(import|export)\s*\{([^}]*)\}\s*from/g,
        (_, kw: string, names: string) =>
          `${kw} {${names.replace(/(^|,)(\s*)type\s+/g, '$1$2')}} from`,
      )
  );
}

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !skipped(path))
      yield path;
  }
}

/** A TypeScript source as JavaScript with every import it names, type-only ones included. */
export function toJsKeepingImports(source: string, tsx = false): string {
  return transformSync(keepTypeImports(source), {
    loader: tsx ? 'tsx' : 'ts',
    format: 'esm',
    tsconfigRaw: {
      compilerOptions: {
        verbatimModuleSyntax: true,
        jsx: 'react-jsx',
        jsxImportSource: 'hono/jsx',
      },
    },
  }).code;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  rmSync(out, { recursive: true, force: true });
  let n = 0;
  for (const path of sources(join(root, 'src'))) {
    const target = join(out, relative(root, path)).replace(/\.tsx?$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, toJsKeepingImports(readFileSync(path, 'utf8'), path.endsWith('.tsx')));
    n++;
  }
  console.log(
    `lint-deps: ${n} files of src/ with their type imports kept, in ${relative(root, out)}/`,
  );
}
