// Issue 10's "Done means", in the panel as a user meets it (headless Chromium, real engine output):
// the box-stack example run for 40 steps shows its contact forces as arrows (the 3D view's legend and
// its force arrows) and as numbers (the Contacts card: 3·m·g on the ground), and Newton's convergence
// chart per step (a click on a step asks for that step); with a time step that is too large, the
// velocity box stack penetrates and the diagnostic (CL501) sits on the penetrating shape's name in the
// scene file, while the position-level (nonlinear) stack does not penetrate and reports Newton's
// trouble on a shape instead (CL502). Screenshots: test-results/screenshots/done-*.png.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildFixture, fixtureFromText, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openPanel, settle, shotPath, type PanelPage } from './harness';

requireChromium();

const ROOT = join(__dirname, '../..');
const VIEW = '#cl-scene .cl3d';
const example = (name: string): string => readFileSync(join(ROOT, 'examples', `${name}.scene.json`), 'utf8');
/** The example with another time step. */
const withDt = (text: string, dt: number): string => {
  const out = text.replace(/"dt":\s*0\.01\b/, `"dt": ${dt}`);
  assert.notEqual(out, text, 'the example sets dt = 0.01');
  return out;
};

/** The text a range covers in `text` (lines and characters 0-based). */
function textAt(text: string, r: { start: { line: number; character: number }; end: { line: number; character: number } }): string {
  const lines = text.split('\n');
  if (r.start.line === r.end.line) return lines[r.start.line].slice(r.start.character, r.end.character);
  return [lines[r.start.line].slice(r.start.character), ...lines.slice(r.start.line + 1, r.end.line), lines[r.end.line].slice(0, r.end.character)].join('\n');
}

/** Non-transparent pixels of a 2D canvas. */
const ink = (page: Page, sel: string): Promise<number> =>
  page.$eval(sel, (c) => {
    const cv = c as HTMLCanvasElement;
    const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });

/**
 * Renders the 3D view now and reads its pixels back: `keep` stores them in the page, otherwise the
 * count of pixels that differ (L1 > 30) from the stored ones is returned.
 */
const render3d = (page: Page, keep: boolean): Promise<number> =>
  page.$eval(
    VIEW,
    (el, k) => {
      const v = (el as HTMLElement & { sceneView: { renderNow(): void; canvas: HTMLCanvasElement } }).sceneView;
      v.renderNow();
      const gl = v.canvas.getContext('webgl2')!;
      const d = new Uint8Array(v.canvas.width * v.canvas.height * 4);
      gl.readPixels(0, 0, v.canvas.width, v.canvas.height, gl.RGBA, gl.UNSIGNED_BYTE, d);
      const w = window as unknown as { __cl3dPixels?: Uint8Array };
      if (k) {
        w.__cl3dPixels = d;
        return 0;
      }
      const old = w.__cl3dPixels!;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - old[i]) + Math.abs(d[i + 1] - old[i + 1]) + Math.abs(d[i + 2] - old[i + 2]) > 30) n++;
      return n;
    },
    keep,
  );

function assertClean(p: PanelPage, what: string): void {
  assert.deepEqual(p.cspViolations, [], `${what}: CSP violations`);
  assert.deepEqual(p.consoleErrors, [], `${what}: console errors`);
  assert.deepEqual(p.externalRequests, [], `${what}: network requests outside the page`);
}

/** The problems list's entries: code and message. */
const problems = (page: Page): Promise<{ code: string; text: string }[]> =>
  page.$$eval('#cl-diagnostics .cl-diag', (bs) => bs.map((b) => ({ code: b.querySelector('.cl-diag-code')?.textContent ?? '', text: b.textContent ?? '' })));

describe("the box stack in the panel: contacts, forces and the run (Chromium)", () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let stack: Fixture;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    stack = buildFixture('box-stack', 40);
  });
  after(async () => {
    await close?.();
  });

  test('box stack, run: contact forces as arrows and numbers, Newton convergence per step', async () => {
    const p = await openPanel(browser, stack, { width: 1500, height: 2600 });
    const page = p.page;
    // arrows: the 3D view draws the contacts and their forces (legend), in the contact colour
    await page.locator(`${VIEW} .cl3d-canvas`).scrollIntoViewIfNeeded();
    await settle(page);
    const legend = (await page.textContent(`${VIEW} .cl3d-legend`))!;
    assert.match(legend, /contacts/, legend);
    assert.match(legend, /stick/, legend);
    const forces = page.locator(`${VIEW} .cl3d-btn`, { hasText: 'Forces:' });
    assert.equal(await forces.textContent(), 'Forces: all');
    await page.locator('#cl-scene').screenshot({ path: shotPath('done-box-stack-scene') });
    // the arrows: what the view draws with forces shown and not shown differs by the force arrows
    await render3d(page, true);
    await forces.click(); // selected (no constraint selected: no arrows)
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('Forces: selected'), `${VIEW} .cl3d-toolbar`);
    await forces.click(); // off
    await page.waitForFunction((sel) => document.querySelector(sel)?.textContent?.includes('Forces: off'), `${VIEW} .cl3d-toolbar`);
    assert.equal(await forces.textContent(), 'Forces: off');
    await settle(page);
    const arrowPixels = await render3d(page, false);
    assert.ok(arrowPixels > 300, `the contact force arrows cover ${arrowPixels} px of the 3D view`);
    await page.locator('#cl-scene').screenshot({ path: shotPath('done-box-stack-scene-forces-off') });
    await forces.click(); // back to all
    // numbers: one row per contact, 3·m·g on the ground, m·g between the upper boxes
    const rows = await page.$$eval('#cl-contacts tbody tr', (trs) => trs.map((tr) => Array.from(tr.children, (td) => td.textContent ?? '')));
    assert.equal(rows.length, 12);
    const total = (pair: string) => rows.filter((r) => r[1] === pair).reduce((s, r) => s + Number(r[6]), 0);
    assert.ok(Math.abs(total('bottom → world') - 3 * 9.81) < 1e-2, `ground ${total('bottom → world')}`);
    assert.ok(rows.every((r) => Number.isFinite(Number(r[6])) && Number(r[6]) > 0), 'every contact pushes');
    await page.locator('#cl-contacts').screenshot({ path: shotPath('done-box-stack-contacts') });
    // Newton's convergence chart for the shown step, and a click on the per-step chart asks for another step
    assert.ok((await ink(page, '.cl-chart-newton canvas')) > 2000, 'convergence chart drawn');
    const b = (await page.locator('.cl-chart-newton-steps canvas').boundingBox())!;
    await page.mouse.click(b.x + b.width * 0.5, b.y + b.height * 0.5);
    const req = await p.waitForPost((m) => m.type === 'requestSnapshot');
    assert.ok(req.type === 'requestSnapshot' && req.step > 0 && req.step < 40, JSON.stringify(req));
    await settle(page);
    assert.ok((await ink(page, '.cl-chart-newton canvas')) > 2000, 'convergence chart of the chosen step drawn');
    await page.locator('#cl-newton').screenshot({ path: shotPath('done-box-stack-newton') });
    await page.screenshot({ path: shotPath('done-box-stack-panel'), fullPage: true });
    assertClean(p, 'box stack');
    await page.context().close();
  });

  test('velocity box stack with dt = 0.2 and 10 sweeps: it penetrates, and CL501 sits on the penetrating shape', async () => {
    // accelerated sweeps (NNCG) meet this stack's contacts at dt = 0.2 within the default 100; capped at 10 they do not
    const text = withDt(example('box-stack.velocity'), 0.2).replace(/"formulation":\s*"velocity"/, '"formulation": "velocity", "pgs": {"iterations": 10}');
    assert.match(text, /"pgs": \{"iterations": 10\}/);
    const f = fixtureFromText('box-stack.velocity.scene.json', text, 40);
    const p = await openPanel(browser, f, { width: 1500, height: 2200 });
    const page = p.page;
    const list = await problems(page);
    const pen = list.find((d) => d.code === 'CL501-penetration');
    assert.ok(pen, JSON.stringify(list));
    assert.match(pen.text, /Shape bottomBox of bottom penetrates shape middleBox of middle by [\d.]+ m/);
    // clicking it reveals the shape in the scene file: the range is the penetrating shape's name
    await page.locator('#cl-diagnostics .cl-diag', { hasText: 'CL501' }).first().click();
    const rev = await p.waitForPost((m) => m.type === 'reveal' && 'range' in m && m.range !== undefined);
    assert.ok(rev.type === 'reveal' && rev.range);
    assert.equal(textAt(text, rev.range), '"bottomBox"');
    await page.locator('#cl-diagnostics').screenshot({ path: shotPath('done-box-stack-dt-problems') });
    await page.screenshot({ path: shotPath('done-box-stack-dt-panel'), fullPage: true });
    assertClean(p, 'velocity stack, large dt');
    await page.context().close();
  });

  test('nonlinear box stack with dt = 1: no penetration (position-level contacts), Newton not converged on a shape (CL502)', async () => {
    const text = withDt(example('box-stack'), 1);
    const f = fixtureFromText('box-stack.scene.json', text, 10);
    const worst = Math.max(...f.model.history.map((r) => r.maxPenetration ?? 0));
    assert.ok(worst < 1e-3, `largest penetration ${worst} m`);
    const d = f.model.diagnostics.find((x) => x.code === 'CL502-newton-not-converged');
    assert.ok(d, f.model.diagnostics.map((x) => x.code).join(', '));
    assert.match(textAt(text, d.range), /^"(bottom|middle|top)Box"$/);
    const p = await openPanel(browser, f, { width: 1500, height: 2200 });
    const list = await problems(p.page);
    assert.ok(list.some((x) => x.code === 'CL502-newton-not-converged' && /Newton did not converge/.test(x.text)), JSON.stringify(list));
    await p.page.locator('#cl-newton').screenshot({ path: shotPath('done-box-stack-dt1-newton') });
    assertClean(p, 'nonlinear stack, large dt');
    await p.page.context().close();
  });
});
