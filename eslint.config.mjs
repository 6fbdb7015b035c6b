/**
 * ESLint (`npm run lint`, part of `npm test`): the Next.js rules (core web vitals, TypeScript) and
 * the project's import boundaries, which keep the arrows pointing one way (docs/architecture.md):
 * app → components → hooks → lib, config beside lib, screens on the data layer (hooks/data/) instead
 * of lib/api, and the companion server on the shared `lib/contract` and `lib/proto` modules only.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FlatCompat } from '@eslint/eslintrc';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';

const compat = new FlatCompat({ baseDirectory: dirname(fileURLToPath(import.meta.url)) });

/** A restricted-imports rule: value imports matching `group` are refused with `message`; `import type` passes when `allowTypes`. */
function refuse(rules, { allowTypes = false } = {}) {
  return [
    'error',
    { patterns: rules.map(({ group, message }) => ({ group, message, allowTypeImports: allowTypes })) },
  ];
}

const UI = { group: ['@/app', '@/app/*', '@/components', '@/components/*'], message: 'lib/, hooks/ and config/ never import UI (app/, components/).' };
const HOOKS = { group: ['@/hooks', '@/hooks/*'], message: 'lib/ and config/ never import hooks/; hooks import lib.' };
const DATA = { group: ['@/lib/api', '@/lib/api/*'], message: 'Screens read and write through the data layer (hooks/data/), never lib/api directly.' };
const ESCAPE = { group: ['../../*', '!../../lib/contract/*'], message: 'Import other top-level folders through the @/ alias, so the boundaries below can see them.' };

const config = [
  { ignores: ['node_modules/**', '.next/**', 'out/**', 'out-preview/**', 'test-results/**', 'lib/proto/**', 'next-env.d.ts'] },
  ...compat.extends('next/core-web-vitals', 'next/typescript'),
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // No import cycles in the product's code. Tests, e2e/, bench/ and scripts/ are left out: nothing
    // imports them, so they cannot close a cycle. eslint-plugin-import-x's rule, not
    // eslint-plugin-import's: that one re-serialises the whole language options (every global of the
    // browser and Node) for each import it follows, 54 s of an 88 s lint; this one takes under a second.
    files: ['**/*.{ts,tsx,mjs}'],
    ignores: ['**/*.test.{ts,tsx}', 'e2e/**', 'bench/**', 'scripts/**'],
    plugins: { 'import-x': importX },
    settings: {
      // Follow TypeScript files too (by default the rule parses only JavaScript), resolving `@/` through tsconfig.json.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // The companion server reads and writes its store asynchronously (server/db): a promise that is
    // not awaited would let a request answer before its write, or read a Promise as a value.
    files: ['server/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // jest.mock factories and the CommonJS jest environment load modules with require().
    files: ['**/*.test.{ts,tsx}', 'jest.environment.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Playwright's fixtures call `use`, which is not React's hook.
    files: ['e2e/**/*.ts'],
    rules: { 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['lib/**/*.{ts,tsx}', 'config/**/*.ts'],
    rules: { '@typescript-eslint/no-restricted-imports': refuse([UI, HOOKS]) },
  },
  {
    files: ['hooks/**/*.{ts,tsx}'],
    // A hook may name a component's prop type (e.g. the pagination labels), never import its code.
    rules: { '@typescript-eslint/no-restricted-imports': refuse([UI], { allowTypes: true }) },
  },
  {
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': refuse([{ group: ['@/app', '@/app/*'], message: 'components/ never import routes (app/).' }, DATA]),
    },
  },
  {
    // A test may build the API's error type to feed a component.
    files: ['components/**/*.test.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': refuse([{ group: ['@/app', '@/app/*'], message: 'components/ never import routes (app/).' }]),
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-restricted-imports': refuse([DATA]) },
  },
  {
    // Shared by the browser and Node: the wire contract only, no DOM and no Node APIs.
    files: ['lib/contract/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': refuse([
        { group: ['@/*', '!@/lib', '@/lib/*', '!@/lib/contract', '!@/lib/proto'], message: 'lib/contract is shared with the server: it imports only lib/contract and lib/proto.' },
        { group: ['node:*', 'react', 'react-dom', 'next', 'next/*'], message: 'lib/contract runs in the browser and in Node: no Node or React APIs.' },
      ]),
      'no-restricted-globals': ['error', 'window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'location', 'process'],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': refuse([
        { group: ['@/*', '!@/lib', '@/lib/*', '!@/lib/contract', '!@/lib/proto'], message: 'The server imports only the shared modules of lib/ (lib/contract, lib/proto).' },
        ESCAPE,
      ]),
    },
  },
];

export default config;
