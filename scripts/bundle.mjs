#!/usr/bin/env node
// Step 2 of `npm run build` (after tsc): bundle the CLI (dist/src/cli/main.js and everything it
// imports statically, hono included) into that one file, so `npm start` / the `paysandbox` bin /
// the Docker image load one module instead of ~170 (issue 7, cold start: docs/benchmarks.md).
//
// The rest of dist/ stays as tsc wrote it: the package exports (dist/src/index.js, ./client), the
// spec precompiler and the modules loaded on demand (`paysandbox fixtures` → dist/src/fixtures/
// generate.js, which brings faker) are not in the bundle. Code that finds files relative to its own
// module (openapi/, dist/src/spec/generated/, swagger-ui-dist, the validators' fingerprint of their own
// source) sees the URL of the module it was compiled to, not that of the bundle: every
// `import.meta.url` of a bundled dist module is rewritten to that module's URL, relative to the bundle.
//
// Kept external: Node built-ins, better-sqlite3 (its native addon is found relative to its own files),
// and packages loaded lazily through createRequire (yaml, ajv, bwip-js, swagger-ui-dist).
import { build } from 'esbuild';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIST_SRC = join(ROOT, 'dist', 'src');
const ENTRY = join(DIST_SRC, 'cli', 'main.js');
// `--out FILE` (in dist/src/cli/) writes the bundle beside the entry instead of over it (to compare).
const outArg = process.argv.indexOf('--out');
const OUT = outArg > 0 ? join(ROOT, process.argv[outArg + 1]) : ENTRY;
if (dirname(OUT) !== dirname(ENTRY)) throw new Error('--out must be in dist/src/cli/');
const TMP = join(DIST_SRC, 'cli', 'main.bundle.tmp.js');

/** Dynamic imports of dist modules (`await import('../fixtures/generate.js')`, the parity engine) stay separate modules. */
const LAZY = new Set([
  join(DIST_SRC, 'fixtures', 'generate.js'),
  join(DIST_SRC, 'parity', 'index.js'),
]);

const moduleUrls = {
  name: 'module-urls',
  setup(b) {
    b.onResolve({ filter: /^\./ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      const target = join(args.resolveDir, args.path);
      if (!LAZY.has(target))
        throw new Error(
          `bundle: unexpected dynamic import ${args.path} in ${args.importer}: add it to LAZY`,
        );
      // Same directory as the entry, so the relative specifier stays valid from the bundle.
      return { path: args.path, external: true };
    });
    b.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(DIST_SRC + sep)) return undefined;
      const code = await readFile(args.path, 'utf8');
      if (!code.includes('import.meta.url')) return { contents: code, loader: 'js' };
      const rel = relative(dirname(ENTRY), args.path).split(sep).join('/');
      const url = `new URL(${JSON.stringify(rel.startsWith('.') ? rel : `./${rel}`)}, import.meta.url).href`;
      return { contents: code.replaceAll('import.meta.url', url), loader: 'js' };
    });
  },
};

const BANNER =
  "import { createRequire as __bundleCreateRequire } from 'node:module';\nconst require = __bundleCreateRequire(import.meta.url);";
if ((await readFile(ENTRY, 'utf8')).includes(BANNER)) {
  throw new Error(
    `${relative(ROOT, ENTRY)} is already a bundle: run tsc first (npm run build does both)`,
  );
}

const result = await build({
  entryPoints: [ENTRY],
  outfile: TMP,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // better-sqlite3 finds its native addon relative to its own files (through `bindings`): it stays a
  // package of its own, loaded from node_modules as before (~10 small files).
  external: ['better-sqlite3'],
  // CommonJS inside the bundle requires Node built-ins at run time.
  banner: { js: BANNER },
  plugins: [moduleUrls],
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
const inputs = Object.keys(result.metafile.inputs).length;
const name = OUT.slice(dirname(OUT).length + 1);
const code = (await readFile(TMP, 'utf8')).replace(
  /\/\/# sourceMappingURL=.*$/m,
  `//# sourceMappingURL=${name}.map`,
);
const map = JSON.parse(await readFile(`${TMP}.map`, 'utf8'));
await writeFile(`${OUT}.map`, JSON.stringify({ ...map, file: name }));
await writeFile(OUT, code);
await rm(TMP, { force: true });
await rm(`${TMP}.map`, { force: true });
console.log(
  `bundled ${inputs} modules into ${relative(ROOT, OUT)} (${(code.length / 1024).toFixed(0)} KiB)`,
);
