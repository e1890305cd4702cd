/**
 * `npm run lint:code`: import cycles, the layers of src/, and the bugs TypeScript lets through. The rule set
 * is small on purpose: rules that keep the architecture or find bugs, no style (Prettier owns that).
 */
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/, lowest first: a module imports from its own layer or a lower one, never from a higher.
 * Folders of one layer may import each other, except the two ways of serving MCP's eras (below).
 */
const LAYERS = [
  ['lib'],
  ['protocol', 'config.ts', 'principal.ts'],
  ['http', 'observability'],
  // The product core: what n8n's nodes and workflows are, nothing of MCP or of who asks.
  ['catalog', 'workflows', 'n8n', 'history', 'templates'],
  // The workflow view: an MCP App's browser code (and its built HTML), which imports nothing of the server.
  ['view'],
  // Who may call, and which n8n a caller's workspace brings.
  ['auth', 'workspaces'],
  ['tools'],
  // One server core…
  ['server'],
  // …served these ways.
  ['sessions', 'stateless', 'tasks', 'queues'],
  ['page', 'routes', 'worker.ts'],
];

const src = (entry) => `./src/${entry}`;
/**
 * Outside the layers: src/env.ts types the Worker's bindings, which name the Durable Object classes and the
 * queue message they carry, and every layer reads Env. It holds types only (checked below).
 */
const WIRING = ['env.ts'];
const layered = [...LAYERS.flat(), ...WIRING];
// A folder or file of src/ that no layer names is reported until it gets one.
const unlayered = readdirSync(new URL('./src', import.meta.url)).filter((entry) => !layered.includes(entry));
const NO_LAYER = `src/${unlayered.join(', src/')} is in no layer: add it to LAYERS in eslint.config.js, or move it out of src/.`;
const ERAS_APART = 'sessions and stateless never import each other: what they share belongs in src/server or lower.';

const zones = [
  ...LAYERS.slice(0, -1).map((layer, index) => {
    const higher = LAYERS.slice(index + 1).flat();
    return {
      target: layer.map(src),
      from: higher.map(src),
      message: `${layer.join(', ')} may not import from a higher layer (${higher.join(', ')}): see LAYERS in eslint.config.js.`,
    };
  }),
  { target: src('sessions'), from: src('stateless'), message: ERAS_APART },
  { target: src('stateless'), from: src('sessions'), message: ERAS_APART },
  { target: './src', from: './test', message: 'Nothing in src/ imports from test/: test-only code is composed in the test entry.' },
  ...(unlayered.length === 0
    ? []
    : [
        { target: unlayered.map(src), from: './src', message: NO_LAYER },
        { target: layered.map(src), from: unlayered.map(src), message: NO_LAYER },
      ]),
];

export default defineConfig(
  globalIgnores(['.wrangler/', 'coverage/', 'bench/results/', '.catalog/', '.n8n/', '.eval/', '.tmp/', 'test/e2e/.artifacts/', 'test/conformance/.results/']),
  {
    files: ['**/*.{ts,js}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    plugins: { 'import-x': importX },
    languageOptions: {
      parserOptions: { project: ['./tsconfig.json', './tsconfig.browser.json'], tsconfigRootDir: import.meta.dirname },
    },
    settings: {
      // import-x parses the modules an import leads to (for cycles), as TypeScript.
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // TypeScript knows which names exist (public/assets/page.js is checked through its JSDoc).
      'no-undef': 'off',
      // The architecture: no import cycle, and the layers above.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': ['error', { zones }],
      // `const { secret: _, ...rest } = o` is how a field is left out.
      '@typescript-eslint/no-unused-vars': ['error', { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `declare global { namespace Cloudflare { interface Env extends ProjectEnv {} } }` is how Cloudflare's Env is typed.
      '@typescript-eslint/no-namespace': ['error', { allowDeclarations: true }],
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      // Tests, scripts and benchmarks read untyped JSON freely; src/ does not (below).
      '@typescript-eslint/no-explicit-any': 'off',
      // Type-aware rules that find bugs: a promise nobody awaits or catches (an unhandled rejection), a promise
      // where a callback's result is dropped, "[object Object]" (or a TypeError) from String() of an object,
      // code built from a string, and a throw or rejection of something that is not an Error.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-base-to-string': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      '@typescript-eslint/only-throw-error': 'error',
      '@typescript-eslint/prefer-promise-reject-errors': 'error',
    },
  },
  { files: ['src/**'], rules: { '@typescript-eslint/no-explicit-any': 'error' } },
  // The landing page's script: an async DOM event listener is how a page awaits inside one (its errors are caught in it).
  { files: ['public/**'], rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }] } },
  // The wiring outside the layers imports types only: nothing of a higher layer runs because of it.
  {
    files: WIRING.map((entry) => `src/${entry}`),
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', disallowTypeAnnotations: false }],
      'import-x/no-restricted-paths': 'off',
    },
  },
  // This file is in no TypeScript project: no type-aware rules.
  { files: ['eslint.config.js'], extends: [tseslint.configs.disableTypeChecked] },
);
