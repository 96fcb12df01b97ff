// The panel's scene card with the 3D view (webview/scene3d) in headless Chromium with a software
// WebGL, fed with real engine output through the harness's host stub: the bodies are drawn where
// the view projects them (pixel checks), picking selects in the store (heatmap outline, table,
// note) and posts `reveal`, the timeline and the host's history move the bodies, the host's
// `select` (the editor's cursor) highlights in the view and the heatmap, the standalone report
// draws it from file://, and screenshots of the double pendulum, the chain and two contact scenes
// (their arrows) in dark and light.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildReportHtml, reportSnapshotSteps } from '../../src/report';
import type { ContactReport, PanelModel, WebviewMessage } from '../../src/protocol';
import { encodeHistory } from '../../src/shared/history';
import { buildFixture, ROOT, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openFile, openPanel, settle, shotPath, THEMES, type PanelPage, type ThemeName } from './harness';

requireChromium();
type Rgb = [number, number, number];
type Sel = { body?: string; constraint?: string; contact?: string };
const VIEW = '#cl-scene .cl3d';

/** Where the panel's 3D view draws a body's centre or a constraint's anchors' midpoint (CSS px in its canvas). */
async function screenPos(page: Page, sel: Sel): Promise<{ x: number; y: number }> {
  const s = await page.$eval(VIEW, (el, q) => (el as HTMLElement & { sceneView: { screenPosition(q: Sel): { x: number; y: number } | undefined } }).sceneView.screenPosition(q), sel);
  assert.ok(s, `${JSON.stringify(sel)} is in front of the camera`);
  return s;
}

/** The 3D canvas pixel at CSS (x, y): rendered now and read back in the same task. */
async function pixel3d(page: Page, x: number, y: number): Promise<Rgb> {
  return page.$eval(
    VIEW,
    (el, [px, py]) => {
      const v = (el as HTMLElement & { sceneView: { renderNow(): void; canvas: HTMLCanvasElement } }).sceneView;
      v.renderNow();
      const c = v.canvas;
      const gl = c.getContext('webgl2')!;
      const k = c.width / c.clientWidth;
      const out = new Uint8Array(4);
      gl.readPixels(Math.round(px * k), Math.round(c.height - 1 - py * k), 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, out);
      return [out[0], out[1], out[2]] as Rgb;
    },
    [x, y] as const,
  );
}

const viewSelection = (page: Page): Promise<Sel> => page.$eval(VIEW, (el) => (el as HTMLElement & { sceneView: { selection: Sel } }).sceneView.selection);
const heatmapSelection = (page: Page): Promise<string> => page.$eval('.cl-heatmap-canvas', (c) => (c as HTMLCanvasElement).dataset.selection ?? '');

/** Waits for the heatmap to outline `want` (`rows|cols`; it redraws on the next animation frame). */
async function expectOutline(page: Page, want: string | RegExp, what: string): Promise<void> {
  const t0 = Date.now();
  let got = '';
  while (Date.now() - t0 < 3000) {
    got = await heatmapSelection(page);
    if (typeof want === 'string' ? got === want : want.test(got)) return;
    await new Promise((r) => setTimeout(r, 30));
  }
  assert.fail(`${what}: the heatmap outlines "${got}", expected "${want}"`);
}
const distance = (a: Rgb, b: Rgb): number => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
const hexRgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;

/** The canvas box on the page, scrolled into view. */
async function canvasBox(page: Page): Promise<{ x: number; y: number; width: number; height: number }> {
  const c = page.locator(`${VIEW} .cl3d-canvas`);
  await c.scrollIntoViewIfNeeded();
  return (await c.boundingBox())!;
}

async function assertDrawn(page: Page, bodies: string[], bg: Rgb, what: string): Promise<void> {
  const box = await canvasBox(page);
  for (const body of bodies) {
    const s = await screenPos(page, { body });
    assert.ok(s.x > 0 && s.x < box.width && s.y > 0 && s.y < box.height, `${what}: ${body} inside the canvas: ${JSON.stringify(s)} in ${box.width}×${box.height}`);
    const c = await pixel3d(page, s.x, s.y);
    assert.ok(distance(c, bg) > 60, `${what}: ${body} drawn at its projected centre: ${c} vs background ${bg}`);
  }
}

function assertClean(p: Pick<PanelPage, 'cspViolations' | 'consoleErrors' | 'externalRequests'>, what: string): void {
  assert.deepEqual(p.cspViolations, [], `${what}: CSP violations`);
  assert.deepEqual(p.consoleErrors, [], `${what}: console errors`);
  assert.deepEqual(p.externalRequests, [], `${what}: network requests outside the page`);
}

const rowsOf = (m: PanelModel, name: string): string => {
  const c = m.snapshot.constraints.find((x) => x.name === name)!;
  return `${c.firstRow}-${c.firstRow + c.rows}`;
};
const colsOf = (m: PanelModel, name: string): string => {
  const col = m.snapshot.bodyStates.find((b) => b.name === name)!.column;
  return `${col}-${col + 6}`;
};

describe('panel scene card: the 3D view (Chromium, SwiftShader)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let pendulum: Fixture;
  let chain: Fixture;
  let rods: Fixture;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    pendulum = buildFixture('double-pendulum', 200);
    chain = buildFixture('chain', 300);
    rods = buildFixture('redundant-rods', 20);
  });
  after(async () => {
    await close?.();
  });

  test('the scene card draws the double pendulum in 3D under the panel CSP (pixels at the projected bodies)', async () => {
    const p = await openPanel(browser, pendulum, { theme: 'dark' });
    const page = p.page;
    assert.equal(await page.locator('#cl-scene canvas').count(), 1, 'one canvas in the scene card: the WebGL one');
    assert.equal(await page.$eval(VIEW, (el) => (el as HTMLElement & { sceneView: { available: boolean } }).sceneView.available), true, 'WebGL 2 available');
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    assert.ok(distance(await pixel3d(page, 3, 3), bg) < 12, 'cleared to the theme’s editor background');
    await assertDrawn(page, ['upper', 'lower'], bg, 'panel');
    // The legend names the states drawn, the tree's (and the table's) states of the step: at step
    // 200 both hinges have drifted past the violation tolerance.
    const statuses = new Set(await page.locator('.cl-table .cl-status').allTextContents());
    assert.deepEqual([...statuses], ['violated']);
    assert.match((await page.textContent(`${VIEW} .cl3d-legend`))!, /violated/);
    assertClean(p, 'scene card');
    await page.context().close();
  });

  test('picking selects in the store: a click on a body outlines its J columns and posts reveal; a constraint too; Tab selects, Enter reveals', async () => {
    const p = await openPanel(browser, pendulum, { theme: 'light' });
    const page = p.page;
    const m = pendulum.model;
    const box = await canvasBox(page);
    const lower = await screenPos(page, { body: 'lower' });
    await page.mouse.click(box.x + lower.x, box.y + lower.y);
    const r1 = await p.waitForPost((x) => x.type === 'reveal');
    assert.deepEqual(r1, { type: 'reveal', bodyIndex: 1 }, 'the body’s index in the file');
    await expectOutline(page, `|${colsOf(m, 'lower')}`, 'J: the body’s six columns');
    assert.deepEqual(await viewSelection(page), { body: 'lower' });
    assert.match((await page.textContent('.cl-scene-note'))!, /^lower selected .*constraints: elbow/);
    // A constraint: its rows and its bodies' columns in J, the table row, reveal with its file index.
    const elbow = await screenPos(page, { constraint: 'elbow' });
    const n = p.posted.length;
    await page.mouse.click(box.x + elbow.x, box.y + elbow.y);
    const r2 = await p.waitForPost((x) => x.type === 'reveal' && p.posted.indexOf(x) >= n);
    assert.deepEqual(r2, { type: 'reveal', constraintIndex: m.snapshot.constraints.find((c) => c.name === 'elbow')!.fileIndex });
    await expectOutline(page, `${rowsOf(m, 'elbow')}|${colsOf(m, 'upper')} ${colsOf(m, 'lower')}`, 'J: the constraint’s rows and its bodies’ columns');
    assert.match((await page.getAttribute('.cl-table tbody tr.cl-selected', 'data-constraint'))!, /^1$/);
    // A: the constraint's block.
    await page.click('#cl-tab-A');
    await expectOutline(page, `${rowsOf(m, 'elbow')}|${rowsOf(m, 'elbow')}`, 'A: the constraint’s block');
    await page.click('#cl-tab-J');
    // Keyboard: Escape clears (nothing posted), Tab selects the first body (no reveal), Enter reveals it.
    await page.focus(`${VIEW} .cl3d-canvas`);
    await page.keyboard.press('Escape');
    await expectOutline(page, '|', 'Escape clears');
    const k = p.posted.length;
    await page.keyboard.press('Tab');
    assert.deepEqual(await viewSelection(page), { body: 'upper' });
    await expectOutline(page, `|${colsOf(m, 'upper')}`, 'Tab');
    await page.keyboard.press('Enter');
    const r3 = await p.waitForPost((x) => x.type === 'reveal' && p.posted.indexOf(x) >= k);
    assert.deepEqual(r3, { type: 'reveal', bodyIndex: 0 });
    assert.equal(p.posted.slice(k).filter((x) => x.type === 'reveal').length, 1, 'Tab itself did not reveal');
    // A selection made elsewhere (the table) is highlighted in the view.
    await page.click('.cl-table tbody tr[data-constraint="0"] .cl-link');
    await settle(page); // the cards show a selection in the next frame (webview/frame.ts)
    assert.deepEqual(await viewSelection(page), { constraint: 'shoulder' });
    assertClean(p, 'picking');
    await page.context().close();
  });

  test('a contact picked in the view (Tab past the bodies) stays selected and is named under the view, no reveal; a body click replaces it', async () => {
    const stack = buildFixture('box-stack', 60);
    const p = await openPanel(browser, stack, { theme: 'dark' });
    const page = p.page;
    const cs = (stack.model.history[stack.model.history.length - 1] as { contacts?: ContactReport[] }).contacts ?? [];
    assert.ok(cs.length > 0, 'box-stack has contacts at its last step');
    const n = p.posted.length;
    await page.focus(`${VIEW} .cl3d-canvas`);
    let sel: Sel = {};
    for (let i = 0; i < 8 && sel.contact === undefined; i++) {
      await page.keyboard.press('Tab');
      sel = await viewSelection(page);
    }
    const name = sel.contact;
    assert.ok(name, 'Tab reaches the step’s contacts after the bodies');
    assert.match(name, /^\w+\/\w+–\w+\/\w+( #\d)?$/, 'named A/shapeA–B/shapeB');
    await page.waitForFunction((nm) => document.querySelector('.cl-scene-note')?.textContent?.startsWith(`Selected contact ${nm}`), name);
    const note = (await page.textContent('.cl-scene-note'))!;
    assert.match(note, /(open|stick|slip)/, `the note gives the contact's state: ${note}`);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(await viewSelection(page), { contact: name }, 'the store did not clear the view’s contact');
    await expectOutline(page, '|', 'no rows or columns outlined for a contact');
    assert.equal(p.posted.slice(n).filter((x) => x.type === 'reveal').length, 0, 'a contact has nothing to reveal in the file');
    const box = await canvasBox(page);
    const top = await screenPos(page, { body: 'top' });
    await page.mouse.click(box.x + top.x, box.y + top.y);
    await page.waitForFunction(() => document.querySelector('.cl-scene-note')?.textContent?.startsWith('top selected'));
    assert.deepEqual(await viewSelection(page), { body: 'top' });
    assertClean(p, 'contact picking');
    await page.context().close();
  });

  test('the timeline and the host’s history move the bodies (recorded poses, no engine in the panel)', async () => {
    const p = await openPanel(browser, pendulum, { theme: 'dark' });
    const page = p.page;
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    const goTo = async (k: number): Promise<void> => {
      await page.$eval('#cl-step-slider', (el, v) => {
        (el as HTMLInputElement).value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, k);
      await page.waitForFunction((v) => document.querySelector('[data-stat="step"]')?.textContent?.includes(`${v} / `), k);
      await settle(page);
    };
    await goTo(0);
    const s0 = await screenPos(page, { body: 'lower' });
    await goTo(120);
    await p.waitForPost((x: WebviewMessage) => x.type === 'requestSnapshot' && x.step === 120);
    const s1 = await screenPos(page, { body: 'lower' });
    assert.ok(Math.hypot(s1.x - s0.x, s1.y - s0.y) > 20, `the lower link moved on screen: ${JSON.stringify(s0)} → ${JSON.stringify(s1)}`);
    assert.ok(distance(await pixel3d(page, s1.x, s1.y), bg) > 60, 'drawn at its recorded pose of step 120');
    // Its world position is the recorded pose: screen positions of step 120 equal the view's own
    // projection of history[119] (the card passes the step, the view reads the record).
    const z120 = pendulum.model.history[119].poses[7 + 2];
    assert.ok(z120 < 1.9, `the link fell (z = ${z120})`);
    // The host's history (a run going on, the panel following the live end): the view follows it,
    // reading the poses from the store's columns (only the appended records travel).
    await goTo(200);
    await p.send({ type: 'historyReset', length: 40, seq: 1 });
    await page.waitForFunction(() => document.querySelector('[data-stat="step"]')?.textContent?.includes('40 / 40'));
    await settle(page);
    const s40 = await screenPos(page, { body: 'lower' });
    await p.send({ type: 'historyAppend', chunk: encodeHistory(pendulum.model.history, 40, 120), total: 120, snapshot: pendulum.snapshotAt(120), seq: 2 });
    await page.waitForFunction(() => document.querySelector('[data-stat="step"]')?.textContent?.includes('120 / 120'));
    await settle(page);
    const s120 = await screenPos(page, { body: 'lower' });
    assert.ok(Math.hypot(s120.x - s1.x, s120.y - s1.y) < 1.5, `the grown run shows step 120 where the slider did (camera kept): ${JSON.stringify(s120)} vs ${JSON.stringify(s1)}`);
    assert.ok(Math.hypot(s120.x - s40.x, s120.y - s40.y) > 5, 'and it moved from step 40');
    assertClean(p, 'timeline');
    await page.context().close();
  });

  test('the host’s select (tree, editor cursor) highlights in the view and the heatmap; the redundant set is shown', async () => {
    const p = await openPanel(browser, rods, { theme: 'light' });
    const page = p.page;
    const m = rods.model;
    await p.send({ type: 'select', constraint: 'rod2' });
    assert.deepEqual(await viewSelection(page), { constraint: 'rod2' });
    await expectOutline(page, new RegExp(`^${rowsOf(m, 'rod2')}\\|`), 'host select rod2');
    await p.send({ type: 'select', body: 'bob' });
    assert.deepEqual(await viewSelection(page), { body: 'bob' });
    await expectOutline(page, `|${colsOf(m, 'bob')}`, 'host select bob');
    assert.equal(p.posted.filter((x) => x.type === 'reveal').length, 0, 'a selection from the host is not revealed back');
    // Both rods are in the redundant set of the shown step: the legend names the state and the halo.
    const legend = (await page.textContent(`${VIEW} .cl3d-legend`))!;
    assert.match(legend, /redundant/);
    assert.match(legend, /halo: redundant set/);
    assertClean(p, 'host select');
    await page.context().close();
  });

  test('the standalone report draws the 3D view from file:// and scrubs it', async () => {
    const fx = pendulum;
    const steps = reportSnapshotSteps(fx.model.history.length, fx.model.snapshot.rows.length, fx.model.snapshot.J.cols);
    const model: PanelModel = { ...fx.model, snapshots: steps.map((k) => fx.snapshotAt(k)), generator: 'browser test' };
    const html = buildReportHtml(model, { js: readFileSync(join(ROOT, 'dist', 'webview.js'), 'utf8'), css: readFileSync(join(ROOT, 'dist', 'webview.css'), 'utf8') });
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'report-double-pendulum.html');
    writeFileSync(file, html);
    const r = await openFile(browser, file);
    const page = r.page;
    const bg = await pixel3d(page, 2, 2);
    await assertDrawn(page, ['upper', 'lower'], bg, 'report');
    const end = await screenPos(page, { body: 'lower' });
    await page.focus('#cl-step-slider');
    await page.keyboard.press('Home');
    await settle(page);
    const start = await screenPos(page, { body: 'lower' });
    assert.ok(Math.hypot(end.x - start.x, end.y - start.y) > 20, 'scrubbing moves the bodies in the report');
    assertClean(r, 'report');
    await page.context().close();
  });

  test('screenshots: the panel with the 3D view, double pendulum and chain, dark and light', async () => {
    const shots: string[] = [];
    for (const theme of ['dark', 'light'] as ThemeName[]) {
      for (const [name, fx, sel] of [
        ['double-pendulum', pendulum, { constraint: 'elbow' }],
        ['chain', chain, { body: 'link6' }],
      ] as const) {
        const p = await openPanel(browser, fx, { theme });
        const page = p.page;
        await p.send({ type: 'select', ...sel });
        await page.mouse.move(2, 2);
        await settle(page);
        const full = shotPath(`panel3d-${name}-${theme}`);
        await page.screenshot({ path: full, fullPage: true });
        const cardShot = shotPath(`panel3d-${name}-${theme}-scene`);
        await page.locator('#cl-scene').screenshot({ path: cardShot });
        shots.push(full, cardShot);
        assertClean(p, `${name} ${theme}`);
        await page.context().close();
      }
    }
    console.log(`# screenshots:\n${shots.map((s) => `#   ${s}`).join('\n')}`);
  });

  test('screenshots: contact arrows in the panel (box stack with the velocity solver, box on the incline), dark and light; every friction drawn', async () => {
    const shots: string[] = [];
    for (const theme of ['dark', 'light'] as ThemeName[]) {
      for (const name of ['box-stack.velocity', 'box-incline']) {
        const fx = buildFixture(name, 60);
        const p = await openPanel(browser, fx, { theme });
        const page = p.page;
        await page.mouse.move(2, 2);
        await settle(page);
        type Spec = { kind: string; id: number };
        const arrows = await page.$eval(VIEW, (el) => (el as HTMLElement & { sceneView: { info: { arrows: readonly Spec[] } } }).sceneView.info.arrows.map((a) => ({ kind: a.kind, id: a.id })));
        const normals = arrows.filter((a) => a.kind === 'normal').length;
        assert.ok(normals > 0, `${name}: contact arrows in the panel's view`);
        const frictions = arrows.filter((a) => a.kind === 'friction');
        if (name === 'box-incline') assert.equal(frictions.length, normals, `${name}: every contact's friction is drawn`);
        else {
          // the level stack at rest needs no friction: PGS makes a sticking face's friction minimum-norm (the
          // ground's are round-off), and what holds the boxes on faces tilted within the contact slop is below
          // a hundred-thousandth of their weight, which reads as zero and is not drawn
          assert.deepEqual(frictions.map((a) => a.id), [], `${name}: frictions drawn on the resting stack`);
        }
        const cardShot = shotPath(`panel3d-arrows-${name}-${theme}-scene`);
        await page.locator('#cl-scene').screenshot({ path: cardShot });
        shots.push(cardShot);
        assertClean(p, `${name} ${theme}`);
        await page.context().close();
      }
    }
    console.log(`# screenshots:\n${shots.map((s) => `#   ${s}`).join('\n')}`);
  });
});
