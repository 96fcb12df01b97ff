// One headless Debian Chromium driven by playwright-core, and the mocha run through the
// workbench's smoke-test payload (extensionDevelopmentPath + extensionTestsPath).
import { chromium } from 'playwright-core';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { format } from 'node:util';
import { CHROMIUM } from './setup.mjs';

export async function launchBrowser(p, { width = 1600, height = 1000 } = {}) {
  const udd = join(p.e2e, 'chrome-profile');
  rmSync(udd, { recursive: true, force: true });
  mkdirSync(udd, { recursive: true });
  const ctx = await chromium.launchPersistentContext(udd, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width, height },
    args: [
      '--headless', '--no-sandbox', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--disable-dev-shm-usage',
      // exact performance.memory and a gc() for the panel's heap figures (lib/runloop.mjs)
      '--enable-precise-memory-info', '--js-flags=--expose-gc',
      // A software WebGL 2 (SwiftShader through ANGLE) for the inspector's 3D scene view: there is
      // no GPU here, and Chromium no longer falls back to SwiftShader for WebGL unless asked.
      '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist',
    ],
  });
  return ctx;
}

/**
 * Runs the extension's mocha suite inside the real (remote, Node) extension host.
 * Resolves to { code, output } — code 0 when every test passed, 'timeout' on timeout.
 */
const MARK = '[cl-e2e] '; // = REPORTER_MARK in test/e2e/suite/index.ts
// A suite test asks for a screenshot of the workbench as it is then (= SHOT_MARK in test/e2e/suite/util.ts).
// The final screenshot comes after the extension host has stopped, when VS Code has dropped every
// diagnostic that host set: the Problems panel and the status bar's counts read 0 there.
const SHOT_MARK = '[cl-e2e-shot] ';

export async function runSuite(ctx, server, { extensionDevelopmentPath, extensionTestsPath, folder, timeoutMs = 240_000, log = console.log, screenshot, consoleLog }) {
  const page = await ctx.newPage();
  const lines = [];
  const shots = [];
  page.on('pageerror', (e) => log(`[pageerror] ${String(e).slice(0, 300)}`));
  let done;
  const exited = new Promise((r) => (done = r));
  // Everything the workbench and the extension host log goes to consoleLog (a file); the mocha
  // reporter's lines (prefixed by the suite's REPORTER_MARK) and the extension's own errors to stdout.
  const file = consoleLog ? createWriteStream(consoleLog) : undefined;
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = format(...(args || []));
    file?.write(`[${type}] ${text}\n`);
    for (const l of text.split('\n')) {
      const shot = l.startsWith(SHOT_MARK) ? l.slice(SHOT_MARK.length).trim() : undefined;
      if (shot !== undefined && screenshot && /^[\w-]+$/.test(shot)) {
        shots.push(page.screenshot({ path: join(dirname(screenshot), `${shot}.png`) }).catch((e) => log(`screenshot ${shot} failed: ${String(e)}`)));
        log(`  (screenshot test-results/e2e/${shot}.png)`);
      } else if (l.startsWith(MARK)) {
        lines.push(l.slice(MARK.length));
        log(l.slice(MARK.length));
      } else if (type === 'error' && /constraint.?lens/i.test(l) && !/^\s+at /.test(l)) {
        log(`  [extension host error] ${l.slice(0, 400)}`);
      }
    }
  });
  await page.exposeFunction('codeAutomationExit', (code) => done(code));
  const remote = (abs) => `vscode-remote://${server.host}${abs}`;
  const payload = JSON.stringify([
    ['extensionDevelopmentPath', remote(extensionDevelopmentPath)],
    ['extensionTestsPath', remote(extensionTestsPath)],
    ['skipWelcome', 'true'],
  ]);
  const url = `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(payload)}`;
  await page.goto(url);
  let timer;
  const code = await Promise.race([exited, new Promise((r) => (timer = setTimeout(() => r('timeout'), timeoutMs)))]);
  clearTimeout(timer);
  await Promise.all(shots);
  if (screenshot) await page.screenshot({ path: screenshot }).catch(() => {});
  await page.close().catch(() => {});
  file?.end();
  return { code, output: lines.join('\n') };
}
