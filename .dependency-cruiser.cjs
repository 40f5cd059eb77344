/**
 * The layering rules of src/ (docs/design.md#architecture), checked by `npm run lint:deps` in CI.
 *
 * It reads JavaScript compiled from src/ into .lint-deps/ (tests are not compiled): dependency-cruiser
 * cannot parse TypeScript 7 itself, and what runs is what couples modules — the compiler erases
 * type-only imports. The outbox (src/events) is shared infrastructure, not a module's repository.
 */
const SRC = '^\\.lint-deps/src/';
const FEATURES = `${SRC}(identities|invoices|payments|ledger|orders|transfers|outlets|wallet|checkout|callbacks|control|workspaces|receiver-check|cli|client)/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle among the modules of src/.',
      from: { path: SRC },
      to: { circular: true },
    },
    {
      name: 'http-imports-no-feature',
      severity: 'error',
      comment: 'src/http is the transport: feature modules plug into it (src/modules.ts); it never reaches into them.',
      from: { path: `${SRC}http/` },
      to: { path: FEATURES },
    },
    {
      name: 'services-is-infrastructure',
      severity: 'error',
      comment: 'src/services.ts holds only the shared infrastructure; feature modules are built by their factories in src/modules.ts.',
      from: { path: `${SRC}services\\.js$` },
      to: { path: FEATURES },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment: "A module reads another module's data through that module's api, never its repository.",
      from: { path: `${SRC}([^/]+)/` },
      to: { path: `${SRC}[^/]+/[^/]+\\.repo\\.js$`, pathNot: `${SRC}($1|events)/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^node_modules/|\\.d\\.ts$|\\.map$' },
  },
};
