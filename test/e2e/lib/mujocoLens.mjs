// One truth under MuJoCo, as a person meets it in the real VS Code: an MJCF model's inspector (a weld started away from its relpose) switched
// to MuJoCo by the header's switch, stepped from its Step button; at two steps chosen on the panel's
// slider the κ of the panel's header, the status bar and the CodeLens are one number for one step.
// Play, then Pause from the panel's button: every view lands within one step of the step the panel
// showed. The CodeLens's Step takes MuJoCo's next step. Back to the engine: the views show the
// engine's step 0 again; MuJoCo once more, then the panel closed: the status bar and the CodeLens
// are the engine's at once. Screenshots under
// test-results/e2e/mujoco-lens-*.png.
import { join } from 'node:path';
import { closeAllEditors, quickOpen, runCommand, waitForHeatmap, webviewContent } from './ui.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The header's step counter, κ and solver, and the Play button's state (inside the webview). */
function readHeader() {
  const d = globalThis.document;
  const text = d.querySelector('[data-stat="step"] .cl-stat-value')?.textContent ?? '';
  const m = /(\d+)\s*\/\s*(\d+)/.exec(text);
  return {
    shown: m ? Number(m[1]) : -1,
    taken: m ? Number(m[2]) : -1,
    kappa: d.querySelector('[data-stat="cond"] .cl-cond-num')?.textContent ?? '',
    playing: d.querySelector('[data-command="playPause"]')?.getAttribute('aria-pressed') === 'true',
    solver: d.querySelector('.cl-solver-switch [aria-checked="true"]')?.getAttribute('data-solver') ?? '',
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

async function goTo(inner, k) {
  await inner.locator('#cl-step-slider').evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new globalThis.Event('input', { bubbles: true }));
  }, k);
  await waitUntil(`the header on step ${k}`, async () => (await inner.locator('body').evaluate(readHeader)).shown === k);
}

/** The header's κ at the step it shows equals the status bar's and a CodeLens's, which name that step. */
async function oneKappa(page, inner, out, label) {
  const h = await inner.locator('body').evaluate(readHeader);
  const want = `κ ${h.kappa}`;
  const status = await waitUntil(`the status bar on step ${h.shown} with ${want}`, async () => {
    const s = await statusText(page);
    return s.includes(want) && s.endsWith(`step ${h.shown}`) ? s : undefined;
  }, 10_000).catch(async () => {
    throw new Error(`${label}: header ${want} at step ${h.shown}, status bar "${await statusText(page)}"`);
  });
  const lens = await waitUntil(`a CodeLens with ${want} · step ${h.shown}`, async () => (await lensTexts(page)).find((t) => t.includes(want) && t.includes(`step ${h.shown} `)), 20_000).catch(async () => {
    throw new Error(`${label}: header ${want} at step ${h.shown}, CodeLens ${JSON.stringify(await lensTexts(page))}`);
  });
  out.push(`${label}: header "${want}" at step ${h.shown}/${h.taken}, status "${status.trim()}", CodeLens "${lens.trim()}"`);
  return h;
}

export async function mujocoLensScenario(page, { outDir, log = console.log, model = 'weld-offset.xml' } = {}) {
  const out = [];
  await closeAllEditors(page);
  await quickOpen(page, model);
  await runCommand(page, 'Constraint Lens: Open Inspector');
  if (!(await waitForHeatmap(page)).ok) throw new Error('the inspector did not draw');
  const inner = webviewContent(page);
  // the engine first: its step 0
  await oneKappa(page, inner, out, 'engine');
  // MuJoCo from the header's switch, then 12 steps from the Step button
  await inner.locator('.cl-solver-switch [data-solver="mujoco"]').click();
  await waitUntil('the header on MuJoCo', async () => (await inner.locator('body').evaluate(readHeader)).solver === 'mujoco', 15_000);
  for (let i = 0; i < 12; i++) {
    await inner.locator('[data-command="step"]').click();
    await waitUntil(`step ${i + 1} taken`, async () => (await inner.locator('body').evaluate(readHeader)).taken === i + 1, 10_000);
  }
  for (const k of [1, 7]) {
    await goTo(inner, k);
    const h = await oneKappa(page, inner, out, `MuJoCo step ${k}`);
    // step 1's system is analysed while stepping (the first request's): a number, not the engine's
    if (k === 1 && !/\d/.test(h.kappa)) throw new Error(`MuJoCo's step 1 has no κ in the header: "${h.kappa}"`);
  }
  await page.screenshot({ path: join(outDir, 'mujoco-lens-step7.png') });
  // Play from the run's end (the panel follows it), then Pause from the button: every view lands within
  // one step of the step the panel showed
  await goTo(inner, 12);
  await inner.locator('[data-command="playPause"]').click();
  await waitUntil('Play to run', async () => {
    const h = await inner.locator('body').evaluate(readHeader);
    return h.playing && h.taken > 60;
  }, 20_000);
  await inner.locator('[data-command="playPause"]').click();
  const seen = await inner.locator('body').evaluate(readHeader);
  await sleep(1500);
  const h = await oneKappa(page, inner, out, 'MuJoCo after Pause');
  if (h.playing) throw new Error('still playing after Pause');
  if (Math.abs(h.shown - seen.shown) > 1) throw new Error(`Pause: the panel showed step ${seen.shown}, the views landed on ${h.shown}`);
  out.push(`Pause: the panel showed ${seen.shown} when pressed; header and views on ${h.shown}, ${h.taken} taken`);
  await page.screenshot({ path: join(outDir, 'mujoco-lens-pause.png') });
  // the CodeLens's Step under MuJoCo takes MuJoCo's next step (the panel's run), not the engine's
  await page.locator('.codelens-decoration a', { hasText: /^\W*Step\s*$/ }).first().click();
  await waitUntil(`the CodeLens Step took MuJoCo's step ${h.taken + 1}`, async () => {
    const x = await inner.locator('body').evaluate(readHeader);
    return x.solver === 'mujoco' && x.taken === h.taken + 1;
  }, 10_000);
  const afterLens = await oneKappa(page, inner, out, 'MuJoCo after the CodeLens Step');
  if (afterLens.shown !== h.taken + 1) throw new Error(`the CodeLens Step: the views on step ${afterLens.shown}, MuJoCo's run at ${h.taken + 1}`);
  // back to the engine: its step 0 again
  await inner.locator('.cl-solver-switch [data-solver="engine"]').click();
  await waitUntil('the header on the engine', async () => {
    const x = await inner.locator('body').evaluate(readHeader);
    return x.solver === 'engine' && x.taken === 0;
  }, 15_000);
  const engine0 = await oneKappa(page, inner, out, 'engine again');
  await page.screenshot({ path: join(outDir, 'mujoco-lens-engine.png') });
  // MuJoCo again, a step, then the panel closed: the status bar is the engine's step 0 at once (no
  // scene event follows a closed panel to refresh it)
  await inner.locator('.cl-solver-switch [data-solver="mujoco"]').click();
  await waitUntil('the header on MuJoCo again', async () => (await inner.locator('body').evaluate(readHeader)).solver === 'mujoco', 15_000);
  await inner.locator('[data-command="step"]').click();
  await waitUntil('MuJoCo step 1 in the status bar', async () => (await statusText(page)).endsWith('step 1'), 10_000);
  // the inspector's tab active, then View: Close Editor (the tab's close button shows only on hover)
  await page.locator('.tabs-container .tab', { hasText: 'Inspect' }).first().click();
  await runCommand(page, 'View: Close Editor');
  await page.waitForFunction(() => ![...globalThis.document.querySelectorAll('.tabs-container .tab')].some((t) => t.textContent?.includes('Inspect')), null, { timeout: 10_000 });
  const want = `κ ${engine0.kappa}`;
  const closed = await waitUntil(`the status bar back on the engine's ${want} at step 0`, async () => {
    const st = await statusText(page);
    return st.includes(want) && st.endsWith('step 0') ? st : undefined;
  }, 5_000).catch(async () => {
    throw new Error(`the MuJoCo panel closed: the status bar still "${await statusText(page)}", the engine's is ${want} at step 0`);
  });
  // and the CodeLens too (throttled like a run's steps: a bound, not a speed check)
  const lensClosed = await waitUntil(`a CodeLens with the engine's ${want} · step 0`, async () => (await lensTexts(page)).find((t) => t.includes(want) && t.includes('step 0 ')), 10_000).catch(async () => {
    throw new Error(`the MuJoCo panel closed: the CodeLens still ${JSON.stringify(await lensTexts(page))}, the engine's is ${want} at step 0`);
  });
  out.push(`MuJoCo panel closed: status "${closed.trim()}", CodeLens "${lensClosed.trim()}"`);
  await page.screenshot({ path: join(outDir, 'mujoco-lens-closed.png') });
  for (const line of out) log(`  ${line}`);
  return out.join('\n');
}

/** The scenario on a fresh page of `browser` (`open` brings the workbench up on it); a screenshot when it fails. */
export async function mujocoLensOnPage(browser, open, { outDir, log = console.log }) {
  const page = await browser.newPage();
  page.on('pageerror', (e) => log(`[pageerror] ${String(e).slice(0, 200)}`));
  try {
    await open(page);
    return await mujocoLensScenario(page, { outDir, log });
  } catch (e) {
    await page.screenshot({ path: join(outDir, 'mujoco-lens-FAILED.png') }).catch(() => {});
    throw e;
  } finally {
    await page.close().catch(() => {});
  }
}
