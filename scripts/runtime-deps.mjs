#!/usr/bin/env node
// The runtime's node_modules, pruned offline from a full install (the Dockerfile's runtime-deps stage):
// keeps the production dependencies and the packages named on the command line (vitest, for
// `paysandbox contract`), each with everything it needs according to package-lock.json, and deletes
// the rest. `npm prune --omit=dev` then `npm install vitest` would reach the registry and re-resolve.
//
//   node scripts/runtime-deps.mjs [--dry-run] vitest
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** Lockfile paths (`node_modules/a/node_modules/b`) of the closure of `roots`, resolved as Node does. */
export function closure(lock, roots, { withOptional = true } = {}) {
  const packages = lock.packages;
  const keep = new Set();
  const resolve = (from, name) => {
    // From `node_modules/a/node_modules/b`, look in …/b/node_modules, then up each level to the root.
    let base = from;
    for (;;) {
      const candidate = base ? `${base}/node_modules/${name}` : `node_modules/${name}`;
      if (packages[candidate]) return candidate;
      if (!base) return undefined;
      const cut = base.lastIndexOf('/node_modules/');
      base = cut < 0 ? '' : base.slice(0, cut);
    }
  };
  const visit = (path) => {
    if (keep.has(path)) return;
    keep.add(path);
    const p = packages[path];
    const wants = { ...p.dependencies, ...(withOptional ? p.optionalDependencies : {}) };
    for (const [name, meta] of Object.entries(p.peerDependencies ?? {})) {
      if (!p.peerDependenciesMeta?.[name]?.optional) wants[name] = meta;
    }
    for (const name of Object.keys(wants)) {
      const found = resolve(path, name);
      if (found) visit(found);
    }
  };
  for (const name of roots) {
    const found = resolve('', name);
    if (!found) throw new Error(`${name} is not in package-lock.json`);
    visit(found);
  }
  return keep;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dryRun = process.argv.includes('--dry-run');
  const extra = process.argv.slice(2).filter((a) => a !== '--dry-run');
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8'));
  const root = lock.packages[''];
  const keep = closure(lock, [...Object.keys(root.dependencies ?? {}), ...extra]);
  const drop = Object.keys(lock.packages).filter(
    (p) => p.startsWith('node_modules/') && !keep.has(p) && !lock.packages[p].link,
  );
  // Outermost first: removing node_modules/a also removes node_modules/a/node_modules/b.
  const dropped = drop.filter((p) => !drop.some((q) => p !== q && p.startsWith(`${q}/`)));
  for (const p of dropped) if (!dryRun) rmSync(join(p), { recursive: true, force: true });
  console.log(
    `runtime-deps: kept ${keep.size} packages, removed ${drop.length}${dryRun ? ' (dry run)' : ''}`,
  );
}
