// The heatmap's pure geometry (zoom, pan, cell ↔ pixel) and which text a cell can hold, in Node.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { keyAction, MAX_CELL, PAD, Viewport } from '../../webview/heatmap/viewport';
import { cellFontSizes, fitCellText } from '../../webview/heatmap/cellText';

/** A 30 × 60 matrix (the chain's J) in an 820 px wide canvas with 62 × 45 px gutters. */
function chainViewport(): Viewport {
  const vp = new Viewport();
  vp.rows = 30;
  vp.cols = 60;
  vp.L = 62;
  vp.T = 45;
  vp.layout(820, true);
  return vp;
}

const close = (a: number, b: number, tol = 1e-9): void => assert.ok(Math.abs(a - b) <= tol, `${a} ≈ ${b}`);

describe('heatmap viewport', () => {
  test('layout: square cells filling the plot, height following the matrix', () => {
    const vp = chainViewport();
    assert.equal(vp.W, 820);
    assert.equal(vp.fitSx, (820 - 62 - PAD) / 60);
    assert.equal(vp.fitSy, vp.fitSx, 'square cells');
    assert.equal(vp.H, Math.round(45 + PAD + 30 * vp.fitSx));
    assert.deepEqual(vp.visibleRange(), { i0: 0, i1: 30, j0: 0, j1: 60 }, 'the whole matrix at fit');
    // A tiny matrix: cells capped at MAX_CELL, at least 150 px tall.
    const small = new Viewport();
    small.rows = 2;
    small.cols = 6;
    small.L = 57;
    small.T = 45;
    small.layout(820, true);
    assert.equal(small.fitSx, MAX_CELL);
    assert.equal(small.H, Math.round(45 + PAD + 2 * MAX_CELL));
    // Vector tables: wide short cells.
    const vec = new Viewport();
    vec.rows = 10;
    vec.cols = 3;
    vec.perColumnScale = true;
    vec.T = 24;
    vec.layout(600, true);
    assert.equal(vec.fitSx, 130);
    assert.equal(vec.fitSy, 22);
    // No width yet (detached): 600 px.
    const detached = new Viewport();
    detached.rows = 1;
    detached.cols = 1;
    detached.layout(0, true);
    assert.equal(detached.W, 600);
  });

  test('cell ↔ pixel: centres map back to their cell, gutters to their row or column', () => {
    const vp = chainViewport();
    vp.zoomBy(3.3, 100, 50);
    for (const [i, j] of [
      [0, 0],
      [7, 13],
      [29, 59],
    ]) {
      const { x, y } = vp.cellCentre(i, j);
      const { i0, i1, j0, j1 } = vp.visibleRange();
      if (i < i0 || i >= i1 || j < j0 || j >= j1) continue;
      assert.deepEqual(vp.cellAt(x, y), { i, j });
    }
    const c = vp.cellCentre(vp.visibleRange().i0 + 1, vp.visibleRange().j0 + 1);
    assert.equal(vp.cellAt(vp.L - 1, c.y), undefined, 'the row gutter is no cell');
    assert.equal(vp.rowAtGutter(vp.L - 1, c.y), vp.visibleRange().i0 + 1);
    assert.equal(vp.colAtGutter(c.x, vp.T - 1), vp.visibleRange().j0 + 1);
    assert.equal(vp.rowAtGutter(c.x, c.y), undefined, 'a cell is no gutter');
    const [top, height] = vp.rowRect(2, 5);
    close(height, 3 * vp.scale().sy);
    close(top, vp.T + (2 - vp.view.oy) * vp.scale().sy);
    // Outside the matrix: nothing.
    const at = chainViewport();
    assert.equal(at.cellAt(at.L + at.plotW() + 50, at.T + 5), undefined);
  });

  test('zoom keeps the point under the pointer, stays between fit and 160 px cells, and clamps the pan', () => {
    const vp = chainViewport();
    const px = 300;
    const py = 120;
    const before = { x: vp.view.ox + px / vp.scale().sx, y: vp.view.oy + py / vp.scale().sy };
    vp.zoomBy(2, px, py);
    assert.equal(vp.view.z, 2);
    close(vp.view.ox + px / vp.scale().sx, before.x);
    close(vp.view.oy + py / vp.scale().sy, before.y);
    vp.zoomBy(1e6);
    assert.equal(vp.scale().sx, 160, 'most zoom: 160 px cells');
    vp.zoomBy(1e-6);
    assert.equal(vp.view.z, 1, 'never below fit');
    assert.deepEqual([vp.view.ox, vp.view.oy], [0, 0], 'at fit nothing to pan');
    vp.zoomBy(4);
    vp.dragFrom(vp.view.ox, vp.view.oy, -1e6, -1e6);
    const r = vp.visibleRange();
    assert.equal(r.j1, 60, 'dragged to the last column, not past it');
    assert.equal(r.i1, 30);
    close(vp.view.ox, 60 - vp.plotW() / vp.scale().sx);
    vp.fit();
    assert.deepEqual(vp.view, { z: 1, ox: 0, oy: 0 });
  });

  test('ensureVisible pans the least to show a cell', () => {
    const vp = chainViewport();
    vp.zoomBy(5, 0, 0);
    assert.deepEqual([vp.view.ox, vp.view.oy], [0, 0]);
    vp.ensureVisible(25, 50);
    const r = vp.visibleRange();
    assert.ok(r.i0 <= 25 && 25 < r.i1 && r.j0 <= 50 && 50 < r.j1, JSON.stringify(r));
    close(vp.view.oy + vp.plotH() / vp.scale().sy, 26, 1e-9);
    close(vp.view.ox + vp.plotW() / vp.scale().sx, 51, 1e-9);
    vp.ensureVisible(0, 0);
    assert.deepEqual([vp.view.ox, vp.view.oy], [0, 0]);
  });

  test('keys: moves clamped to the matrix, pages, row and matrix ends, zoom, fit, activate', () => {
    const at = { i: 5, j: 5 };
    const k = (key: string, shift = false, ctrl = false) => keyAction(key, { shift, ctrl }, at, 10, 30, 60);
    assert.deepEqual(k('ArrowDown'), { kind: 'move', i: 6, j: 5 });
    assert.deepEqual(k('ArrowUp', true), { kind: 'move', i: 0, j: 5 }, 'a page up, clamped');
    assert.deepEqual(k('ArrowRight', true), { kind: 'move', i: 5, j: 11 }, 'one body (6 columns)');
    assert.deepEqual(k('PageDown'), { kind: 'move', i: 15, j: 5 });
    assert.deepEqual(k('Home'), { kind: 'move', i: 5, j: 0 });
    assert.deepEqual(k('End', false, true), { kind: 'move', i: 29, j: 59 });
    assert.deepEqual(k('+'), { kind: 'zoom', factor: 1.5 });
    assert.deepEqual(k('-'), { kind: 'zoom', factor: 1 / 1.5 });
    assert.deepEqual(k('0'), { kind: 'fit' });
    assert.deepEqual(k('Enter'), { kind: 'activate', i: 5, j: 5 });
    assert.deepEqual(k('Escape'), { kind: 'dismiss' });
    assert.equal(k('a'), undefined);
  });
});

describe('heatmap cell text', () => {
  // A monospace font: every character 0.6 em wide.
  const mono = (size: number) => (t: string) => t.length * 0.6 * size;

  test('the most digits that fit, then the smaller font, then nothing', () => {
    const { base, small } = cellFontSizes(30);
    assert.deepEqual([base, small], [11, 9]);
    assert.deepEqual(fitCellText(-0.72, 52, mono(base), base, small), { text: '-0.72', size: 11 });
    // 30 px cells (26 px for text): "-0.72" is 33 px at 11 px, 27 px at 9 px; "-0.7" fits at 9 px.
    assert.deepEqual(fitCellText(-0.72, 26, mono(base), base, small), { text: '-0.7', size: 9 });
    assert.deepEqual(fitCellText(0.12345, 40, mono(base), base, small), { text: '0.123', size: 11 });
    assert.deepEqual(fitCellText(1.2345e-7, 30, mono(base), base, small), { text: '1e-7', size: 11 });
    assert.deepEqual(fitCellText(-1, 8, mono(base), base, small), undefined);
    assert.deepEqual(fitCellText(0, 8, mono(base), base, small), { text: '0', size: 11 });
  });

  test('font sizes follow the cell height, never above 11 px nor the small one above the base', () => {
    assert.deepEqual(cellFontSizes(100), { base: 11, small: 9 });
    assert.deepEqual(cellFontSizes(14), { base: 7, small: 7 });
    assert.deepEqual(cellFontSizes(17), { base: 9, small: 8 });
  });
});
