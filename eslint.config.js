// One flat config for the whole repo: typescript-eslint everywhere, React rules for the web app.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import prettier from 'eslint-config-prettier';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      // The web app talks to the server only through the contract, never through server code.
      'no-restricted-imports': ['error', { patterns: ['**/apps/server/**', '@inkwell/server'] }],
    },
  },
  {
    // The browser suite is Node code that drives a browser: its use* helpers (useScenario) set up
    // Vitest hooks, at a file's top level when the file's scenarios share one server.
    files: ['apps/web/e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    // Multipart bodies are read through lib/multipart-form.ts, which answers the parser's
    // failures (no boundary, a form cut short) as 400s instead of letting them become 500s.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['apps/server/src/lib/multipart-form.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(parts|file|files|saveRequestFiles|formData)$/][callee.object.name=/^(req|request)$/]',
          message: 'Read multipart bodies with lib/multipart-form.ts (formParts, firstFormFile).',
        },
      ],
    },
  },
  {
    // Small files with one purpose: a server source file that grows past 400 lines is split.
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*.test-helper.ts', '**/*.fixture.ts'],
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['**/apps/**', '@inkwell/server', '@inkwell/web'] },
      ],
    },
  },
  prettier,
);
