// `npm run lint`: ESLint with typescript-eslint over the project's TypeScript (docs/design.md#architecture).
// It lives in tools/lint with its own dependencies: typescript-eslint parses with the TypeScript
// JavaScript API (typescript < 6.1), which TypeScript 7, the project's compiler, no longer ships. The
// parser runs without type information (no program is built), so linting stays a few seconds.
// eslint-plugin-regexp refuses regular expressions that can take super-linear time
// (docs/design.md#input-handling).
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // The repository root, so that patterns below read as paths of the project.
  { basePath: '../..' },
  {
    ignores: [
      '**/node_modules/**',
      'dist/**',
      '.lint-deps/**',
      '.stryker-tmp/**',
      'reports/**',
      'test-artifacts/**',
      'src/spec/generated/**',
      // Generated from openapi/openapi.yaml (npm run gen:types).
      'src/spec/operations.generated.ts',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { '@typescript-eslint': tseslint.plugin, regexp },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The caller and every value are typed (house style 4a): no `!`, no `any`.
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // No regular expression whose time grows faster than its input: one request must not hold
      // the single event loop (docs/design.md#input-handling).
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
  {
    // Tests and their helpers read only the repository's own text (its documents, its README, the
    // output of the processes they start), never a client's: the two rules are for the code that
    // serves or reads what others send (docs/design.md#input-handling).
    files: [
      '**/*.test.ts',
      '**/*.test.tsx',
      '**/*.test-support.ts',
      'src/testing/**',
      'contract-tests/meta/**',
    ],
    rules: {
      'regexp/no-super-linear-backtracking': 'off',
      'regexp/no-super-linear-move': 'off',
    },
  },
  {
    // The same two rules for the JavaScript of the repository (scripts, bundler, examples).
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
    },
  },
);
