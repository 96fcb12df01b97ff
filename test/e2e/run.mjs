#!/usr/bin/env node
// `npm run test:e2e` — Constraint Lens in a real VS Code (code-server 4.139.1 = VS Code 1.139.1,
// remote Node extension host), driven by headless Debian Chromium through playwright-core.
//
//   1. tooling (cached under .e2e/): apt chromium libkrb5-dev pkg-config, Node 24, code-server
//   2. build the extension and package the .vsix
//   3. the mocha suite (test/e2e/suite) inside the real extension host, on a copy of
//      test/e2e/workspace (extensionDevelopmentPath = the repo)
//   4. the packaged .vsix installed into a fresh extensions dir; for every examples/*.scene.json,
//      in a dark and a light theme: Quick Open the scene, "Constraint Lens: Open Inspector" from
//      the palette, wait for the heatmap canvas to draw, open Problems, screenshot to
//      test-results/e2e/<scene>-<theme>.png
//
//   5. the run loop as a person meets it (dark theme): a 20 000-step Play from the panel's button,
//      Pause and Reset from the palette, Run N Steps; screenshots test-results/e2e/runloop-*.png
//
//   6. the inspector on the chain's blow-up (dark theme): one κ in header, status bar and CodeLens,
//      the 3D view at step 840, log axes and the onset, Play / Pause from the panel's keys, a copied
//      example without a schema warning; screenshots test-results/e2e/inspector-*.png
//
//   7. one truth under MuJoCo (dark theme): a weld model's inspector switched to MuJoCo, header, status
//      bar and CodeLens κ at two steps, Pause within one step, the CodeLens Step on MuJoCo, back to the
//      engine, the MuJoCo panel closed (views back on the engine at once); test-results/e2e/mujoco-lens-*.png
//
// Options: --suite-only | --ui-only, --runloop-only | --inspector-only | --mujoco-lens-only (that UI scenario alone),
//          --tooling-only (step 1 alone: .ci/run starts it in the background while the unit and
//          browser tests run; a later run waits for it instead of installing the same tools twice),
//          --grep <regexp> (mocha grep, passed to the extension host),
//          --scenes <regexp> (UI phase: only the matching examples/*.scene.json),
//          --skip-build (use the existing dist/ and out/),
//          --keep (leave code-server running at the end: prints its URL; Ctrl+C to stop).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureApt, ensureCodeServer, ensureNode24, holdToolingLock, paths, waitForToolingLock } from './lib/setup.mjs';
import { installVsix, startCodeServer, tail, writeUserSettings } from './lib/server.mjs';
import { cardInView, check3dView, closeAllEditors, cursorSelects, openProblems, openWorkbench, quickOpen, runCommand, waitForHeatmap, webviewContent, webviewText, workbenchThemeKind } from './lib/ui.mjs';
import { runLoopScenario } from './lib/runloop.mjs';
import { playRatesScenario } from './lib/playRates.mjs';
import { inspectorScenario } from './lib/inspector.mjs';
import { mujocoLensOnPage } from './lib/mujocoLens.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const argv = process.argv.slice(2);
const flag = (f) => argv.includes(f);
const opt = (f) => {
  const i = argv.indexOf(f);
  return i >= 0 ? argv[i + 1] : undefined;
};
const doSuite = !flag('--ui-only');
const doUi = !flag('--suite-only');
const grep = opt('--grep');

const T0 = Date.now();
const secs = (ms) => (ms / 1000).toFixed(1) + 's';
const log = (s) => console.log(`[e2e ${secs(Date.now() - T0).padStart(6)}] ${s}`);
const results = []; // { step, ok, ms, detail }
async function step(name, fn) {
  const t = Date.now();
  log(`▶ ${name}`);
  try {
    const detail = await fn();
    results.push({ step: name, ok: true, ms: Date.now() - t, detail });
    return detail;
  } catch (e) {
    results.push({ step: name, ok: false, ms: Date.now() - t, detail: e instanceof Error ? e.message : String(e) });
    log(`✖ ${name}: ${e instanceof Error ? e.message : e}`);
    throw e;
  }
}

const P = paths(ROOT);
const cleanups = [];
let cleaned = false;
function cleanup() {
  if (cleaned) return;
  cleaned = true;
  for (const c of cleanups.reverse()) {
    try {
      c();
    } catch {
      /* best effort */
    }
  }
}
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    cleanup();
    process.exit(130);
  });
}

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status}):\n${(r.stdout || '').slice(-3000)}\n${(r.stderr || '').slice(-3000)}`);
  return r.stdout || '';
}

let suiteCounts = { passed: 0, failed: 0 };

function summary(exitCode) {
  console.log('\n==================== Constraint Lens e2e summary ====================');
  for (const r of results) {
    const d = typeof r.detail === 'string' ? r.detail.split('\n')[0].slice(0, 150) : '';
    console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.step.padEnd(44)} ${secs(r.ms).padStart(7)}  ${d}`);
  }
  console.log(`total ${secs(Date.now() - T0)} — ${exitCode === 0 ? 'OK' : 'FAILED'}`);
  console.log('=====================================================================');
  // mocha tests in the extension host + the harness's own checks (tooling, UI, screenshots)
  const own = results.filter((r) => r.step !== 'mocha suite in the extension host');
  const passed = suiteCounts.passed + own.filter((r) => r.ok).length;
  let failed = suiteCounts.failed + own.filter((r) => !r.ok).length;
  if (exitCode !== 0 && failed === 0) failed = 1;
  console.log(`e2e: ${passed} passed, ${failed} failed`);
}

let launchBrowser, runSuite; // ./lib/browser.mjs, loaded once playwright-core is known to be there

async function main() {
  if (!existsSync(join(ROOT, 'node_modules', 'playwright-core', 'package.json'))) {
    throw new Error('node_modules/playwright-core is missing: run `npm ci` first');
  }
  ({ launchBrowser, runSuite } = await import('./lib/browser.mjs'));
  mkdirSync(P.e2e, { recursive: true });
  if (flag('--tooling-only')) {
    const release = holdToolingLock(P);
    try {
      await tooling();
    } finally {
      release();
    }
    return 0;
  }
  await waitForToolingLock(P, log);
  await tooling();

  await step('build extension', () => {
    if (flag('--skip-build')) log('--skip-build: using the existing dist/ and out/');
    else sh(process.execPath, ['scripts/build.mjs']);
    if (!existsSync(join(ROOT, 'out/e2e/suite/index.js'))) throw new Error('build did not produce out/e2e/suite/index.js');
    if (!existsSync(join(ROOT, 'dist/extension.js'))) log('warning: no dist/extension.js (src/extension/extension.ts missing?)');
    return 'dist/extension.js, out/e2e/suite/index.js';
  });

  let suiteOk = true;
  if (doSuite) {
    const ws = join(P.e2e, 'ws');
    rmSync(ws, { recursive: true, force: true });
    cpSync(join(ROOT, 'test', 'e2e', 'workspace'), ws, { recursive: true });
    const server = await step('start code-server (suite)', () => startCodeServer(P, { name: 'suite', env: grep ? { CL_E2E_GREP: grep } : {}, log }));
    cleanups.push(server.stop);
    const browser = await launchBrowser(P);
    cleanups.push(() => browser.close().catch(() => {}));
    mkdirSync(join(ROOT, 'test-results', 'e2e'), { recursive: true });
    try {
      await step('mocha suite in the extension host', async () => {
        const { code, output } = await runSuite(browser, server, {
          extensionDevelopmentPath: ROOT,
          extensionTestsPath: join(ROOT, 'out', 'e2e', 'suite', 'index.js'),
          folder: ws,
          timeoutMs: 420_000,
          log: (s) => console.log(s),
          screenshot: join(ROOT, 'test-results', 'e2e', 'suite-final.png'),
          consoleLog: join(P.logs, 'suite-console.log'),
        });
        const m = /(\d+) passing/.exec(output);
        const f = /(\d+) failing/.exec(output);
        suiteCounts = { passed: m ? Number(m[1]) : 0, failed: f ? Number(f[1]) : code === 0 ? 0 : 1 };
        if (code !== 0) {
          if (code === 'timeout') log(`code-server log tail:\n${tail(server.logFile)}`);
          log(`workbench + extension host console: ${join(P.logs, 'suite-console.log')}`);
          throw new Error(code === 'timeout' ? 'suite timed out after 420 s' : `suite exited ${code} (${m ? m[1] : 0} passing, ${f ? f[1] : '?'} failing)`);
        }
        return `${m ? m[1] : '?'} passing`;
      });
    } catch {
      suiteOk = false;
    }
    await browser.close().catch(() => {});
    server.stop();
  }

  let uiOk = true;
  if (doUi) {
    try {
      await uiPhase();
    } catch {
      uiOk = false;
    }
  }
  return suiteOk && uiOk ? 0 : 1;
}

async function tooling() {
  await step('apt packages', () => ensureApt(log));
  await step('Node 24', () => ensureNode24(P, log));
  await step('code-server', () => ensureCodeServer(P, log));
}

async function packageVsix() {
  rmSync(P.vsix, { force: true });
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  if (pkg.scripts && pkg.scripts.package) sh('npm', ['run', '--silent', 'package', '--', '-o', P.vsix]);
  else sh('npx', ['--no-install', 'vsce', 'package', '--no-dependencies', '-o', P.vsix]);
  if (!existsSync(P.vsix)) throw new Error(`packaging did not produce ${P.vsix}`);
  const mb = statSync(P.vsix).size / 1e6;
  if (mb > 40) throw new Error(`${P.vsix} is ${mb.toFixed(0)} MB: .vscodeignore must exclude .e2e/, node_modules/, test/ …`);
  // every bundle the extension starts at run time ships (a worker left out of .vscodeignore's list
  // works from the repository, where the suite runs, and fails only in the installed extension)
  const listed = spawnSync('unzip', ['-Z1', P.vsix], { encoding: 'utf8' }).stdout ?? '';
  const missing = ['extension.js', 'worker.js', 'mujocoWorker.js', 'hdf5.js', 'panel.js', 'panel-deferred.js', 'webview.css'].filter((f) => !listed.split('\n').includes(`extension/dist/${f}`));
  if (missing.length) throw new Error(`${P.vsix} lacks dist/${missing.join(', dist/')}: list it in .vscodeignore`);
  return `${P.vsix} (${mb.toFixed(2)} MB)`;
}

/** The inspector whose 3D view is checked in the UI phase, and the constraint the cursor selects. */
const SCENE_3D = { scene: 'double-pendulum', name: 'elbow', text: '"name": "elbow"' };

/**
 * The light theme's pass opens these (every example with `--all-themes`): the 3D view, problems
 * in the Problems panel, contacts, a velocity formulation and a chain, so every card is seen in
 * both themes while the dark pass still opens every example. Keeps CI's run short.
 */
const LIGHT_SCENES = new Set(['double-pendulum', 'conflicting-rods', 'box-stack', 'pendulum-ground.velocity', 'chain-ground']);

/** 1-based line and column just inside `text` in a file (for Quick Open's ":line:column"). */
function positionOf(file, text) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const i = lines.findIndex((l) => l.includes(text));
  if (i < 0) throw new Error(`"${text}" not in ${file}`);
  return { line: i + 1, column: lines[i].indexOf(text) + 2 };
}

async function uiPhase() {
  await step('package .vsix', packageVsix);
  // a copy of examples/ (and of schemas/, which the examples no longer name: the extension binds it)
  const uiRoot = join(P.e2e, 'ui-root');
  rmSync(uiRoot, { recursive: true, force: true });
  cpSync(join(ROOT, 'examples'), join(uiRoot, 'examples'), { recursive: true });
  if (existsSync(join(ROOT, 'schemas'))) cpSync(join(ROOT, 'schemas'), join(uiRoot, 'schemas'), { recursive: true });
  const examplesWs = join(uiRoot, 'examples');
  const scenes = readdirSync(examplesWs).filter((f) => f.endsWith('.scene.json')).sort();
  // An MJCF model next to the scenes: the inspector with its MuJoCo section (modelStep below).
  cpSync(join(ROOT, 'test', 'fixtures', 'import', 'four-bar.xml'), join(examplesWs, 'four-bar.xml'));
  // A weld started away from its relpose (κ finite): the MuJoCo switch's one-truth scenario (mujocoLens.mjs).
  cpSync(join(ROOT, 'test', 'fixtures', 'import', 'mujoco', 'weld-offset.xml'), join(examplesWs, 'weld-offset.xml'));
  // Gymnasium's ant: Play's speeds on an imported robot (playRates.mjs).
  cpSync(join(ROOT, 'test', 'fixtures', 'import', 'public', 'ant', 'ant.xml'), join(examplesWs, 'ant.xml'));
  // A trace file of another solver next to them: it opens in the trace editor (traceStep below).
  cpSync(join(ROOT, 'test', 'fixtures', 'trace', 'writer-roundtrip.npz'), join(examplesWs, 'roundtrip.npz'));
  if (scenes.length === 0) throw new Error('no examples/*.scene.json');
  // --scenes REGEXP: only the matching examples (the four-bar model's step always runs).
  const only = opt('--scenes');
  if (only) scenes.splice(0, scenes.length, ...scenes.filter((f) => new RegExp(only).test(f)));

  const server = await step('start code-server (ui) + install .vsix', async () => {
    const s = await startCodeServer(P, { name: 'ui', theme: 'Dark 2026', log });
    cleanups.push(s.stop);
    log(installVsix(P, s, P.vsix).split('\n').pop());
    return s;
  });
  const outDir = join(ROOT, 'test-results', 'e2e');
  mkdirSync(outDir, { recursive: true });
  // screenshots of an earlier run (above all its *-FAILED.png) must not pass for this run's
  for (const f of readdirSync(outDir)) if (f.endsWith('.png') && f !== 'suite-final.png') rmSync(join(outDir, f), { force: true });
  const browser = await launchBrowser(P);
  cleanups.push(() => browser.close().catch(() => {}));
  let failures = 0;
  const alone = flag('--runloop-only') || flag('--inspector-only') || flag('--mujoco-lens-only');
  const themes = alone ? [] : [
    // VS Code 1.139's default dark theme, and its "Light Modern" (the id of "Default Light Modern" since 1.10x)
    ['dark', 'Dark 2026', 'dark'],
    ['light', 'Light Modern', 'light'],
  ];
  for (const [themeKey, theme, expectKind] of themes) {
    writeUserSettings(server.userDataDir, theme);
    const page = await browser.newPage();
    page.on('pageerror', (e) => log(`[pageerror] ${String(e).slice(0, 200)}`));
    try {
      await step(`workbench (${themeKey})`, async () => {
        await openWorkbench(page, server, examplesWs, { log });
        const kind = await workbenchThemeKind(page);
        if (kind !== expectKind) throw new Error(`theme class is ${kind}, expected ${expectKind} for ${theme}`);
        return `theme ${theme} (${kind})`;
      });
    } catch {
      failures++;
      await page.close().catch(() => {});
      continue;
    }
    for (const scene of scenes) {
      const base = scene.replace(/\.scene\.json$/, '');
      if (themeKey === 'light' && !flag('--all-themes') && !LIGHT_SCENES.has(base)) continue;
      const shot = join(outDir, `${base}-${themeKey}.png`);
      try {
        await step(`inspector ${base} (${themeKey})`, async () => {
          const marks = [];
          let tm = Date.now();
          const mark = (what) => {
            marks.push(`${what} ${secs(Date.now() - tm)}`);
            tm = Date.now();
          };
          try {
            await closeAllEditors(page);
            mark('close');
            await quickOpen(page, scene);
            mark('quick open');
            await runCommand(page, 'Constraint Lens: Open Inspector');
            mark('palette');
            const heat = await waitForHeatmap(page);
            mark('heatmap');
            if (!heat.ok) throw new Error(`no heatmap canvas with non-background pixels; canvases: ${JSON.stringify(heat.all)}`);
            if (base === SCENE_3D.scene) {
              // The 3D view draws (WebGL in the webview), and the editor's cursor selects in it.
              // The inspector's group maximised and the bottom panel (Problems) hidden for its
              // screenshot: one column at the side's width puts the scene card below the matrices
              // and half under the sticky header. openProblems below shows Problems again.
              if (await page.locator('.part.panel').isVisible().catch(() => false)) await runCommand(page, 'Hide Panel');
              await runCommand(page, 'Toggle Maximize Editor Group');
              let s3;
              try {
                s3 = await check3dView(page, join(outDir, `scene3d-${base}-${themeKey}.png`));
              } finally {
                await runCommand(page, 'Toggle Maximize Editor Group');
              }
              mark('3D view');
              log(`  3D canvas ${s3.width}x${s3.height}: ${(s3.ink * 100).toFixed(1)}% non-background pixels, ${s3.colors} colours on ${s3.background}`);
              const at = positionOf(join(examplesWs, scene), SCENE_3D.text);
              const note = await cursorSelects(page, at.line, at.column, SCENE_3D.name);
              mark('cursor → select');
              log(`  cursor at ${at.line}:${at.column} → scene card: ${note}`);
            }
            const text = await webviewText(page);
            const problems = await openProblems(page);
            mark('problems');
            await page.screenshot({ path: shot });
            mark('shot');
            log(`  timings: ${marks.join(', ')}`);
            const c = heat.canvas;
            log(`  canvas "${c.hint}" ${c.width}x${c.height}: ${c.nonBackground}/${c.sampled} sampled pixels non-background, ${c.colors} colours${heat.heatmapFound ? '' : ' (no canvas named heatmap/matrix; used any canvas)'}`);
            log(`  webview text: ${text.slice(0, 200)}`);
            log(`  problems (${problems.length}): ${JSON.stringify(problems.slice(0, 6))}`);
            return `${shot.slice(ROOT.length + 1)} — ${c.nonBackground} heatmap px, ${problems.length} problem rows`;
          } catch (e) {
            await page.screenshot({ path: shot.replace(/\.png$/, '-FAILED.png') }).catch(() => {});
            throw e;
          }
        });
      } catch {
        failures++;
      }
    }
    try {
      await step(`inspector + MuJoCo four-bar.xml (${themeKey})`, () => modelStep(page, join(outDir, `four-bar-mujoco-${themeKey}.png`)));
    } catch {
      failures++;
    }
    try {
      await step(`trace editor roundtrip.npz (${themeKey})`, () => traceStep(page, join(outDir, `trace-roundtrip-${themeKey}.png`)));
    } catch {
      failures++;
    }
    await page.close().catch(() => {});
  }
  // The run loop, in the dark theme, on a fresh page.
  writeUserSettings(server.userDataDir, 'Dark 2026');
  if (!flag('--inspector-only') && !flag('--mujoco-lens-only')) {
    const loopPage = await browser.newPage();
    loopPage.on('pageerror', (e) => log(`[pageerror] ${String(e).slice(0, 200)}`));
    try {
      await step('run loop: Run 20 000, Play, Pause, Run, Reset, Play speeds (UI)', async () => {
        await openWorkbench(loopPage, server, examplesWs, { log });
        try {
          const loop = await runLoopScenario(loopPage, server, examplesWs, { outDir, log });
          return `${loop}; Play's speeds: ${await playRatesScenario(loopPage, { log })}`;
        } catch (e) {
          await loopPage.screenshot({ path: join(outDir, 'runloop-FAILED.png') }).catch(() => {});
          throw e;
        }
      });
    } catch {
      failures++;
    }
    await loopPage.close().catch(() => {});
  }
  // The inspector on the chain's blow-up, in the dark theme, on a fresh page.
  if (!flag('--runloop-only') && !flag('--mujoco-lens-only')) {
    const inspPage = await browser.newPage();
    inspPage.on('pageerror', (e) => log(`[pageerror] ${String(e).slice(0, 200)}`));
    try {
      await step('inspector: one κ, 3D at 840, log axes, Play keys, copied example (UI)', async () => {
        await openWorkbench(inspPage, server, examplesWs, { log });
        try {
          return await inspectorScenario(inspPage, examplesWs, { outDir, log });
        } catch (e) {
          await inspPage.screenshot({ path: join(outDir, 'inspector-FAILED.png') }).catch(() => {});
          throw e;
        }
      });
    } catch {
      failures++;
    }
    await inspPage.close().catch(() => {});
  }
  // One truth under MuJoCo, in the dark theme, on a fresh page.
  if (!flag('--runloop-only') && !flag('--inspector-only')) {
    try {
      await step('MuJoCo under the lens: one κ at two steps, Pause on the shown step, back to the engine (UI)', () => mujocoLensOnPage(browser, (pg) => openWorkbench(pg, server, examplesWs, { log }), { outDir, log }));
    } catch {
      failures++;
    }
  }
  await browser.close().catch(() => {});
  if (flag('--keep')) {
    log(`--keep: code-server stays up at ${server.url}/?folder=${encodeURIComponent(examplesWs)} — Ctrl+C to stop`);
    await new Promise(() => {});
  }
  server.stop();
  if (failures) throw new Error(`${failures} UI step(s) failed`);
}

/**
 * A trace file from Quick Open (an Explorer click opens the same editor): the read-only trace
 * editor shows the inspector with the Trace card and no simulation buttons, its heatmap drawn;
 * a screenshot of the workbench with it.
 */
async function traceStep(page, shot) {
  try {
    await closeAllEditors(page);
    await quickOpen(page, 'roundtrip.npz');
    const heat = await waitForHeatmap(page);
    if (!heat.ok) throw new Error(`no heatmap drawn for roundtrip.npz: ${JSON.stringify(heat.all)}`);
    const inner = webviewContent(page);
    await inner.locator('#cl-trace:not([hidden])').waitFor({ state: 'visible', timeout: 20_000 });
    const text = await webviewText(page);
    if (!/Trace · read-only/.test(text)) throw new Error(`no read-only trace badge: ${text.slice(0, 300)}`);
    if ((await inner.locator('.cl-controls [data-command]').count()) !== 0) throw new Error('simulation buttons on a trace');
    await page.screenshot({ path: shot });
    return `${shot.slice(ROOT.length + 1)} — ${heat.canvas.nonBackground} heatmap px`;
  } catch (e) {
    await page.screenshot({ path: shot.replace(/\.png$/, '-FAILED.png') }).catch(() => {});
    throw e;
  }
}

/**
 * The four-bar MJCF: Open Inspector, the redundant row in Problems on the <connect> line (22),
 * Compare with MuJoCo from the palette, the MuJoCo card's table; a screenshot of the workbench with
 * the card's top just below the panel's sticky header, and one of the card alone (the inspector's
 * group maximised, the bottom panel hidden; cut at the webview's bottom if taller).
 */
async function modelStep(page, shot) {
  try {
    await closeAllEditors(page);
    await quickOpen(page, 'four-bar.xml');
    await runCommand(page, 'Constraint Lens: Open Inspector');
    const heat = await waitForHeatmap(page);
    if (!heat.ok) throw new Error(`no heatmap drawn for four-bar.xml: ${JSON.stringify(heat.all)}`);
    const problems = await openProblems(page);
    const red = problems.find((p) => p.includes('CL301'));
    if (!red || !/\[Ln 22, Col \d+\]/.test(red)) throw new Error(`CL301 not on the <connect> line (22): ${JSON.stringify(problems)}`);
    const t0 = Date.now();
    await runCommand(page, 'Constraint Lens: Compare with MuJoCo');
    const card = webviewContent(page).locator('#cl-mujoco');
    await card.locator('.cl-mj-table').waitFor({ state: 'visible', timeout: 90_000 });
    const compareMs = Date.now() - t0;
    const text = (await card.innerText()).replace(/\s+/g, ' ');
    if (!/MuJoCo efc_force/.test(text) || !/close\.z/.test(text)) throw new Error(`the MuJoCo card lacks its table: ${text.slice(0, 300)}`);
    // The workbench with Problems open and the card's top (its table) just below the sticky header.
    await cardInView(page, card);
    await page.screenshot({ path: shot });
    // The card alone, as much as fits: the inspector's group maximised, the bottom panel hidden.
    if (await page.locator('.part.panel').isVisible().catch(() => false)) await runCommand(page, 'Hide Panel');
    await runCommand(page, 'Toggle Maximize Editor Group');
    try {
      await page.waitForTimeout(500);
      await page.screenshot({ path: shot.replace(/\.png$/, '-card.png'), clip: await cardInView(page, card) });
    } finally {
      await runCommand(page, 'Toggle Maximize Editor Group');
    }
    log(`  compare with MuJoCo in ${secs(compareMs)}; card: ${text.slice(0, 240)}`);
    return `${shot.slice(ROOT.length + 1)} — ${red.slice(0, 80)}`;
  } catch (e) {
    await page.screenshot({ path: shot.replace(/\.png$/, '-FAILED.png') }).catch(() => {});
    throw e;
  }
}

main()
  .catch((e) => {
    log(`fatal: ${e instanceof Error ? e.stack || e.message : e}`);
    return 1;
  })
  .then((code) => {
    cleanup();
    summary(code);
    process.exit(code);
  });
