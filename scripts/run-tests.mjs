// Runs Node's test runner on every *.test.ts under the given folders (TypeScript through tsx).
// Usage: node scripts/run-tests.mjs test/unit [more folders or files]
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const roots = process.argv.slice(2);
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
const r = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(r.status ?? 1);
