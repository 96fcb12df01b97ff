// The inspector a robotics engineer keeps open, as a person meets it in the real VS Code: a copy of
// an example in a folder of its own (no schema warning), the chain run until it blows up, then at
// steps 100, 840 and the last one the κ of the panel's header, the status bar, the CodeLens, the
// Explorer's tree and the history chart
// compared (one number for one step); the 3D view at step 840 drawn (not blank); the history card's
// λ and energy on log / symmetric-log axes with the onset marked and "Zoom to onset"; Play from the
// panel's Space key at a chosen speed, Pause with Space landing within one step of the step the
// panel shows, ← stepping back. Screenshots under test-results/e2e/inspector-*.png.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { check3dView, closeAllEditors, openProblems, quickOpen, runCommand, waitForHeatmap, webviewContent } from './ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The header's step counter and κ, and the Play button's state (inside the webview). */
function readHeader() {
  const d = globalThis.document;
  const text = d.querySelector('[data-stat="step"] .cl-stat-value')?.textContent ?? '';
  const m = /(\d+)\s*\/\s*(\d+)/.exec(text);
  return {
    shown: m ? Number(m[1]) : -1,
    taken: m ? Number(m[2]) : -1,
    kappa: d.querySelector('[data-stat="cond"] .cl-cond-num')?.textContent ?? '',
    playing: d.querySelector('[data-command="playPause"]')?.getAttribute('aria-pressed') === 'true',
  };
}

async function waitUntil(what, fn, timeout = 30_000) {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeout) throw new Error(`timed out: ${what}`);
    await sleep(250);
  }
}

const statusText = (page) => page.locator('.statusbar-item', { hasText: 'κ' }).first().innerText({ timeout: 5000 }).catch(() => '');
const lensTexts = (page) => page.locator('.codelens-decoration').allInnerTexts().catch(() => []);
/** The Constraint Lens tree's header in the Explorer: `chain.scene.json · step 120 · κ 1.2e3`. */
const treeText = (page) =>
  page
    .locator('.pane-header', { hasText: 'Constraint Lens' })
    .locator('.description')
    .first()
    .innerText({ timeout: 3000 })
    .catch(() => '');
/** The history card's κ chart: its readout at the panel's step (`step 840: κ 25.9`). */
const chartReadout = (inner) =>
  inner
    .locator('#cl-history figure[data-chart="cond"] .cl-chart-readout')
    .innerText({ timeout: 3000 })
    .catch(() => '');

/** The panel's slider moved to step k (the panel posts goToStep: every view follows). */
async function goTo(inner, k) {
  await inner.locator('#cl-step-slider').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new globalThis.Event('input', { bubbles: true }));
  }, k);
  await waitUntil(`the header on step ${k}`, async () => (await inner.locator('body').evaluate(readHeader)).shown === k);
}

export async function inspectorScenario(page, folder, { outDir, log = console.log } = {}) {
  const out = [];
  // 1. A copied example: the scene in a folder of its own (nothing relative to it exists there).
  mkdirSync(join(folder, 'copied'), { recursive: true });
  copyFileSync(join(folder, 'chain.scene.json'), join(folder, 'copied', 'chain-copy.scene.json'));
  await closeAllEditors(page);
  await quickOpen(page, 'chain-copy.scene.json');
  await sleep(4000); // the JSON language service validates against the extension's schema
  const rows = await openProblems(page);
  const schemaRows = rows.filter((r) => /schema/i.test(r));
  if (schemaRows.length) throw new Error(`a copied example shows schema problems: ${JSON.stringify(schemaRows)}`);
  out.push(`copied example: ${rows.length} problem rows, none about a schema`);
  await page.screenshot({ path: join(outDir, 'inspector-copied-example.png') });

  // 2. The chain run until the engine stops it (the blow-up), in the open inspector.
  await closeAllEditors(page);
  await quickOpen(page, 'chain.scene.json');
  await runCommand(page, 'Constraint Lens: Open Inspector');
  if (!(await waitForHeatmap(page)).ok) throw new Error('the inspector did not draw');
  const inner = webviewContent(page);
  await runCommand(page, 'Constraint Lens: Run N Steps…');
  const box = page.locator('.quick-input-widget input').first();
  await box.waitFor({ state: 'visible', timeout: 5000 });
  await box.fill('1240');
  await page.keyboard.press('Enter');
  let h = await waitUntil(
    'the run to stop',
    async () => {
      const a = await inner.locator('body').evaluate(readHeader);
      await sleep(1500);
      const b = await inner.locator('body').evaluate(readHeader);
      return b.taken > 1000 && b.taken === a.taken && b.shown === b.taken && !b.playing ? b : undefined;
    },
    120_000,
  );
  const last = h.taken;
  if (!(last < 1240)) throw new Error(`the chain did not blow up: ${last} steps`);
  out.push(`chain stopped at step ${last}`);

  // 3. One κ for one step: header, status bar, CodeLens, the Explorer's tree and the history chart.
  // The tree's pane shown (its header carries the step and κ); the history card scrolled into view
  // (its charts are made when it is first shown), the header stays on top of it.
  await runCommand(page, 'Focus on Constraint Lens View');
  await inner.locator('#cl-history').evaluate((el) => {
    const d = globalThis.document;
    d.scrollingElement.scrollTop = el.getBoundingClientRect().top + d.scrollingElement.scrollTop - 60;
  });
  await waitUntil('the κ chart', async () => (await inner.locator('#cl-history figure[data-chart="cond"]').count()) > 0, 20_000);
  // the κ chart in the middle of the panel for the screenshots (below the sticky header)
  await inner.locator('#cl-history figure[data-chart="cond"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  for (const k of [100, 840, last]) {
    await goTo(inner, k);
    h = await inner.locator('body').evaluate(readHeader);
    const want = `κ ${h.kappa}`;
    const status = await waitUntil(`the status bar on step ${k} with ${want}`, async () => {
      const s = await statusText(page);
      return s.includes(want) && s.endsWith(`step ${k}`) ? s : undefined;
    }, 10_000).catch(async () => {
      throw new Error(`step ${k}: header ${want}, status bar "${await statusText(page)}"`);
    });
    const lens = await waitUntil(`a CodeLens with ${want}`, async () => (await lensTexts(page)).find((t) => t.includes(want)), 10_000).catch(async () => {
      throw new Error(`step ${k}: header ${want}, CodeLens ${JSON.stringify(await lensTexts(page))}`);
    });
    const tree = await waitUntil(`the tree's header on step ${k} with ${want}`, async () => {
      const t = await treeText(page);
      return t.endsWith(`step ${k} · ${want}`) ? t : undefined;
    }, 10_000).catch(async () => {
      throw new Error(`step ${k}: header ${want}, tree "${await treeText(page)}"`);
    });
    const chart = await waitUntil(`the κ chart's readout on step ${k} with ${want}`, async () => {
      const t = await chartReadout(inner);
      return t === `step ${k}: ${want}` ? t : undefined;
    }, 10_000).catch(async () => {
      throw new Error(`step ${k}: header ${want}, κ chart "${await chartReadout(inner)}"`);
    });
    await page.screenshot({ path: join(outDir, `inspector-kappa-${k}.png`) });
    out.push(`step ${k}: header "${want}", status "${status.trim()}", CodeLens "${lens.trim()}", tree "${tree.trim()}", chart "${chart}"`);
  }

  // 4. The 3D view at step 840 after the blow-up: drawn, and its force legend in newtons of that step.
  await goTo(inner, 840);
  if (await page.locator('.part.panel').isVisible().catch(() => false)) await runCommand(page, 'Hide Panel');
  await runCommand(page, 'Toggle Maximize Editor Group');
  try {
    await inner.locator('#cl-scene .cl3d-btn', { hasText: 'Fit' }).first().click();
    const s3 = await check3dView(page, join(outDir, 'inspector-chain-840-3d.png'));
    const legend = (await inner.locator('#cl-scene .cl3d-legend').innerText().catch(() => '')).replace(/\s+/g, ' ');
    const force = /force ([\d.e+-]+) N/.exec(legend);
    if (force && Number(force[1]) > 1e6) throw new Error(`the 3D legend at step 840 is scaled on the blow-up: ${legend}`);
    out.push(`3D at 840: ${(s3.ink * 100).toFixed(1)}% non-background pixels, ${s3.colors} colours; legend "${legend.slice(0, 80)}"`);

    // 5. The history card: log / symlog axes, the onset, Zoom to onset.
    const hist = inner.locator('#cl-history');
    await hist.evaluate((el) => {
      const d = globalThis.document;
      d.scrollingElement.scrollTop = el.getBoundingClientRect().top + d.scrollingElement.scrollTop - 60;
    });
    await sleep(800);
    const axes = await hist.evaluate((el) => Object.fromEntries([...el.querySelectorAll('figure[data-chart]')].map((f) => [f.dataset.chart, f.dataset.axis])));
    const zoom = (await hist.locator('button', { hasText: 'onset' }).first().innerText().catch(() => '')).trim();
    await page.screenshot({ path: join(outDir, 'inspector-chain-history.png') });
    if (!Object.values(axes).some((a) => /log/.test(a ?? ''))) throw new Error(`no chart on a log axis after the blow-up: ${JSON.stringify(axes)}`);
    if (!/Zoom to onset \(\d+\)/.test(zoom)) throw new Error(`no "Zoom to onset" button: "${zoom}"`);
    await hist.locator('button', { hasText: 'onset' }).first().click();
    await sleep(800);
    await page.screenshot({ path: join(outDir, 'inspector-chain-history-zoomed.png') });
    out.push(`history axes ${JSON.stringify(axes)}; "${zoom}"`);
  } finally {
    await runCommand(page, 'Toggle Maximize Editor Group');
  }

  // 6. Play from the panel's keys at a chosen speed; Pause lands within one step of the shown step.
  await runCommand(page, 'Constraint Lens: Reset');
  await waitUntil('Reset', async () => (await inner.locator('body').evaluate(readHeader)).taken === 0, 15_000);
  await inner.locator('#cl-play-speed').selectOption('1');
  const title = inner.locator('.cl-header h1, .cl-header .cl-title').first();
  await title.click();
  await page.keyboard.press('Space');
  await waitUntil('Space plays', async () => (await inner.locator('body').evaluate(readHeader)).playing, 10_000);
  await sleep(2500);
  await page.keyboard.press('Space');
  await waitUntil('Space pauses', async () => !(await inner.locator('body').evaluate(readHeader)).playing, 10_000);
  await sleep(1500);
  h = await inner.locator('body').evaluate(readHeader);
  const status = await statusText(page);
  const hostStep = Number(/step (\d+)/.exec(status)?.[1] ?? -1);
  if (!(h.shown > 0 && Math.abs(hostStep - h.shown) <= 1)) throw new Error(`Pause: the panel shows step ${h.shown}, the status bar "${status}"`);
  out.push(`Play (Space, real time) then Pause (Space): panel step ${h.shown} of ${h.taken}, status bar step ${hostStep}`);
  // ← and Home move the shown step, and every view follows (the status bar names the step).
  const follows = async (what, k) => {
    await waitUntil(`${what}: the panel on step ${k}`, async () => (await inner.locator('body').evaluate(readHeader)).shown === k, 10_000);
    await waitUntil(`${what}: the status bar on step ${k} (have "${await statusText(page)}")`, async () => (await statusText(page)).endsWith(`step ${k}`), 10_000);
  };
  await page.keyboard.press('ArrowLeft');
  await follows('←', h.shown - 1);
  await page.keyboard.press('Home');
  await follows('Home', 0);
  await page.keyboard.press('ArrowRight');
  await follows('→', 1);
  await page.keyboard.press('End');
  await follows('End', h.taken);
  out.push('←, Home, → and End move the shown step in the panel and the status bar');
  await page.screenshot({ path: join(outDir, 'inspector-chain-paused.png') });
  for (const line of out) log(`  ${line}`);
  return out.join('; ');
}
