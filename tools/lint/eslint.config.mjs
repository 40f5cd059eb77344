// `npm run lint`: ESLint with typescript-eslint over the project's TypeScript (docs/design.md#architecture).
// It lives in tools/lint with its own dependencies: typescript-eslint parses with the TypeScript
// JavaScript API (typescript < 6.1), which TypeScript 7, the project's compiler, no longer ships. The
// parser runs without type information (no program is built), so linting stays a few seconds.
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
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // The caller and every value are typed (house style 4a): no `!`, no `any`.
      '@typescript-eslint/no-non-null-assertion': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
);
