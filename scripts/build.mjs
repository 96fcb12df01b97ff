// Bundles every entry point with esbuild. Entries whose source does not exist are skipped.
// Usage: node scripts/build.mjs [--watch] [--minify]
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';

const watch = process.argv.includes('--watch');
const minify = process.argv.includes('--minify');
// mainFields: prefer ESM builds (jsonc-parser's UMD build hides its requires from the bundler).
const common = { bundle: true, sourcemap: true, minify, logLevel: 'warning', legalComments: 'none', mainFields: ['module', 'main'] };

const entries = [
  // The engine as a library (`constraint-lens/engine`, docs/engine-api.md); types from tsconfig.engine.json below.
  { entryPoints: ['src/engine/index.ts'], outfile: 'dist/engine.js', platform: 'node', format: 'cjs', target: 'node20' },
  { entryPoints: ['src/cli.ts'], outfile: 'dist/cli.js', platform: 'node', format: 'cjs', target: 'node20', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode'] },
  { entryPoints: ['src/extension/worker.ts'], outfile: 'dist/worker.js', platform: 'node', format: 'cjs', target: 'node20' },
  // h5wasm for the extension's trace editor, loaded from next to dist/extension.js on the first HDF5 trace (its 4 MB stay out of the activation bundle)
  { entryPoints: ['src/import/hdf5.ts'], outfile: 'dist/hdf5.js', platform: 'node', format: 'cjs', target: 'node20' },
  // MuJoCo as the solver of a model in the editor (src/extension/mujocoRunner.ts): its WebAssembly off the host's thread
  { entryPoints: ['src/extension/mujocoWorker.ts'], outfile: 'dist/mujocoWorker.js', platform: 'node', format: 'cjs', target: 'node20' },
  // The webview is always minified (source maps stay next to the scripts for debugging the panel).
  // The panel loads dist/panel.js, what its first paint needs, and after the first frame
  // dist/panel-deferred.js: the 3D view and the charts (three and chart.js, ≈4/5 of the code;
  // webview/load.ts). The standalone report inlines dist/webview.js, all of it in one script.
  { entryPoints: ['webview/main.ts'], outfile: 'dist/panel.js', platform: 'browser', format: 'iife', target: 'es2022', minify: true },
  { entryPoints: ['webview/deferredEntry.ts'], outfile: 'dist/panel-deferred.js', platform: 'browser', format: 'iife', target: 'es2022', minify: true },
  { entryPoints: ['webview/all.ts'], outfile: 'dist/webview.js', platform: 'browser', format: 'iife', target: 'es2022', minify: true },
  { entryPoints: ['webview/main.css'], outfile: 'dist/webview.css', bundle: true },
  { entryPoints: ['bench/bench.ts'], outfile: 'dist/bench.js', platform: 'node', format: 'cjs', target: 'node20', external: ['mujoco-js', '@mujoco/mujoco', '@dimforge/rapier3d-compat', 'cannon-es'] },
  // the engine's chain in a worker thread of its own during `npm run bench` (bench/engineWorker.ts)
  { entryPoints: ['bench/engineWorker.ts'], outfile: 'dist/bench-engine-worker.js', platform: 'node', format: 'cjs', target: 'node20' },
  // one scene's run as the library and the extension's Play take it, in a fresh isolate (bench/paths.ts)
  { entryPoints: ['bench/pathsWorker.ts'], outfile: 'dist/bench-paths-worker.js', platform: 'node', format: 'cjs', target: 'node20' },
  { entryPoints: ['test/e2e/suite/index.ts'], outfile: 'out/e2e/suite/index.js', platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'mocha'] },
];

mkdirSync('dist', { recursive: true });
// MuJoCo's WebAssembly (src/import/mujoco.ts loads it lazily from dist/mujoco/): shipped as files, not bundled.
const mujoco = 'node_modules/@mujoco/mujoco';
if (existsSync(`${mujoco}/mujoco.wasm`)) {
  mkdirSync('dist/mujoco', { recursive: true });
  for (const f of ['mujoco.js', 'mujoco.wasm', 'package.json']) copyFileSync(`${mujoco}/${f}`, `dist/mujoco/${f}`);
  // MuJoCo's Apache-2.0 licence and our notice on what the wasm contains (the npm package ships neither).
  for (const f of ['LICENSE', 'NOTICE.md']) copyFileSync(`licenses/mujoco/${f}`, `dist/mujoco/${f}`);
  // the licences of the libraries linked into mujoco.wasm (NOTICE.md names them)
  mkdirSync('dist/mujoco/third-party', { recursive: true });
  for (const f of readdirSync('licenses/mujoco/third-party')) copyFileSync(`licenses/mujoco/third-party/${f}`, `dist/mujoco/third-party/${f}`);
}
// h5wasm (the HDF5 library in WebAssembly, bundled into dist/hdf5.js, which the CLI and the extension load for HDF5 traces): its notice asks to be kept intact
if (existsSync('licenses/h5wasm/LICENSE.txt')) {
  mkdirSync('dist/licenses/h5wasm', { recursive: true });
  copyFileSync('licenses/h5wasm/LICENSE.txt', 'dist/licenses/h5wasm/LICENSE.txt');
}
const todo = entries.filter((e) => e.entryPoints.every((p) => existsSync(p)));
if (watch) {
  for (const e of todo) await (await esbuild.context({ ...common, ...e })).watch();
  console.log(`watching ${todo.length} entry points`);
} else {
  await Promise.all(todo.map((e) => esbuild.build({ ...common, ...e })));
  // The engine library's type declarations (dist/types/engine/index.d.ts), rebuilt from scratch.
  rmSync('dist/types', { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const types = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.engine.json'], { stdio: 'inherit' });
  if (types.status !== 0) process.exit(types.status ?? 1);
  console.log(`built ${todo.map((e) => e.outfile).join(', ')}, dist/types/engine/index.d.ts`);
}
