#!/usr/bin/env node
// `npm run test:electron` — the same e2e mocha suite (test/e2e/suite) under @vscode/test-electron,
// i.e. a desktop VS Code downloaded from Microsoft's update server. Machines without that access
// (these ones: only the npm registry and Debian apt) cannot run it: the download fails at once and
// this script says so and exits non-zero. Use `npm run test:e2e` (code-server) there. Not in CI.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const t0 = Date.now();

const build = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
if (build.status !== 0) {
  console.error('test:electron: the build failed');
  process.exit(1);
}
const extensionTestsPath = join(ROOT, 'out', 'e2e', 'suite', 'index.js');
if (!existsSync(extensionTestsPath)) {
  console.error(`test:electron: ${extensionTestsPath} was not built`);
  process.exit(1);
}
const ws = join(ROOT, '.e2e', 'ws-electron');
rmSync(ws, { recursive: true, force: true });
mkdirSync(dirname(ws), { recursive: true });
cpSync(join(ROOT, 'test', 'e2e', 'workspace'), ws, { recursive: true });

const NETWORK = /ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|getaddrinfo|socket hang up|Failed to get JSON|Failed to download/i;

try {
  await runTests({
    extensionDevelopmentPath: ROOT,
    extensionTestsPath,
    launchArgs: [ws, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
    cachePath: join(ROOT, '.e2e', 'vscode-test'),
    extensionTestsEnv: process.env.CL_E2E_GREP ? { CL_E2E_GREP: process.env.CL_E2E_GREP } : undefined,
  });
  console.log(`test:electron: all tests passed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
} catch (e) {
  const msg = e instanceof Error ? `${e.message}${e.cause ? ` (${e.cause})` : ''}` : String(e);
  if (NETWORK.test(msg) || NETWORK.test(String(e && e.code))) {
    console.error(
      [
        '',
        'test:electron: cannot download VS Code for @vscode/test-electron on this machine:',
        `  ${msg.split('\n')[0]}`,
        'This machine reaches only the npm registry and Debian apt, not update.code.visualstudio.com.',
        'Run the same suite in a real VS Code with `npm run test:e2e` (code-server + Chromium) instead.',
        '',
      ].join('\n'),
    );
    process.exit(2);
  }
  console.error(`test:electron: the suite failed: ${msg}`);
  process.exit(1);
}
