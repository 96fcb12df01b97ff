// Two presentation rules of the panel in headless Chromium: Greek letters are never upper-cased
// (κ, λ, σ show as themselves), and heatmap cells print their value whenever it fits, non-zero
// values first (a "0" is never printed beside a coloured cell left blank).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { buildFixture, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openPanel, settle, shotPath } from './harness';

requireChromium();

interface Geometry {
  L: number;
  T: number;
  W: number;
  H: number;
  sx: number;
  sy: number;
  ox: number;
  oy: number;
}
async function geometry(page: Page): Promise<Geometry> {
  const [plot, view] = await page.$eval('.cl-heatmap-canvas', (c) => [(c as HTMLCanvasElement).dataset.plot!, (c as HTMLCanvasElement).dataset.view!]);
  const [L, T, W, H] = plot.split(',').map(Number);
  const [sx, sy, ox, oy] = view.split(',').map(Number);
  return { L, T, W, H, sx, sy, ox, oy };
}

/** Stored entries of J whose cell lies wholly inside the plot, with the cell's box (CSS px). */
function visibleStored(fx: Fixture, g: Geometry): { v: number; x: number; y: number; w: number; h: number }[] {
  const J = fx.model.snapshot.J;
  const out: { v: number; x: number; y: number; w: number; h: number }[] = [];
  for (let i = 0; i < J.rows; i++) {
    for (let k = J.rowPtr[i]; k < J.rowPtr[i + 1]; k++) {
      const j = J.colIdx[k];
      const x = g.L + (j - g.ox) * g.sx;
      const y = g.T + (i - g.oy) * g.sy;
      if (x >= g.L && y >= g.T && x + g.sx <= g.L + g.W && y + g.sy <= g.T + g.H) out.push({ v: J.values[k], x, y, w: g.sx, h: g.sy });
    }
  }
  return out;
}

/** Pixels inside each box (inset past grid lines) that differ clearly from the box's main colour: text. */
async function textInk(page: Page, boxes: { x: number; y: number; w: number; h: number }[]): Promise<number[]> {
  const rects = boxes.map((b) => [Math.ceil(b.x) + 3, Math.ceil(b.y) + 3, Math.floor(b.w) - 6, Math.floor(b.h) - 6]);
  return page.$eval(
    '.cl-heatmap-canvas',
    (c, rs) => {
      const ctx = (c as HTMLCanvasElement).getContext('2d')!;
      return rs.map(([x, y, w, h]) => {
        const d = ctx.getImageData(x, y, w, h).data;
        const counts = new Map<number, number>();
        for (let i = 0; i < d.length; i += 4) {
          const key = (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
          counts.set(key, (counts.get(key) ?? 0) + 1);
        }
        let bg = 0;
        let best = -1;
        for (const [key, n] of counts) if (n > best) [bg, best] = [key, n];
        const [r0, g0, b0] = [(bg >> 16) & 255, (bg >> 8) & 255, bg & 255];
        let ink = 0;
        for (let i = 0; i < d.length; i += 4) if (Math.abs(d[i] - r0) + Math.abs(d[i + 1] - g0) + Math.abs(d[i + 2] - b0) > 90) ink++;
        return ink;
      });
    },
    rects,
  );
}

describe('panel labels (Chromium)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let chain: Fixture;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    chain = buildFixture('chain', 80);
  });
  after(async () => {
    await close?.();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`Greek letters are never upper-cased (${theme})`, async () => {
      const p = await openPanel(browser, chain, { theme });
      const page = p.page;
      // No element whose text holds a Greek letter is transformed by CSS.
      const transformed = (await page.evaluate(`(() => {
        const out = [];
        for (const el of document.querySelectorAll('body *')) {
          if (!/[\\u0370-\\u03ff]/.test(el.textContent || '')) continue;
          const t = getComputedStyle(el).textTransform;
          if (t !== 'none') out.push(el.tagName + '.' + el.className + ': ' + t + ' "' + (el.textContent || '').slice(0, 30) + '"');
        }
        return out;
      })()`)) as string[];
      assert.deepEqual(transformed, [], 'text-transform on text with Greek letters');
      // What is rendered (innerText applies text-transform) shows κ, λ, σ as written.
      const rendered = (await page.evaluate(`(() => ({
        cond: document.querySelector('[data-stat="cond"] .cl-stat-label').innerText,
        kv: [...document.querySelectorAll('#cl-spectrum .cl-kv-k')].map((e) => e.innerText),
        head: [...document.querySelectorAll('#cl-forces thead th')].map((e) => e.innerText),
        body: document.body.innerText,
        text: document.body.textContent,
      }))()`)) as { cond: string; kv: string[]; head: string[]; body: string; text: string };
      assert.equal(rendered.cond, 'κ(A)');
      assert.deepEqual(rendered.kv.slice(0, 2), ['κ(A)', 'κ SCALED']);
      assert.ok(rendered.kv.includes('σ MAX') && rendered.kv.includes('σ MIN'), rendered.kv.join(' | '));
      assert.ok(rendered.head.includes('λ'), rendered.head.join(' | '));
      // Latin labels are still small capitals, written so in the markup.
      assert.equal(await page.textContent('#cl-forces .cl-card-title'), 'CONSTRAINT FORCES');
      assert.equal(await page.textContent('[data-stat="step"] .cl-stat-label'), 'STEP');
      // No capital Greek letter appears on screen that the text does not hold.
      for (let cp = 0x391; cp <= 0x3a9; cp++) {
        const ch = String.fromCodePoint(cp);
        const shown = rendered.body.split(ch).length - 1;
        const written = rendered.text.split(ch).length - 1;
        assert.ok(shown <= written, `${ch} shown ${shown}× but written ${written}×`);
      }
      await page.context().close();
    });
  }

  test('heatmap cells print their value whenever it fits, non-zero values first', async () => {
    const p = await openPanel(browser, chain, { theme: 'light' });
    const page = p.page;
    const J = chain.model.snapshot.J;
    assert.ok(J.values.some((v) => v === 0), 'J stores explicit zeros');
    assert.ok(J.values.some((v) => v < 0 && v > -1), 'J has fractional negative entries (like −0.0474)');
    const zoomIn = async (): Promise<Geometry> => {
      await page.click('button[aria-label="Zoom in"]');
      await page.mouse.move(1, 1);
      await settle(page);
      return geometry(page);
    };
    // 20 px cells: "0" and "−1" fit but "−0.72" does not, so no zero may speak either.
    let g = await zoomIn();
    assert.ok(Math.abs(g.sx - 20) < 1e-9, String(g.sx));
    let cells = visibleStored(chain, g);
    let ink = await textInk(page, cells);
    const [printed20, nonZero20, zeros20] = (await page.getAttribute('.cl-heatmap-canvas', 'data-values'))!.split(/[/,]/).map(Number);
    assert.ok(nonZero20 > 0 && printed20 < nonZero20, `some non-zero values do not fit 20 px cells (${printed20}/${nonZero20})`);
    assert.equal(zeros20, 0, 'zeros stay blank while a non-zero value is blank');
    cells.forEach((c, k) => {
      if (c.v === 0) assert.ok(ink[k] < 3, `zero cell at (${c.x}, ${c.y}) is blank (${ink[k]} px of ink)`);
    });
    // 32 px cells: every value fits (fewer digits or the smaller font), and then the zeros print too.
    g = await zoomIn();
    assert.ok(Math.abs(g.sx - 32) < 1e-9, String(g.sx));
    cells = visibleStored(chain, g);
    ink = await textInk(page, cells);
    const labelled = cells.filter((c, k) => c.v !== 0 && ink[k] >= 4).length;
    const nonZero = cells.filter((c) => c.v !== 0).length;
    assert.ok(nonZero > 20, `enough non-zero cells in view (${nonZero})`);
    assert.equal(labelled, nonZero, 'every visible non-zero cell shows its value');
    const zeros = cells.filter((c) => c.v === 0);
    assert.ok(zeros.length > 0 && zeros.every((c) => ink[cells.indexOf(c)] >= 2), 'zeros print once every non-zero value did');
    const [printed32, nonZero32, zeros32] = (await page.getAttribute('.cl-heatmap-canvas', 'data-values'))!.split(/[/,]/).map(Number);
    assert.equal(printed32, nonZero32);
    assert.ok(zeros32 > 0);
    await page.screenshot({ path: shotPath('heatmap-values-light'), clip: { x: 0, y: 0, width: 1400, height: 760 } });
    await page.context().close();
  });
});
