// The inspector on a run that blew up (examples/chain.scene.json run until the engine stops it,
// growth from step ~840): one κ in the header for the shown step (the record's, as the status bar,
// CodeLens, tree and chart print it), the 3D view draws the chain at step 840 after Fit (framing
// and arrows from the step shown, not from the exploded steps), λ and energy on symmetric-log
// axes, the onset marked and Zoom to onset. Screenshots under test-results/screenshots.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { formatCond } from '../../src/shared';
import { buildFixture, type Fixture } from './fixtures';
import { requireChromium, launch, openPanel, settle, shotPath, THEMES, type PanelPage } from './harness';

requireChromium();
type Rgb = [number, number, number];
const VIEW = '#cl-scene .cl3d';
const distance = (a: Rgb, b: Rgb): number => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
const hexRgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;

async function goTo(page: Page, k: number): Promise<void> {
  await page.$eval(
    '#cl-step-slider',
    (el, v) => {
      (el as HTMLInputElement).value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    k,
  );
  await page.waitForFunction((v) => document.querySelector('[data-stat="step"]')?.textContent?.includes(`${v} / `), k);
  await page.waitForFunction(() => !document.querySelector('.cl-step-note.cl-visible') || !document.querySelector('.cl-step-note')?.textContent, undefined, { timeout: 20_000 });
  await settle(page);
}

/** Projected centre of a body and the 3D canvas pixel there (rendered now). */
async function bodyPixel(page: Page, body: string): Promise<{ x: number; y: number; w: number; h: number; rgb: Rgb }> {
  return page.$eval(
    VIEW,
    (el, name) => {
      const v = (el as HTMLElement & { sceneView: { renderNow(): void; canvas: HTMLCanvasElement; screenPosition(q: { body: string }): { x: number; y: number } | undefined } }).sceneView;
      v.renderNow();
      const s = v.screenPosition({ body: name }) ?? { x: -1, y: -1 };
      const c = v.canvas;
      const gl = c.getContext('webgl2')!;
      const k = c.width / c.clientWidth;
      const out = new Uint8Array(4);
      gl.readPixels(Math.round(s.x * k), Math.round(c.height - 1 - s.y * k), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, out);
      return { x: s.x, y: s.y, w: c.clientWidth, h: c.clientHeight, rgb: [out[0], out[1], out[2]] as Rgb };
    },
    body,
  );
}

describe('a run that blew up', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let chain: Fixture;
  let p: PanelPage;
  before(async () => {
    chain = buildFixture('chain', 1240);
    ({ browser, close } = await launch());
    p = await openPanel(browser, chain, { theme: 'dark', width: 1400, height: 1100 });
    await p.hostIdle();
  });
  after(async () => {
    await p?.page.context().close();
    await close?.();
  });

  test('the fixture diverged and the engine stopped it', () => {
    const h = chain.model.history;
    assert.ok(h.length > 1000 && h.length < 1240, `${h.length} steps`);
    assert.ok(chain.model.diagnostics.some((d) => d.code.startsWith('CL404')));
  });

  test('header κ is the record of the shown step (the number the status bar, CodeLens, tree and chart print)', async () => {
    const page = p.page;
    for (const k of [100, 840, chain.model.history.length]) {
      await goTo(page, k);
      const rec = chain.model.history[k - 1];
      const want = formatCond(rec.cond.A, { estimated: rec.condEstimated, rows: chain.model.snapshot.rank.rows });
      const got = (await page.textContent('[data-stat="cond"] .cl-cond-num'))?.trim();
      assert.equal(got, want, `step ${k}`);
    }
  });

  test('the 3D view draws the chain at step 840 after Fit, with arrows of that step', async () => {
    const page = p.page;
    await goTo(page, 840);
    await page.$eval(VIEW, (el) => (el as HTMLElement & { sceneView: { fit(): void } }).sceneView.fit());
    await page.locator(VIEW).scrollIntoViewIfNeeded();
    await settle(page);
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    for (const body of ['link0', 'link5', 'link9']) {
      const s = await bodyPixel(page, body);
      assert.ok(s.x > 0 && s.x < s.w && s.y > 0 && s.y < s.h, `${body} inside the canvas: ${JSON.stringify(s)}`);
      assert.ok(distance(s.rgb, bg) > 60, `${body} drawn at its projected centre: ${s.rgb} vs ${bg}`);
    }
    const legend = (await page.textContent(`${VIEW} .cl3d-legend`)) ?? '';
    assert.doesNotMatch(legend, /e5\d N|e6\d N/, `legend in the step's newtons: ${legend}`);
    await page.locator(VIEW).screenshot({ path: shotPath('blowup-3d-step840-dark') });
  });

  test('λ and energy on symmetric-log axes, κ and ‖C‖ on log axes, the onset marked, Zoom to onset', async () => {
    const page = p.page;
    for (const id of ['violation', 'lambda', 'cond', 'energy']) await page.waitForSelector(`[data-chart="${id}"][data-axis]`, { state: 'attached', timeout: 10_000 });
    const axis = async (id: string): Promise<string | null> => page.getAttribute(`[data-chart="${id}"]`, 'data-axis');
    assert.equal(await axis('lambda'), 'symlog');
    assert.equal(await axis('energy'), 'symlog');
    assert.equal(await axis('cond'), 'log');
    assert.equal(await axis('violation'), 'log');
    // The toggle: auto → log → linear → auto.
    const toggle = page.locator('[data-chart="lambda"] .cl-axis-toggle');
    await toggle.click();
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('[data-chart="lambda"]')?.getAttribute('data-axis') === 'linear');
    await toggle.click();
    await page.waitForFunction(() => document.querySelector('[data-chart="lambda"]')?.getAttribute('data-axis') === 'symlog');
    const zoom = page.locator('#cl-history .cl-history-zoom');
    assert.equal(await zoom.isVisible(), true, 'Zoom to onset offered');
    await page.locator('#cl-history').scrollIntoViewIfNeeded();
    await settle(page);
    await page.locator('#cl-history').screenshot({ path: shotPath('blowup-history-dark') });
    await zoom.click();
    await page.waitForFunction(() => document.querySelector('#cl-history .cl-history-zoom')?.getAttribute('aria-pressed') === 'true');
    await settle(page);
    await page.locator('#cl-history').screenshot({ path: shotPath('blowup-history-zoomed-dark') });
    assert.deepEqual(p.consoleErrors, []);
  });

  test('keys and Play speed: Home, →, End move the step; the speed select and Pause (Space while running) post to the host', async () => {
    const page = p.page;
    const total = chain.model.history.length;
    await page.locator('#cl-history').click({ position: { x: 5, y: 5 } }); // focus the page, not a control
    await page.keyboard.press('Home');
    await page.waitForFunction(() => document.body.dataset.clStep === '0');
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.body.dataset.clStep === '1');
    await page.keyboard.press('Shift+ArrowRight');
    await page.waitForFunction(() => document.body.dataset.clStep === '11');
    await page.keyboard.press('End');
    await page.waitForFunction((n) => document.body.dataset.clStep === String(n), total);
    await page.selectOption('#cl-play-speed', '1');
    await p.waitForPost((m) => m.type === 'playSpeed' && typeof m.speed === 'object' && m.speed.realTime === 1);
    await goTo(page, 500);
    // a run that starts (Play) makes the panel follow it from its end, where the host steps on
    await p.send({ type: 'running', running: true });
    await page.waitForFunction((n) => document.body.dataset.clStep === String(n), total);
    await page.locator('#cl-history').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press(' ');
    await p.waitForPost((m) => m.type === 'command' && m.command === 'playPause' && m.step === total);
    assert.equal(await page.evaluate(() => document.body.dataset.clStep), String(total), 'Pause stays on the shown step');
    await page.locator('header.cl-header').screenshot({ path: shotPath('blowup-header-dark') });
    assert.deepEqual(p.invalidPosts, []);
  });
});
