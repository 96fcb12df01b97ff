// Runs Node's test runner on every *.test.ts under the given folders (TypeScript through tsx).
// Usage: node scripts/run-tests.mjs [--serial] test/unit [more folders or files]
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const args = process.argv.slice(2);
// --serial: one file at a time (the browser tests: each drives its own Chromium with software WebGL,
// and two at once on two cores would turn their waits into timeouts)
const serial = args.includes('--serial');
const roots = args.filter((a) => a !== '--serial');
const files = [];
const walk = (p) => {
  if (statSync(p).isDirectory()) for (const f of readdirSync(p).sort()) walk(join(p, f));
  else if (/\.test\.ts$/.test(p)) files.push(p);
};
for (const r of roots.length ? roots : ['test/unit']) walk(r);
if (files.length === 0) {
  console.error('no test files found under', roots.join(' '));
  process.exit(1);
}
// Node's runner defaults to one file at a time on a 2-core machine (availableParallelism − 1); the
// files are independent processes (each writes only to its own temporary folder), so use every core.
// CL_TEST_CONCURRENCY overrides it (1: one file at a time, e.g. to read one failure's output in order).
const concurrency = serial ? 1 : Number(process.env.CL_TEST_CONCURRENCY) || Math.max(1, availableParallelism());
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
