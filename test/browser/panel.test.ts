// The inspector panel and the standalone report in headless Chromium, fed with real engine output.
// Run: npm run test:browser (needs /usr/bin/chromium: fails with a message when it is missing; .ci/run installs it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { buildReportHtml, reportSnapshotSteps } from '../../src/report';
import { encodeHistory } from '../../src/shared/history';
import type { HostMessage, PanelModel, WebviewMessage } from '../../src/protocol';
import { buildFixture, fixtureFromText, ROOT, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openFile, openPanel, settle, shotPath, THEMES, type PanelPage } from './harness';
import { bigChainModel } from './synthetic';

requireChromium();

type Rgb = [number, number, number];

/** Pixel colour of the heatmap canvas at CSS position (x, y) of the canvas (deviceScaleFactor 1). */
async function pixel(page: Page, sel: string, x: number, y: number): Promise<Rgb> {
  return page.$eval(
    sel,
    (c, [px, py]) => {
      const d = (c as HTMLCanvasElement).getContext('2d')!.getImageData(Math.round(px), Math.round(py), 1, 1).data;
      return [d[0], d[1], d[2]] as [number, number, number];
    },
    [x, y] as const,
  );
}

/** Count of pixels in a canvas region that differ from the region's most common colour. */
async function inkInRegion(page: Page, sel: string, x: number, y: number, w: number, h: number): Promise<number> {
  return page.$eval(
    sel,
    (c, [rx, ry, rw, rh]) => {
      const cv = c as HTMLCanvasElement;
      const d = cv.getContext('2d')!.getImageData(rx, ry, Math.max(1, rw), Math.max(1, rh)).data;
      const counts = new Map<number, number>();
      for (let i = 0; i < d.length; i += 4) {
        const k = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
        counts.set(k, (counts.get(k) ?? 0) + 1);
      }
      let bg = 0;
      let best = -1;
      for (const [k, n] of counts) if (n > best) [bg, best] = [k, n];
      return d.length / 4 - (counts.get(bg) ?? 0);
    },
    [Math.round(x), Math.round(y), Math.round(w), Math.round(h)] as const,
  );
}

/** Non-transparent pixels of a chart canvas. */
/** The history charts are made after the first paint (webview/defer.ts): wait until all five are drawn. */
async function historyDrawn(page: Page): Promise<void> {
  for (const id of ['violation', 'lambda', 'cond', 'energy', 'drift']) await page.waitForSelector(`[data-chart="${id}"][data-points]`, { state: 'attached', timeout: 10_000 });
}

async function chartInk(page: Page, sel: string): Promise<number> {
  return page.$eval(sel, (c) => {
    const cv = c as HTMLCanvasElement;
    const d = cv.getContext('2d')!.getImageData(0, 0, cv.width, cv.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
}

interface Geometry {
  L: number;
  T: number;
  W: number;
  H: number;
  sx: number;
  sy: number;
  ox: number;
  oy: number;
  left: number;
  top: number;
}
async function heatmapGeometry(page: Page): Promise<Geometry> {
  return page.$eval('.cl-heatmap-canvas', (c) => {
    const el = c as HTMLCanvasElement;
    const [L, T, W, H] = el.dataset.plot!.split(',').map(Number);
    const [sx, sy, ox, oy] = el.dataset.view!.split(',').map(Number);
    const r = el.getBoundingClientRect();
    return { L, T, W, H, sx, sy, ox, oy, left: r.left, top: r.top };
  });
}
const cellCentre = (g: Geometry, i: number, j: number): { x: number; y: number } => ({ x: g.L + (j - g.ox + 0.5) * g.sx, y: g.T + (i - g.oy + 0.5) * g.sy });

function jEntry(model: PanelModel, i: number, j: number): number {
  const J = model.snapshot.J;
  for (let k = J.rowPtr[i]; k < J.rowPtr[i + 1]; k++) if (J.colIdx[k] === j) return J.values[k];
  return 0;
}

/** A computed CSS colour (rgb()/rgba()/color(srgb …)/#hex) → [r, g, b, a] with r,g,b 0–255. */
function parseCss(css: string): [number, number, number, number] {
  const t = css.trim().toLowerCase();
  let m = /^#([0-9a-f]{6})([0-9a-f]{2})?$/.exec(t);
  if (m) {
    const n = parseInt(m[1], 16);
    return [(n >> 16) & 255, (n >> 8) & 255, n & 255, m[2] ? Math.round((parseInt(m[2], 16) / 255) * 1000) / 1000 : 1];
  }
  m = /^rgba?\(([^)]+)\)$/.exec(t);
  if (m) {
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], Math.round((p[3] ?? 1) * 1000) / 1000];
  }
  m = /^color\(srgb ([^)]+)\)$/.exec(t);
  if (m) {
    const p = m[1].split(/[\s/]+/).filter(Boolean).map(Number);
    return [Math.round(p[0] * 255), Math.round(p[1] * 255), Math.round(p[2] * 255), Math.round((p[3] ?? 1) * 1000) / 1000];
  }
  throw new Error(`unparsed colour ${css}`);
}

/** WCAG 2 relative luminance of an sRGB colour. */
function wcagLuminance([r, g, b]: readonly number[]): number {
  const c = (x: number): number => {
    const s = x / 255;
    return s <= 0.03928 ? s / 12.92 : Math.pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * c(r) + 0.7152 * c(g) + 0.0722 * c(b);
}

/**
 * WCAG contrast of an element's text colour against what it is drawn on: the backgrounds of the
 * element and its ancestors, composited bottom-up (translucent text composited over the result).
 */
async function textContrast(page: Page, sel: string): Promise<number> {
  const { color, bgs, opacity } = await page.$eval(sel, (el) => {
    const out: string[] = [];
    let op = 1;
    for (let e: Element | null = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      out.push(cs.backgroundColor);
      op *= Number(cs.opacity);
    }
    return { color: getComputedStyle(el).color, bgs: out, opacity: op };
  });
  let bg = [255, 255, 255];
  for (const b of bgs.reverse()) {
    const [r, g, bb, a] = parseCss(b);
    bg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), bb * a + bg[2] * (1 - a)];
  }
  const [r, g, b, a0] = parseCss(color);
  const a = a0 * opacity;
  const fg = [r * a + bg[0] * (1 - a), g * a + bg[1] * (1 - a), b * a + bg[2] * (1 - a)];
  const [l1, l2] = [wcagLuminance(fg), wcagLuminance(bg)].sort((x, y) => y - x);
  return (l1 + 0.05) / (l2 + 0.05);
}

const isRedOrBlue = ([r, g, b]: Rgb): 'red' | 'blue' | 'neutral' => (r > b + 30 && r > g ? 'red' : b > r + 30 ? 'blue' : 'neutral');

async function assertClean(p: Pick<PanelPage, 'cspViolations' | 'consoleErrors' | 'externalRequests'>, what: string): Promise<void> {
  assert.deepEqual(p.cspViolations, [], `${what}: CSP violations`);
  assert.deepEqual(p.consoleErrors, [], `${what}: console errors`);
  assert.deepEqual(p.externalRequests, [], `${what}: network requests outside the page`);
}

describe('inspector panel (Chromium)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let redundant: Fixture;
  let chain: Fixture;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    redundant = buildFixture('redundant-rods', 60);
    chain = buildFixture('chain', 80);
  });
  after(async () => {
    await close?.();
  });

  test('boots: posts ready, renders the header from the model message', async () => {
    const p = await openPanel(browser, redundant);
    const ready = p.posted[0];
    assert.equal(ready.type, 'ready');
    // with when the page and its script started: in order, and just now
    const su = ready.type === 'ready' ? ready.startup : undefined;
    assert.ok(su && su.navigationStart <= su.scriptStart && su.scriptStart <= su.readyAt && Math.abs(Date.now() - su.readyAt) < 600_000, JSON.stringify(su));
    const page = p.page;
    assert.equal(await page.textContent('.cl-title'), 'Redundant rods');
    assert.match((await page.textContent('[data-stat="step"]'))!, /60 \/ 60/);
    assert.match((await page.textContent('[data-stat="cond"]'))!, /∞\s*singular/);
    assert.match((await page.textContent('[data-stat="rank"]'))!, /1 \/ 2 rows/);
    assert.match((await page.textContent('[data-stat="dofs"]'))!, /6/);
    assert.equal(await page.getAttribute('[data-stat="cond"]', 'class'), 'cl-stat cl-stat-cond cl-singular');
    assert.deepEqual(p.invalidPosts, []);
    await assertClean(p, 'panel');
    await page.context().close();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`heatmap (${theme}): cells drawn, positive red / negative blue, labels, exact tooltip`, async () => {
      const p = await openPanel(browser, chain, { theme });
      const page = p.page;
      const g = await heatmapGeometry(page);
      // Cells: plenty of non-background pixels in the plot area.
      const ink = await inkInRegion(page, '.cl-heatmap-canvas', g.L, g.T, g.W, g.H);
      assert.ok(ink > 500, `heatmap plot area has ink (${ink})`);
      // Labels in both gutters.
      assert.ok((await inkInRegion(page, '.cl-heatmap-canvas', 0, g.T, g.L - 4, g.H)) > 100, 'row labels drawn');
      assert.ok((await inkInRegion(page, '.cl-heatmap-canvas', g.L, 0, g.W, g.T - 2)) > 100, 'column labels drawn');
      // Positive and negative cells of J in distinct hues.
      const m = chain.model;
      let pos: [number, number] | undefined;
      let neg: [number, number] | undefined;
      for (let i = 0; i < m.snapshot.J.rows && !(pos && neg); i++) {
        for (let k = m.snapshot.J.rowPtr[i]; k < m.snapshot.J.rowPtr[i + 1]; k++) {
          const v = m.snapshot.J.values[k];
          if (Math.abs(v) < 0.5) continue;
          if (v > 0) pos ??= [i, m.snapshot.J.colIdx[k]];
          else neg ??= [i, m.snapshot.J.colIdx[k]];
        }
      }
      assert.ok(pos && neg, 'J has strongly positive and negative entries');
      const cp = cellCentre(g, ...pos);
      const cn = cellCentre(g, ...neg);
      assert.equal(isRedOrBlue(await pixel(page, '.cl-heatmap-canvas', cp.x, cp.y)), 'red', 'positive cell is red');
      assert.equal(isRedOrBlue(await pixel(page, '.cl-heatmap-canvas', cn.x, cn.y)), 'blue', 'negative cell is blue');
      // Tooltip with the exact value and the labels.
      await page.mouse.move(g.left + cn.x, g.top + cn.y);
      await page.waitForSelector('.cl-heatmap .cl-tooltip:not([hidden])');
      const tip = (await page.textContent('.cl-heatmap .cl-tooltip'))!;
      const v = jEntry(m, neg[0], neg[1]);
      assert.ok(tip.includes(String(v)), `tooltip "${tip}" shows ${v}`);
      assert.ok(tip.includes(m.snapshot.rows[neg[0]].label), 'tooltip names the row');
      assert.ok(tip.includes(m.snapshot.columnLabels[neg[1]]), 'tooltip names the column');
      await page.screenshot({ path: shotPath(`heatmap-tooltip-${theme}`), clip: { x: 0, y: 0, width: 1400, height: 760 } });
      await page.mouse.move(5, 5);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: shotPath(`panel-chain-${theme}`), fullPage: true });
      await assertClean(p, theme);
      await page.context().close();
    });
  }

  for (const theme of ['hc-dark', 'hc-light'] as const) {
    test(`high contrast (${theme}): AA text contrast, contrastBorder borders, focus outlines, two-signed heatmap`, async () => {
      const vars = THEMES[theme].vars;
      const contrastBorder = parseCss(vars['--vscode-contrastBorder']);
      const activeBorder = parseCss(vars['--vscode-contrastActiveBorder']);
      const p = await openPanel(browser, chain, { theme });
      const page = p.page;
      assert.ok(await page.evaluate(() => document.body.classList.contains('vscode-high-contrast')), 'body has the HC class');

      // Text against the background it is actually drawn on (translucent colours composited).
      const ratios: Record<string, number> = {};
      for (const [what, sel, min] of [
        ['header title', '.cl-title', 4.5],
        ['header subtitle', '.cl-subtitle', 4.5],
        ['header stat label', '.cl-stat-label', 4.5],
        ['card title', '#cl-forces .cl-card-title', 4.5],
        ['card description', '#cl-matrices .cl-desc', 4.5],
        ['card table cell', '#cl-forces tbody td', 4.5],
        ['secondary button', '.cl-btn:not(.cl-btn-primary):not(.cl-icon-btn)', 4.5],
        ['primary button', '.cl-btn-primary', 4.5],
        ['badge', '.cl-count', 4.5],
      ] as const) {
        const r = await textContrast(page, sel);
        ratios[what] = Math.round(r * 100) / 100;
        assert.ok(r >= min, `${theme}: ${what} (${sel}) contrast ${r.toFixed(2)} < ${min}`);
      }
      console.log(`# ${theme} contrast ratios: ${JSON.stringify(ratios)}`);

      // Cards, header stats, buttons and the 3D view are outlined with contrastBorder.
      for (const sel of ['.cl-card', '.cl-stat:not(.cl-warn)', '.cl-btn:not(.cl-icon-btn)', '.cl3d', '.cl-card-head']) {
        const side = sel.endsWith('head') ? 'Bottom' : 'Top';
        const b = await page
          .$eval(
            sel,
            (el, sd) => {
              const cs = getComputedStyle(el);
              return { w: cs.getPropertyValue(`border-${sd}-width`), s: cs.getPropertyValue(`border-${sd}-style`), c: cs.getPropertyValue(`border-${sd}-color`) };
            },
            side.toLowerCase(),
          )
          .catch(() => null);
        assert.ok(b, `${sel} exists`);
        assert.ok(parseFloat(b.w) >= 1 && b.s !== 'none', `${theme}: ${sel} has a visible border (${b.w} ${b.s})`);
        assert.deepEqual(parseCss(b.c), contrastBorder, `${theme}: ${sel} border is contrastBorder (${b.c})`);
      }
      // The selected matrix tab is marked by more than colour: an outline in contrastActiveBorder.
      const tab = await page.$eval('.cl-tab[aria-selected="true"]', (el) => {
        const cs = getComputedStyle(el);
        return { s: cs.outlineStyle, c: cs.outlineColor };
      });
      assert.ok(tab.s !== 'none', `${theme}: selected tab is outlined`);
      assert.deepEqual(parseCss(tab.c), activeBorder, `${theme}: selected tab outline is contrastActiveBorder`);
      // Keyboard focus: outlined in contrastActiveBorder.
      await page.focus('.cl-tab[aria-selected="true"]');
      await page.keyboard.press('Tab');
      const focus = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const cs = getComputedStyle(el);
        return { tag: el.tagName, cls: el.className, s: cs.outlineStyle, w: cs.outlineWidth, c: cs.outlineColor };
      });
      assert.ok(focus.s !== 'none' && parseFloat(focus.w) >= 1, `${theme}: focused ${focus.tag}.${focus.cls} has an outline`);
      assert.deepEqual(parseCss(focus.c), activeBorder, `${theme}: focus outline of ${focus.tag}.${focus.cls} is contrastActiveBorder`);
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

      // The heatmap still shows both signs in distinct hues, plenty of each.
      const g = await heatmapGeometry(page);
      const counts = await page.$eval(
        '.cl-heatmap-canvas',
        (c, [x, y, w, h]) => {
          const d = (c as HTMLCanvasElement).getContext('2d')!.getImageData(x, y, w, h).data;
          let red = 0;
          let blue = 0;
          for (let i = 0; i < d.length; i += 4) {
            const [r, gg, b] = [d[i], d[i + 1], d[i + 2]];
            if (r > b + 60 && r > gg + 30) red++;
            else if (b > r + 60) blue++;
          }
          return { red, blue };
        },
        [Math.round(g.L), Math.round(g.T), Math.round(g.W), Math.round(g.H)] as const,
      );
      assert.ok(counts.red > 200 && counts.blue > 200, `${theme}: heatmap has positive (${counts.red}) and negative (${counts.blue}) coloured pixels`);
      // The smallest non-zero entry is more than a faint tint: it stands apart from the background.
      const J = chain.model.snapshot.J;
      let small: [number, number, number] | undefined;
      for (let i = 0; i < J.rows; i++) {
        for (let k = J.rowPtr[i]; k < J.rowPtr[i + 1]; k++) {
          const v = Math.abs(J.values[k]);
          if (v > 1e-9 && (!small || v < small[2])) small = [i, J.colIdx[k], v];
        }
      }
      assert.ok(small, 'J has non-zeros');
      const cs = cellCentre(g, small[0], small[1]);
      const bgRgb = parseCss(vars['--vscode-editor-background']);
      const smallRgb = await pixel(page, '.cl-heatmap-canvas', cs.x, cs.y);
      const smallContrast = (Math.max(wcagLuminance(smallRgb), wcagLuminance(bgRgb)) + 0.05) / (Math.min(wcagLuminance(smallRgb), wcagLuminance(bgRgb)) + 0.05);
      console.log(`# ${theme} smallest |J| entry ${small[2].toPrecision(3)} drawn ${JSON.stringify(smallRgb)}, contrast ${smallContrast.toFixed(2)} against the background`);
      assert.ok(smallContrast >= 1.3, `${theme}: smallest non-zero (${small[2]}) is distinguishable from zero (contrast ${smallContrast.toFixed(2)})`);
      // Charts still draw.
      assert.ok((await chartInk(page, '.cl-chart-lambda canvas')) > 2000, 'λ bar chart drawn');
      await historyDrawn(page);
      assert.ok((await chartInk(page, '[data-chart="energy"] canvas')) > 2000, 'energy chart drawn');

      await page.evaluate(() => window.scrollTo(0, 0));
      await settle(page);
      await page.screenshot({ path: shotPath(`panel-chain-${theme}`), fullPage: true });
      await assertClean(p, theme);
      await page.context().close();
    });
  }

  test('a scene without constraints: κ reads "–" and "no constraints" in the header, never ∞', async () => {
    const free = fixtureFromText('free.scene.json', JSON.stringify({ name: 'Free body', bodies: [{ name: 'B', mass: 1, velocity: [1, 0, 0] }], constraints: [] }), 5);
    const p = await openPanel(browser, free);
    const page = p.page;
    const cond = (await page.textContent('[data-stat="cond"]'))!;
    assert.match(cond, /–\s*no constraints/);
    assert.doesNotMatch(cond, /∞|singular/);
    assert.equal(await page.getAttribute('[data-stat="cond"]', 'class'), 'cl-stat cl-stat-cond cl-none');
    await assertClean(p, 'free body');
    await page.context().close();
  });

  test('charts render: λ, spectrum and the five history charts', async () => {
    const p = await openPanel(browser, chain);
    const page = p.page;
    assert.ok((await chartInk(page, '.cl-chart-lambda canvas')) > 2000, 'λ bar chart drawn');
    assert.ok((await chartInk(page, '.cl-chart-spectrum canvas')) > 2000, 'spectrum drawn');
    await historyDrawn(page);
    for (const id of ['violation', 'lambda', 'cond', 'energy', 'drift']) {
      assert.ok((await chartInk(page, `[data-chart="${id}"] canvas`)) > 2000, `history chart ${id} drawn`);
    }
    assert.equal(await page.$eval('#cl-scene .cl3d', (el) => (el as HTMLElement & { sceneView?: { available: boolean } }).sceneView?.available), true, '3D scene view running');
    await assertClean(p, 'charts');
    await page.context().close();
  });

  // Twice: with a host that answers at once, and with a slow one whose reply for the step End asked
  // for lands after the run has moved on (the order a loaded 2-core CI machine produced).
  for (const snapshotDelayMs of [0, 1500]) test(`timeline: the slider posts requestSnapshot and the header follows the step (host replies ${snapshotDelayMs ? `after ${snapshotDelayMs} ms` : 'at once'})`, async () => {
    const p = await openPanel(browser, chain, { snapshotDelayMs });
    const page = p.page;
    await page.focus('#cl-step-slider');
    await page.keyboard.press('Home');
    for (let k = 0; k < 5; k++) await page.keyboard.press('ArrowRight');
    const req = await p.waitForPost((m) => m.type === 'requestSnapshot' && m.step === 5);
    assert.equal((req as Extract<WebviewMessage, { type: 'requestSnapshot' }>).step, 5);
    await page.waitForFunction(() => document.querySelector('[data-stat="step"]')?.textContent?.includes('5 / 80'));
    // The host's snapshot for step 5 lands and the matrices show it (no "loading" note).
    await page.waitForFunction(() => !document.querySelector('.cl-step-note.cl-visible'));
    assert.match((await page.textContent('[data-stat="time"]'))!, /0\.025 s/);
    // The state is persisted.
    const states = (await page.evaluate('window.__clStates')) as { selectedStep?: number }[];
    assert.equal(states.at(-1)?.selectedStep, 5);
    // While following the live end, history appends extend the run and the pushed snapshot moves
    // the step: the header, the forces and the matrices move together.
    await p.send({ type: 'historyReset', length: 60, seq: 100 } satisfies HostMessage);
    await page.keyboard.press('End');
    await page.waitForFunction(() => document.querySelector('[data-stat="step"]')?.textContent?.includes('60 / 60'));
    await p.send({ type: 'historyAppend', chunk: encodeHistory(chain.model.history, 60, 70), total: 70, seq: 101 } satisfies HostMessage);
    await page.waitForFunction(() => document.querySelector('[data-stat="step"]')?.textContent?.includes('60 / 70'));
    await p.send({ type: 'snapshot', snapshot: chain.snapshotAt(70), seq: 102 } satisfies HostMessage);
    await page.waitForFunction(() => document.querySelector('[data-stat="step"]')?.textContent?.includes('70 / 70'));
    assert.equal(await page.getAttribute('#cl-forces', 'data-step'), '70');
    assert.equal(await page.getAttribute('#cl-matrices', 'data-step'), '70');
    assert.equal(await page.getAttribute('#cl-scene', 'data-step'), '70');
    assert.equal(await page.getAttribute('body', 'data-cl-consistent'), '1');
    // Every flow-controlled message is acknowledged, once.
    for (const seq of [100, 101, 102]) await p.waitForPost((m) => m.type === 'ack' && m.seq === seq);
    assert.equal(p.posted.filter((m) => m.type === 'ack' && m.seq === 101).length, 1);
    // The reply to End's request, however late, does not move the step back.
    await p.hostIdle();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    assert.match((await page.textContent('[data-stat="step"]'))!, /70 \/ 70/);
    assert.equal(await page.getAttribute('#cl-matrices', 'data-step'), '70');
    await assertClean(p, 'timeline');
    await page.context().close();
  });

  test('selecting a constraint posts reveal (table, heatmap row, scene, diagnostics)', async () => {
    const p = await openPanel(browser, redundant);
    const page = p.page;
    const rod2 = redundant.model.snapshot.constraints.find((c) => c.name === 'rod2')!;
    await page.click('.cl-table tbody tr[data-constraint="1"] .cl-link');
    const r1 = await p.waitForPost((m) => m.type === 'reveal');
    assert.deepEqual(r1, { type: 'reveal', constraintIndex: rod2.fileIndex });
    assert.equal(await page.getAttribute('.cl-table tbody tr[data-constraint="1"]', 'class'), 'cl-selected');
    // A click on a J cell of row 0 (rod1) reveals rod1.
    const g = await heatmapGeometry(page);
    const c = cellCentre(g, 0, 2);
    const before = p.posted.length;
    await page.mouse.click(g.left + c.x, g.top + c.y);
    const r2 = await p.waitForPost((m) => m.type === 'reveal' && p.posted.indexOf(m) >= before);
    assert.equal((r2 as { constraintIndex?: number }).constraintIndex, redundant.model.snapshot.constraints[0].fileIndex);
    // Keyboard: Enter on the focused heatmap activates the cursor row. The mouse leaves the matrix first, so
    // that the tooltip waited for is the keyboard cursor's (on rod2's row), not the hover's left on rod1's
    await page.mouse.move(1, 1);
    await page.focus('.cl-heatmap-canvas');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => /rod2/.test(document.querySelector('.cl-heatmap .cl-tooltip:not([hidden])')?.textContent ?? ''));
    const n3 = p.posted.length;
    await page.keyboard.press('Enter');
    const r3 = await p.waitForPost((m) => m.type === 'reveal' && p.posted.indexOf(m) >= n3);
    assert.equal((r3 as { constraintIndex?: number }).constraintIndex, rod2.fileIndex);
    // A diagnostic posts reveal with its range.
    const n4 = p.posted.length;
    await page.click('.cl-diag');
    const r4 = (await p.waitForPost((m) => m.type === 'reveal' && p.posted.indexOf(m) >= n4)) as Extract<WebviewMessage, { type: 'reveal' }>;
    assert.ok(r4.range && typeof r4.range.start.line === 'number', 'diagnostic reveal carries the range');
    // Redundancy card lists the dependent row and its combination.
    const red = (await page.textContent('#cl-redundancy'))!;
    assert.match(red, /rod2\.d\s*=\s*1·rod1\.d/);
    // Commands.
    await page.click('[data-command="step"]');
    await p.waitForPost((m) => m.type === 'command' && m.command === 'step');
    await p.send({ type: 'running', running: true });
    assert.equal(await page.getAttribute('[data-command="playPause"]', 'aria-pressed'), 'true');
    // Copy J as CSV and as a NumPy literal (clipboard permission granted as VS Code does).
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: 'https://webview.test' });
    await page.click('#cl-tab-J');
    await page.click('button[title="Copy as CSV (with labels)"]');
    await page.waitForSelector('.cl-copy-status.cl-visible');
    const csv = (await page.evaluate('navigator.clipboard.readText()')) as string;
    const j01 = jEntry(redundant.model, 0, 2);
    assert.equal(csv.split('\n')[0], ',bob.vx,bob.vy,bob.vz,bob.ωx,bob.ωy,bob.ωz');
    assert.ok(csv.split('\n')[1].startsWith('rod1.d,') && csv.includes(String(j01)), csv);
    await page.click('button[title="Copy as a NumPy array literal"]');
    await page.waitForFunction(() => document.querySelector('.cl-copy-status')?.textContent?.includes('NumPy'));
    const py = (await page.evaluate('navigator.clipboard.readText()')) as string;
    assert.match(py, /^# J rows 0\.\.1, cols 0\.\.5/);
    assert.match(py, /J = np\.array\(\[\n {4}\[/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: shotPath('panel-redundant-selected-light'), fullPage: true });
    await assertClean(p, 'reveal');
    await page.context().close();
  });

  test('problems: the JSON syntax errors (VS Code reports them) and a run’s diagnostics message are listed and counted', async () => {
    const range = { start: { line: 3, character: 4 }, end: { line: 3, character: 5 } };
    const syntax = { severity: 'error' as const, code: 'CL001', message: 'Expected a comma', range };
    const base = redundant.model.diagnostics;
    const p = await openPanel(browser, { ...redundant, model: { ...redundant.model, syntaxErrors: [syntax] } });
    const page = p.page;
    const counts = async (): Promise<string[]> => page.$$eval('[data-stat="problems"] .cl-prob', (els) => els.map((e) => e.textContent ?? ''));
    const errors0 = base.filter((d) => d.severity === 'error').length;
    const warnings0 = base.filter((d) => d.severity === 'warning').length;
    assert.equal((await counts())[0], String(errors0 + 1), 'the header counts the syntax error');
    assert.equal(await page.textContent('#cl-diagnostics .cl-count'), String(base.length + 1));
    const row = page.locator('#cl-diagnostics .cl-diag-syntax');
    assert.equal(await row.count(), 1);
    assert.match((await row.textContent())!, /CL001.*Expected a comma.*JSON · Ln 4/);
    assert.match((await row.getAttribute('aria-label'))!, /JSON syntax/);
    await row.click();
    const r = (await p.waitForPost((m) => m.type === 'reveal')) as Extract<WebviewMessage, { type: 'reveal' }>;
    assert.deepEqual(r.range, range, 'a syntax error reveals its range');
    // A run adds drift (CL402); the syntax error has been fixed meanwhile.
    const drift = { severity: 'warning' as const, code: 'CL402', message: 'Constraint drift exceeds the tolerance', range };
    await p.send({ type: 'diagnostics', diagnostics: [...base, drift] } satisfies HostMessage);
    await page.waitForFunction((n) => document.querySelector('#cl-diagnostics .cl-count')?.textContent === String(n), base.length + 1);
    assert.equal(await row.count(), 0, 'no syntax error any more');
    assert.match((await page.textContent('#cl-diagnostics'))!, /CL402/);
    assert.deepEqual((await counts()).slice(0, 2), [String(errors0), String(warnings0 + 1)]);
    await assertClean(p, 'problems');
    await page.context().close();
  });

  test('messages: invalid ones are ignored and logged, JSON text and typed arrays both accepted, state restored', async () => {
    // A state saved by an older panel (with the 2D view's projection): the rest is restored.
    const p = await openPanel(browser, redundant, { initialState: { selectedMatrix: 'A', logScale: true, projection: 'XY' } });
    const page = p.page;
    assert.equal(await page.getAttribute('#cl-tab-A', 'aria-selected'), 'true');
    assert.equal(await page.getAttribute('.cl-toggle', 'aria-pressed'), 'true');
    const saved = (await page.evaluate('window.__clStates')) as Record<string, unknown>[];
    assert.ok(saved.length > 0 && !('projection' in saved.at(-1)!), `the projection is not saved again: ${JSON.stringify(saved.at(-1))}`);
    await page.evaluate(() => window.dispatchEvent(new MessageEvent('message', { data: { type: 'snapshot', snapshot: 42 } })));
    await page.evaluate(() => window.dispatchEvent(new MessageEvent('message', { data: '{"type":"nope"}' })));
    await p.waitForPost((m) => m.type === 'log' && m.level === 'error');
    // The model again, as JSON text, then a snapshot as an object with typed arrays.
    await p.send({ type: 'model', model: chain.model }, 'json');
    await page.waitForFunction(() => document.querySelector('.cl-title')?.textContent === 'Chain of 10 links');
    await p.send({ type: 'snapshot', snapshot: chain.snapshotAt(80) }, 'object');
    await p.send({ type: 'invalidated', reason: 'edited' });
    assert.match((await page.textContent('.cl-banner'))!, /edited/);
    await p.send({ type: 'select', constraint: 'joint3' });
    assert.equal(await page.getAttribute('.cl-table tbody tr[data-constraint="3"]', 'class'), 'cl-selected');
    assert.deepEqual(p.consoleErrors, []);
    await page.context().close();
  });

  test('a 9000 × 18000 J is drawn, zoomed and panned (visible cells only, per-pixel aggregation; its speed: npm run bench:ui)', async () => {
    const p = await openPanel(browser, redundant);
    const page = p.page;
    const big = bigChainModel(3000);
    const t0 = Date.now();
    await p.send({ type: 'model', model: big }, 'object');
    await page.waitForFunction(() => document.querySelector('.cl-title')?.textContent?.startsWith('Synthetic'));
    await settle(page);
    const loadMs = Date.now() - t0;
    const ms = Number(await page.getAttribute('.cl-heatmap-canvas', 'data-render-ms'));
    assert.equal(await page.getAttribute('.cl-heatmap-canvas', 'data-matrix'), 'J');
    assert.ok(Number.isFinite(ms) && ms >= 0, `the full view was drawn (data-render-ms ${ms})`);
    const g = await heatmapGeometry(page);
    assert.ok((await inkInRegion(page, '.cl-heatmap-canvas', g.L, g.T, g.W, g.H)) > 200, 'the band of J is visible when zoomed out');
    // Zoom in with the wheel several times; each render stays fast.
    await page.mouse.move(g.left + g.L + 40, g.top + g.T + 40);
    for (let k = 0; k < 8; k++) await page.mouse.wheel(0, -400);
    await settle(page);
    const g2 = await heatmapGeometry(page);
    assert.ok(g2.sx > g.sx * 10, 'zoomed in');
    const ms2 = Number(await page.getAttribute('.cl-heatmap-canvas', 'data-render-ms'));
    assert.ok(Number.isFinite(ms2) && ms2 >= 0, `the zoomed view was drawn (data-render-ms ${ms2})`);
    // Keyboard pan far into the matrix.
    await page.focus('.cl-heatmap-canvas');
    for (let k = 0; k < 20; k++) await page.keyboard.press('PageDown');
    await settle(page);
    const g3 = await heatmapGeometry(page);
    assert.ok(g3.oy > g2.oy, 'panned down');
    await page.click('#cl-tab-A');
    await settle(page);
    assert.equal(await page.getAttribute('.cl-heatmap-canvas', 'data-matrix'), 'A');
    console.log(`# big model: load+render ${loadMs} ms, full view ${ms} ms, zoomed ${ms2} ms`);
    await page.screenshot({ path: shotPath('panel-big-light'), clip: { x: 0, y: 0, width: 1400, height: 800 } });
    await assertClean(p, 'big');
    await page.context().close();
  });

  test('standalone report: one file, opens from file:// offline, scrubbable, same rendering', async () => {
    const fx = chain;
    const steps = reportSnapshotSteps(fx.model.history.length, fx.model.snapshot.rows.length, fx.model.snapshot.J.cols);
    const model: PanelModel = { ...fx.model, snapshots: steps.map((k) => fx.snapshotAt(k)), generator: 'browser test' };
    const html = buildReportHtml(model, {
      js: readFileSync(join(ROOT, 'dist', 'webview.js'), 'utf8'),
      css: readFileSync(join(ROOT, 'dist', 'webview.css'), 'utf8'),
    });
    assert.doesNotMatch(html, /(src|href)="https?:/);
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'report-chain.html');
    writeFileSync(file, html);
    for (const dark of [false, true]) {
      const p = await openFile(browser, file, { dark });
      const page = p.page;
      assert.equal(await page.textContent('.cl-title'), 'Chain of 10 links');
      assert.equal(await page.$('[data-command]'), null, 'no simulation controls in a report');
      assert.match((await page.textContent('.cl-badge'))!, /read-only/);
      const g = await heatmapGeometry(page);
      assert.ok((await inkInRegion(page, '.cl-heatmap-canvas', g.L, g.T, g.W, g.H)) > 500, 'report heatmap drawn');
      await historyDrawn(page);
      assert.ok((await chartInk(page, '[data-chart="violation"] canvas')) > 2000, 'report history chart drawn');
      // Scrub to step 10 with the keyboard.
      await page.focus('#cl-step-slider');
      await page.keyboard.press('Home');
      for (let k = 0; k < 10; k++) await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => document.querySelector('[data-stat="step"]')?.textContent?.includes('10 / 80'));
      const note = (await page.textContent('.cl-step-note'))!;
      if (!steps.includes(10)) assert.match(note, /nearest embedded/);
      await page.keyboard.press('End');
      await page.focus('body');
      await settle(page);
      await page.screenshot({ path: shotPath(`report-chain-${dark ? 'dark' : 'light'}`), fullPage: true });
      await assertClean(p, 'report');
      await page.context().close();
    }
  });
});
