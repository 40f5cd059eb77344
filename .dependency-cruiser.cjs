/**
 * The layering rules of src/ (docs/design.md#architecture), checked by `npm run lint:deps` in CI.
 *
 * It reads JavaScript that scripts/lint-deps-prepare.ts writes from src/ into .lint-deps/ (tests and
 * src/testing left out): dependency-cruiser cannot parse TypeScript 7 itself, and the script keeps every
 * type-only import as an import, because a type couples two modules as much as a value does. The
 * outbox (src/events) is shared infrastructure, not a module's repository.
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
      comment:
        'src/http is the transport: feature modules plug into it (src/modules.ts); it never reaches into them. ' +
        'It names only the callers a handler receives (Merchant, App: the identities api types).',
      from: { path: `${SRC}http/` },
      to: { path: FEATURES, pathNot: `${SRC}identities/identities\\.api\\.js$` },
    },
    {
      name: 'auth-and-spec-below-http',
      severity: 'error',
      comment:
        'src/auth (who is calling) and src/spec (the document, its validators) sit below the transport: ' +
        'errors come from src/shared/api-error.ts, and only src/http renders them.',
      from: { path: `${SRC}(auth|spec|shared)/` },
      to: { path: `${SRC}http/` },
    },
    {
      name: 'services-is-infrastructure',
      severity: 'error',
      comment:
        'src/services.ts holds only the shared infrastructure; feature modules are built by their factories in src/modules.ts.',
      from: { path: `${SRC}services\\.js$` },
      to: { path: FEATURES },
    },
    {
      name: 'no-foreign-repository',
      severity: 'error',
      comment:
        "A module reads another module's data through that module's api (<module>.api.ts, domain types), " +
        'never its repository nor its row types (which live in the repository).',
      from: { path: `${SRC}([^/]+)/` },
      to: { path: `${SRC}[^/]+/[^/]+\\.repo\\.js$`, pathNot: `${SRC}($1|events)/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^node_modules/|\\.d\\.ts$|\\.map$' },
  },
};
