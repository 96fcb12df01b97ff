import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// White-box unit tests of engine internals (the linear algebra, the constraint models, the scene
// parser and its text helpers, the collision narrow phase, the contact solvers): they test
// functions the engine deliberately does not export, so they may import past src/engine/index.ts.
// Every other file outside src/engine/ goes through the index.
export const ENGINE_WHITE_BOX_TESTS = [
  'test/unit/assemble-fast.test.ts',
  'test/unit/collision-detect.test.ts',
  'test/unit/collision-fuzz.test.ts',
  'test/unit/collision-helpers.ts',
  'test/unit/collision-narrow.test.ts',
  'test/unit/collision-properties.test.ts',
  'test/unit/collision-sweep-memo.test.ts',
  'test/unit/constraints-chain.test.ts',
  'test/unit/constraints-coupler.test.ts',
  'test/unit/constraints.test.ts',
  'test/unit/contact-coupler.test.ts',
  'test/unit/contact-helpers.ts',
  'test/unit/contact-jacobian.test.ts',
  'test/unit/contact-newton.test.ts',
  'test/unit/contact-pgs.test.ts',
  'test/unit/contact-pgs-block.test.ts',
  'test/unit/contact-pgs-converge.test.ts',
  'test/unit/pgs-workspace.test.ts',
  'test/unit/pgs-accelerated.test.ts',
  'test/unit/contact-sleep.test.ts',
  'test/unit/bilateral-block-envelope.test.ts',
  'test/unit/bilateral-block-tree.test.ts',
  'test/unit/contact-sparse-lu.test.ts',
  'test/unit/contact-schur.test.ts',
  'test/unit/engine-regressions.test.ts',
  'test/unit/engine-small-solve.test.ts',
  'test/unit/engine-text-edits.test.ts',
  'test/unit/tendon-jacobian.test.ts',
  'test/unit/hinge-group-jacobian.test.ts',
  'test/unit/chain-coordinate.test.ts',
  'test/unit/chain-rotation.test.ts',
  // The importer's analytic rows follow the engine's row conventions (perpendicularBasis, quaternions).
  'test/unit/import-helpers.ts',
  'test/unit/import-loops.test.ts',
  'test/unit/joint-limits.test.ts',
  'test/unit/drive-blocks.test.ts',
  'test/unit/limits.test.ts',
  'test/unit/finite-bounds.test.ts',
  'test/unit/finite-contacts.test.ts',
  'test/unit/forces.test.ts',
  'test/unit/linalg-block.test.ts',
  // msd-sim's constraints, solver and step in quaternion coordinates, checked against MSD-CPP's own tests.
  'test/unit/msd-quaternion.test.ts',
  'test/unit/linalg-cholesky.test.ts',
  'test/unit/linalg-condest.test.ts',
  'test/unit/linalg-dense.test.ts',
  'test/unit/linalg-fixtures.ts',
  'test/unit/linalg-redundancy.test.ts',
  'test/unit/linalg-svd.test.ts',
  'test/unit/linalg-refactor.test.ts',
  'test/unit/linalg-reference.ts',
  'test/unit/linalg-solve.test.ts',
  'test/unit/linalg-sparse.test.ts',
  'test/unit/linalg-tall.test.ts',
  'test/unit/scene-fuzz.test.ts',
  'test/unit/scene-parse.test.ts',
  'test/unit/scene-schema.test.ts',
  'test/unit/scene-shapes.test.ts',
  'test/unit/soft-contact.test.ts',
  'test/unit/soft-contact-rows.test.ts',
  'test/unit/soft-contact-pyramid.test.ts',
  'test/unit/step-hot-path.test.ts',
  'test/unit/step-scratch.test.ts',
];

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', '.e2e/**', 'test-results/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'readonly', URL: 'readonly', performance: 'readonly', queueMicrotask: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'error' },
  },
  {
    // The engine is the bottom of the whole program: from any depth of src/engine it imports none of
    // the code built on it (the extension, the panel, the importers, the CLI, the presentation
    // module, the wire protocol) and no vscode. Its own layers are checked by test/unit/engine-layers.test.ts.
    files: ['src/engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^vscode(/|$)', message: 'The engine is pure TypeScript: no vscode.' },
            {
              regex: '^(\\.\\./)+(src/)?(extension|webview|import|cli|shared|protocol\\w*)(\\.ts)?(/|$)',
              message: 'The engine imports nothing built on it (extension, webview, import, cli, shared, protocol); see docs/architecture.md.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'window', 'document', 'eval'],
    },
  },
  {
    // The engine's one door: outside src/engine/, import `…/engine` (its index.ts), never a file inside it.
    files: ['**/*.ts', '**/*.mts', '**/*.mjs', '**/*.js'],
    ignores: ['src/engine/**', ...ENGINE_WHITE_BOX_TESTS],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)engine/(?!index(\\.ts)?$)',
              message: 'Import the engine through its index (`…/engine`), its only door; see docs/architecture.md.',
            },
          ],
        },
      ],
    },
  },
  {
    // The shared presentation module runs in the CLI, the extension host, the worker, the panel and the report.
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['vscode', 'node:*', 'fs', 'path', '../extension/*', '../../webview/*', '../engine/*'] }],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'process', 'Buffer', 'require', '__dirname', 'eval'],
    },
  },
);
