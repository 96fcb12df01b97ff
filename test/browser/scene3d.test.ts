// The 3D scene view (webview/scene3d) in headless Chromium with a software WebGL (SwiftShader),
// under the panel's CSP and from file:// as in a standalone report. Pixel checks at the projected
// body positions, picking, the timeline, keyboard, the WebGL-unavailable message, screenshots of
// the double pendulum, the chain and a contact scene in the dark and light themes, and the
// first-paint / orbit-fps measurements (printed, not asserted).
import { after, afterEach, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';
import { renderPanelHtml } from '../../src/panelHtml';
import { encodeForJson, type PanelModel } from '../../src/protocol';
import { ROOT } from './fixtures';
import { CHROMIUM, requireChromium, ORIGIN, openFile, shotPath, THEMES, WEBGL_ARGS, type ThemeName } from './harness';
import { chainText, contactModel, exampleModel, galleryText, modelFromText } from './scene3d/models';

requireChromium();
type Rgb = [number, number, number];
type Sel = { body?: string; constraint?: string };

let bundle: { js: string; css: string } | undefined;
async function build(): Promise<{ js: string; css: string }> {
  if (bundle) return bundle;
  const r = await esbuild.build({
    entryPoints: [join(ROOT, 'test/browser/scene3d/page.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    mainFields: ['module', 'main'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  bundle = { js: r.outputFiles[0].text, css: readFileSync(join(ROOT, 'webview/scene3d/scene3d.css'), 'utf8') };
  return bundle;
}

async function launch3d(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', ...WEBGL_ARGS, '--disable-background-networking', '--no-first-run', '--font-render-hinting=none'],
  });
}

interface ScenePage {
  page: Page;
  problems: string[];
}

/** Every context opened by a test, closed after it (idle pages would still be composited). */
const open: { close(): Promise<void> }[] = [];
async function closeAll(): Promise<void> {
  for (const c of open.splice(0)) await c.close().catch(() => undefined);
}

/** The test page under the panel's CSP, with a VS Code theme's variables (and optionally without WebGL). */
async function openScene(browser: Browser, opts: { theme?: ThemeName; width?: number; height?: number; noWebGL?: boolean } = {}): Promise<ScenePage> {
  const { js, css } = await build();
  const theme = THEMES[opts.theme ?? 'dark'];
  const context = await browser.newContext({ viewport: { width: opts.width ?? 900, height: opts.height ?? 600 }, deviceScaleFactor: 1 });
  open.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.text().startsWith('CSP:')) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  const nonce = `bm9uY2U${Math.floor(Math.random() * 1e9).toString(36)}`;
  const html = renderPanelHtml({ cspSource: ORIGIN, nonce, scriptUri: `${ORIGIN}/scene3d.js`, styleUri: `${ORIGIN}/scene3d.css`, title: '3D view test' });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    const path = url.startsWith(ORIGIN) ? new URL(url).pathname : '';
    if (path === '/page.html') return route.fulfill({ status: 200, contentType: 'text/html', body: html });
    if (path === '/scene3d.js') return route.fulfill({ status: 200, contentType: 'text/javascript', body: js });
    if (path === '/scene3d.css') return route.fulfill({ status: 200, contentType: 'text/css', body: css });
    problems.push(`request: ${url}`);
    return route.abort();
  });
  const params = JSON.stringify({ vars: theme.vars, bodyClass: theme.bodyClass, noWebGL: !!opts.noWebGL });
  await page.addInitScript(`(() => {
    const P = ${params};
    document.addEventListener('securitypolicyviolation', (e) => console.log('CSP: ' + e.violatedDirective + ' ' + e.blockedURI));
    const apply = () => { if (!document.documentElement) return false; for (const [k, v] of Object.entries(P.vars)) document.documentElement.style.setProperty(k, v); return true; };
    if (!apply()) { const mo = new MutationObserver(() => { if (apply()) mo.disconnect(); }); mo.observe(document, { childList: true }); }
    document.addEventListener('DOMContentLoaded', () => {
      document.body.classList.add(P.bodyClass);
      if (P.bodyClass === 'vscode-high-contrast-light') document.body.classList.add('vscode-high-contrast');
      document.body.style.margin = '0';
      document.getElementById('app').style.padding = '8px';
    });
    if (P.noWebGL) {
      const orig = HTMLCanvasElement.prototype.getContext;
      HTMLCanvasElement.prototype.getContext = function (type, ...rest) {
        return /webgl/.test(type) ? null : orig.call(this, type, ...rest);
      };
    }
  })();`);
  await page.goto(`${ORIGIN}/page.html`);
  await page.waitForSelector('body[data-cl-ready="1"]', { state: 'attached', timeout: 15000 });
  return { page, problems };
}

async function create(p: ScenePage, model: PanelModel, opts: Record<string, unknown> = {}): Promise<{ available: boolean; firstPaintMs?: number }> {
  const text = encodeForJson(model);
  return p.page.evaluate(([t, o]) => window.cl3d.create(t, o as Parameters<typeof window.cl3d.create>[1]), [text, opts] as const);
}
const screen = (p: ScenePage, s: Sel): Promise<{ x: number; y: number } | undefined> => p.page.evaluate((sel) => window.cl3d.screen(sel), s);
const pixel = (p: ScenePage, x: number, y: number): Promise<Rgb> => p.page.evaluate(([a, b]) => window.cl3d.pixel(a, b), [x, y] as const);
const canvasBox = async (p: ScenePage): Promise<{ x: number; y: number; width: number; height: number }> => (await p.page.locator('.cl3d-canvas').boundingBox())!;
const distance = (a: Rgb, b: Rgb): number => Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]) + Math.abs(a[2] - b[2]);
const hexRgb = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;

async function shoot(p: ScenePage, name: string): Promise<string> {
  await p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  const file = shotPath(name);
  await p.page.locator('.cl3d').screenshot({ path: file });
  return file;
}

describe('3D scene view', () => {
  let browser: Browser;
  let pendulum: PanelModel;
  before(async () => {
    browser = await launch3d();
    pendulum = exampleModel('double-pendulum', 200, [120]);
  });
  afterEach(closeAll);
  after(async () => {
    await browser?.close();
  });

  test('draws the bodies: pixels at the projected body centres differ from the background', async () => {
    const p = await openScene(browser, { theme: 'dark' });
    const r = await create(p, pendulum);
    assert.equal(r.available, true, 'WebGL (SwiftShader) is available');
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    const corner = await pixel(p, 3, 3);
    assert.ok(distance(corner, bg) < 12, `the clear colour is the theme's editor background: ${corner} vs ${bg}`);
    for (const body of ['upper', 'lower']) {
      const s = await screen(p, { body });
      assert.ok(s, `${body} is in front of the camera`);
      const box = await canvasBox(p);
      assert.ok(s.x > 0 && s.x < box.width && s.y > 0 && s.y < box.height, `${body} is inside the canvas (fit to scene): ${JSON.stringify(s)}`);
      const c = await pixel(p, s.x, s.y);
      assert.ok(distance(c, bg) > 60, `${body} is drawn at its projected centre: ${c} vs background ${bg}`);
    }
    assert.deepEqual(p.problems, []);
  });

  test('picking a body or a constraint fires onSelect with it; Escape clears', async () => {
    const p = await openScene(browser, { theme: 'light' });
    await create(p, pendulum, { forces: 'off' });
    const box = await canvasBox(p);
    const s = (await screen(p, { body: 'lower' }))!;
    await p.page.mouse.click(box.x + s.x, box.y + s.y);
    let sel = await p.page.evaluate(() => window.cl3d.selections.slice());
    assert.deepEqual(sel.at(-1), { body: 'lower' });
    // Hovering a body labels it (the selection keeps its own label; the two never overlap).
    const u = (await screen(p, { body: 'upper' }))!;
    await p.page.mouse.move(box.x + u.x, box.y + u.y);
    const hoverLabel = p.page.locator('.cl3d-label:not(.cl3d-label-sel)');
    await hoverLabel.waitFor({ state: 'visible', timeout: 10_000 });
    assert.match(await hoverLabel.innerText(), /^upper · m 1/);
    const [ra, rb] = [await hoverLabel.boundingBox(), await p.page.locator('.cl3d-label-sel').boundingBox()];
    assert.ok(ra && rb && (ra.y >= rb.y + rb.height || rb.y >= ra.y + ra.height || ra.x >= rb.x + rb.width || rb.x >= ra.x + ra.width), 'labels do not overlap');
    const e = (await screen(p, { constraint: 'elbow' }))!;
    await p.page.mouse.click(box.x + e.x, box.y + e.y);
    sel = await p.page.evaluate(() => window.cl3d.selections.slice());
    assert.deepEqual(sel.at(-1), { constraint: 'elbow' });
    assert.deepEqual((await p.page.evaluate(() => window.cl3d.info())).selection, { constraint: 'elbow' });
    // The selection's label is shown (and only it: nothing is hovered after the click moved away).
    await p.page.mouse.move(box.x + 2, box.y + box.height - 2);
    await p.page.waitForFunction(() => document.querySelectorAll('.cl3d-label:not([hidden])').length === 1);
    assert.match(await p.page.locator('.cl3d-label-sel').innerText(), /^elbow · hinge · ok/);
    await p.page.keyboard.press('Escape');
    sel = await p.page.evaluate(() => window.cl3d.selections.slice());
    assert.deepEqual(sel.at(-1), {});
    // A drag orbits and does not select.
    const n = sel.length;
    await p.page.mouse.move(box.x + s.x, box.y + s.y);
    await p.page.mouse.down();
    await p.page.mouse.move(box.x + s.x + 80, box.y + s.y + 10, { steps: 5 });
    await p.page.mouse.up();
    assert.equal((await p.page.evaluate(() => window.cl3d.selections.length)), n);
    assert.deepEqual(p.problems, []);
  });

  test('setStep moves the bodies to their recorded poses', async () => {
    const p = await openScene(browser, { theme: 'dark' });
    await create(p, pendulum, { preset: 'XZ' });
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    const s0 = (await screen(p, { body: 'lower' }))!;
    await p.page.evaluate(() => window.cl3d.setStep(120));
    const s1 = (await screen(p, { body: 'lower' }))!;
    assert.ok(Math.hypot(s1.x - s0.x, s1.y - s0.y) > 20, `the lower link moved on screen: ${JSON.stringify(s0)} → ${JSON.stringify(s1)}`);
    // In the XZ view, screen y follows −z: the recorded z of step 120 is lower than at step 0.
    const z120 = pendulum.history[119].poses[7 + 2];
    assert.ok(z120 < 2 - 0.1 && s1.y > s0.y, `the link fell (z = ${z120})`);
    assert.ok(distance(await pixel(p, s1.x, s1.y), bg) > 60, 'the lower link is drawn at its new position');
    assert.deepEqual(p.problems, []);
  });

  test('setHistory: a run that grows redraws from the new records, keeping the camera', async () => {
    const p = await openScene(browser, { theme: 'dark' });
    await create(p, { ...pendulum, history: pendulum.history.slice(0, 10), snapshots: undefined }, { preset: 'XZ' });
    const s0 = (await screen(p, { body: 'lower' }))!;
    await p.page.evaluate(([h]) => window.cl3d.setHistory(h, 120), [encodeForJson(pendulum.history)] as const);
    const s1 = (await screen(p, { body: 'lower' }))!;
    assert.ok(s1.y - s0.y > 20, `the lower link is drawn at step 120 of the longer run: ${JSON.stringify(s0)} → ${JSON.stringify(s1)}`);
    assert.equal(await p.page.getAttribute('.cl3d-btn[title^="Front view"]', 'aria-pressed'), 'true', 'the camera stayed');
    assert.deepEqual(p.problems, []);
  });

  test('setHistory: the first records of a run fit an untouched camera to them; a camera the user moved stays', async () => {
    const p = await openScene(browser, { theme: 'dark' });
    const size = (): Promise<{ w: number; h: number }> => p.page.evaluate(() => ({ w: document.querySelector('canvas')!.clientWidth, h: document.querySelector('canvas')!.clientHeight }));
    const inside = (s: { x: number; y: number }, c: { w: number; h: number }): boolean => s.x >= 0 && s.y >= 0 && s.x <= c.w && s.y <= c.h;
    // A model before its streamed history (the panel's case): the camera fits step 0 only.
    await create(p, { ...pendulum, history: [], snapshots: undefined }, { preset: 'XZ' });
    const s0 = (await screen(p, { body: 'lower' }))!;
    await p.page.evaluate(([h]) => window.cl3d.setHistory(h, 0), [encodeForJson(pendulum.history)] as const);
    const s0fit = (await screen(p, { body: 'lower' }))!;
    assert.ok(Math.hypot(s0fit.x - s0.x, s0fit.y - s0.y) > 5, `refitted to the run: ${JSON.stringify(s0)} → ${JSON.stringify(s0fit)}`);
    const c = await size();
    for (const k of [60, 120, 200]) {
      await p.page.evaluate((step) => window.cl3d.setStep(step), k);
      const s = (await screen(p, { body: 'lower' }))!;
      assert.ok(inside(s, c), `step ${k}: the lower link is in the view (${JSON.stringify(s)} in ${JSON.stringify(c)})`);
    }
    // The user moved the camera: the run's first records leave it where it is.
    await create(p, { ...pendulum, history: [], snapshots: undefined }, { preset: 'XZ' });
    await p.page.evaluate(() => window.cl3d.orbitFps(100));
    const m0 = (await screen(p, { body: 'lower' }))!;
    await p.page.evaluate(([h]) => window.cl3d.setHistory(h, 0), [encodeForJson(pendulum.history)] as const);
    const m1 = (await screen(p, { body: 'lower' }))!;
    assert.ok(Math.hypot(m1.x - m0.x, m1.y - m0.y) < 0.5, `camera kept: ${JSON.stringify(m0)} → ${JSON.stringify(m1)}`);
    assert.deepEqual(p.problems, []);
  });

  test('a run that blew up: Fit frames the steps before the divergence onset and the step shown, not the exploded ones', async () => {
    const p = await openScene(browser, { theme: 'dark' });
    // The pendulum's last 50 steps blown up: every position ×1.5 per step (10 m, 1 km … 1e9 m), as
    // a diverging run's records grow, and the run's CL404 naming the onset.
    const onset = 150;
    const grow = (r: (typeof pendulum.history)[number], k: number): typeof r => {
      const f = Math.pow(1.5, k + 1 - onset);
      return { ...r, poses: r.poses.map((x, i) => (i % 7 < 3 ? x * f : x)) };
    };
    const tail = pendulum.history.map((r, i) => (i + 1 > onset ? grow(r, i + 1) : r));
    const cl404 = { code: 'CL404-divergence', severity: 'warning', message: 'the run diverged', data: { onset } } as unknown as PanelModel['diagnostics'][number];
    const at = async (m: PanelModel): Promise<{ x: number; y: number }> => {
      await create(p, m, { preset: 'XZ' });
      await p.page.evaluate(() => window.cl3d.setStep(120));
      return (await screen(p, { body: 'lower' }))!;
    };
    const clean = await at({ ...pendulum, history: pendulum.history.slice(0, onset), snapshots: undefined });
    const blown = await at({ ...pendulum, history: tail, snapshots: undefined, diagnostics: [...pendulum.diagnostics, cl404] });
    assert.ok(Math.hypot(blown.x - clean.x, blown.y - clean.y) < 3, `step 120 framed as in the run before the blow-up: ${JSON.stringify(clean)} vs ${JSON.stringify(blown)}`);
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    assert.ok(distance(await pixel(p, blown.x, blown.y), bg) > 60, 'the lower link is drawn at step 120');
    // Without the onset, the sane part of the growth (up to 1000 scene sizes) is framed: the link shrinks towards a point.
    const unknown = await at({ ...pendulum, history: tail, snapshots: undefined });
    assert.ok(Math.hypot(unknown.x - clean.x, unknown.y - clean.y) > 20, `the onset is what keeps the framing: ${JSON.stringify(clean)} vs ${JSON.stringify(unknown)}`);
    assert.deepEqual(p.problems, []);
  });

  test('a lost WebGL context shows a message over the view; the restored one draws again', async () => {
    const p = await openScene(browser, { theme: 'dark' });
    await create(p, pendulum);
    const bg = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    await p.page.evaluate(() => window.cl3d.loseContext(true));
    const msg = p.page.locator('.cl3d-message-over');
    await msg.waitFor({ state: 'visible', timeout: 5000 });
    assert.match(await msg.innerText(), /lost its WebGL context/);
    await p.page.evaluate(() => window.cl3d.loseContext(false));
    await msg.waitFor({ state: 'detached', timeout: 5000 });
    const s = (await screen(p, { body: 'upper' }))!;
    assert.ok(distance(await pixel(p, s.x, s.y), bg) > 60, 'drawn again after the restore');
    assert.deepEqual(p.problems.filter((x) => !/CONTEXT_LOST|context lost/i.test(x)), []);
  });

  test('keyboard: presets, fit, Tab cycles the selection and leaves at the end', async () => {
    const p = await openScene(browser, { theme: 'light' });
    await create(p, pendulum);
    await p.page.focus('.cl3d-canvas');
    const top = '.cl3d-btn[title^="Top view"]';
    const pressed = (v: string) => p.page.waitForFunction(([sel, want]) => document.querySelector(sel)?.getAttribute('aria-pressed') === want, [top, v] as const, { timeout: 3000 });
    await p.page.keyboard.press('1');
    await pressed('true');
    await p.page.keyboard.press('ArrowLeft');
    await pressed('false'); // orbiting leaves the preset
    await p.page.keyboard.press('0');
    await p.page.keyboard.press('F');
    const order: Sel[] = [];
    for (let i = 0; i < 4; i++) {
      await p.page.keyboard.press('Tab');
      order.push((await p.page.evaluate(() => window.cl3d.selections.at(-1)))!);
    }
    assert.deepEqual(order, [{ body: 'upper' }, { body: 'lower' }, { constraint: 'shoulder' }, { constraint: 'elbow' }]);
    await p.page.keyboard.press('Tab');
    const focused = await p.page.evaluate(() => document.activeElement?.className ?? '');
    assert.ok(!focused.includes('cl3d-canvas'), 'Tab after the last item moves focus on');
    assert.deepEqual(p.problems, []);
  });

  test('setTheme re-reads the --vscode-* colours', async () => {
    const p = await openScene(browser, { theme: 'dark' });
    await create(p, pendulum);
    const dark = hexRgb(THEMES.dark.vars['--vscode-editor-background']);
    const light = hexRgb(THEMES.light.vars['--vscode-editor-background']);
    assert.ok(distance(await pixel(p, 3, 3), dark) < 12);
    await p.page.evaluate((vars) => {
      for (const [k, v] of Object.entries(vars)) document.documentElement.style.setProperty(k, v);
      document.body.classList.replace('vscode-dark', 'vscode-light');
      window.cl3d.theme();
    }, THEMES.light.vars);
    assert.ok(distance(await pixel(p, 3, 3), light) < 12, 'the clear colour follows the theme');
    const s = (await screen(p, { body: 'upper' }))!;
    assert.ok(distance(await pixel(p, s.x, s.y), light) > 60, 'the bodies are drawn on the light background');
    assert.deepEqual(p.problems, []);
  });

  test('without WebGL the view shows a clear message, not a blank box', async () => {
    const p = await openScene(browser, { theme: 'dark', noWebGL: true });
    const r = await create(p, pendulum);
    assert.equal(r.available, false);
    const msg = p.page.locator('.cl3d-message[role="status"]');
    assert.ok(await msg.isVisible());
    assert.match(await msg.innerText(), /needs WebGL 2/);
    assert.equal(await p.page.locator('.cl3d-canvas').count(), 0);
  });

  test('the standalone report (file://, inline script and style, CSP without sources) draws the scene', async () => {
    const { js, css } = await build();
    const html = renderPanelHtml({ cspSource: '', nonce: 'cmVwb3J0bm9uY2U', scriptUri: '', styleUri: '', title: 'report', inlineScript: js, inlineStyle: css, embeddedModel: encodeForJson(pendulum) });
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'scene3d-report.html');
    writeFileSync(file, html);
    const r = await openFile(browser, file);
    const info = await r.page.evaluate(() => window.cl3d.info());
    assert.equal(info.available, true);
    assert.ok(info.calls > 3, `draw calls: ${info.calls}`);
    const s = (await r.page.evaluate(() => window.cl3d.screen({ body: 'upper' })))!;
    const c = await r.page.evaluate(([x, y]) => window.cl3d.pixel(x, y), [s.x, s.y] as const);
    const bg = await r.page.evaluate(() => window.cl3d.pixel(2, 2));
    assert.ok(distance(c, bg) > 60, `upper drawn: ${c} vs ${bg}`);
    assert.deepEqual([...r.cspViolations, ...r.consoleErrors, ...r.externalRequests], []);
  });

  test('screenshots (dark and light): double pendulum, chain, contacts, joint gallery, redundant rods', async () => {
    const chain = exampleModel('chain', 300, [300]);
    const gallery = modelFromText(galleryText(), 'gallery.scene.json', 20);
    const redundant = exampleModel('redundant-rods', 50);
    const contacts = contactModel();
    const shots: string[] = [];
    for (const theme of ['dark', 'light'] as ThemeName[]) {
      const p = await openScene(browser, { theme, width: 900, height: 560 });
      await create(p, pendulum, { step: 120 });
      await p.page.evaluate(() => window.cl3d.select({ constraint: 'elbow' }));
      shots.push(await shoot(p, `scene3d-double-pendulum-${theme}`));
      await create(p, chain, { step: 300, trail: 'all' });
      shots.push(await shoot(p, `scene3d-chain-${theme}`));
      await create(p, contacts, { preset: 'persp' });
      shots.push(await shoot(p, `scene3d-contacts-${theme}`));
      await create(p, gallery);
      shots.push(await shoot(p, `scene3d-gallery-${theme}`));
      await create(p, redundant);
      shots.push(await shoot(p, `scene3d-redundant-${theme}`));
      assert.deepEqual(p.problems, []);
    }
    for (const theme of ['hc-dark', 'hc-light'] as ThemeName[]) {
      const hc = await openScene(browser, { theme, width: 900, height: 560 });
      await create(hc, contacts);
      shots.push(await shoot(hc, `scene3d-contacts-${theme}`));
      await create(hc, gallery, { axes: true });
      await hc.page.evaluate(() => window.cl3d.select({ constraint: 'hinge' }));
      shots.push(await shoot(hc, `scene3d-gallery-${theme}`));
      assert.deepEqual(hc.problems, []);
    }
    console.log(`# screenshots:\n${shots.map((s) => `#   ${s}`).join('\n')}`);
  });

  test('measurement: first paint and orbit frame rate (printed, not asserted)', async () => {
    const rows: string[] = [];
    let gl = { renderer: '', software: false, antialias: false };
    const measure = async (name: string, model: PanelModel, shot?: string): Promise<void> => {
      const p = await openScene(browser, { theme: 'dark', width: 900, height: 600 });
      const r = await create(p, model);
      // First paint again on a fresh view (warm JIT and shader cache), the number a user sees on reopen.
      const r2 = await create(p, model);
      if (shot) console.log(`# screenshot: ${await shoot(p, shot)}`);
      const f = await p.page.evaluate(() => window.cl3d.orbitFps(2000));
      const info = await p.page.evaluate(() => window.cl3d.info());
      gl = info.gl;
      await p.page.context().close();
      rows.push(
        `${name.padEnd(21)} first paint ${r.firstPaintMs!.toFixed(0).padStart(4)} ms (again ${r2.firstPaintMs!.toFixed(0).padStart(3)} ms) · orbit ${f.fps.toFixed(1).padStart(4)} fps ` +
          `(${f.frames} frames) · main thread ${f.cpuMs.toFixed(1)} ms/frame · ${info.calls} draw calls, ${info.triangles} triangles`,
      );
    };
    await measure('double pendulum', pendulum);
    await measure('chain (10 links)', exampleModel('chain', 100));
    await measure('contacts (synthetic)', contactModel());
    await measure('chain (1000 links)', modelFromText(chainText(1000, 10), 'chain1000.scene.json', 10), 'scene3d-chain1000-dark');
    console.log(`# 3D view in headless Chromium, ${gl.renderer} (software: ${gl.software}, MSAA: ${gl.antialias}), 900×600 CSS px:\n${rows.map((r) => `#   ${r}`).join('\n')}`);
  });
});
