// The heatmap's cells: only the visible ones, straight from the CSR arrays, aggregated per device
// pixel when zoomed out (the largest |value| wins, non-finite values always show), coloured with
// the diverging lookup table, written with one putImageData.
import { csrLowerBound as lowerBound } from '../../src/shared';
import { type MatrixSource } from '../matrix';
import type { Palette } from '../palette';
import type { Viewport } from './viewport';
import { maxOf } from '../../src/shared/arrays';

export interface Lut {
  pos: Uint32Array;
  neg: Uint32Array;
}

/** Packed ABGR (little-endian ImageData) of an RGB colour. */
export const packRgb = (c: readonly number[]): number => (255 << 24) | (c[2] << 16) | (c[1] << 8) | c[0];

/** Magenta: a non-finite entry. */
const NAN_COLOR = (255 << 24) | (200 << 16) | (0 << 8) | 200;

/** log₁₀ decades the log scale spans (1–12): from the largest to the smallest non-zero |value|. */
export function decadesOf(m: MatrixSource): number {
  const ref = m.perColumnScale ? maxOf(m.maxAbs) : m.maxAbs[0] || 1;
  return Math.max(1, Math.min(12, Math.log10(ref / (m.minAbs || ref)) || 1));
}

/** Colour index (0–255) of a value normalised to [-1, 1] by its scale, linear or log. */
export function lutIndex(t: number, log: boolean, decades: number): number {
  let u = Math.abs(t);
  if (log && u > 0) u = 1 + Math.log10(u) / decades;
  return u <= 0 ? 0 : u >= 1 ? 255 : Math.round(u * 255);
}

export class Raster {
  private img: ImageData | undefined;
  private buf: Float32Array | undefined;

  /** Forget the pixel buffers (after a canvas resize). */
  reset(): void {
    this.img = undefined;
  }

  draw(ctx: CanvasRenderingContext2D, m: MatrixSource, vp: Viewport, dpr: number, pal: Palette, lut: Lut, log: boolean): void {
    const x0 = Math.round(vp.L * dpr);
    const y0 = Math.round(vp.T * dpr);
    const pwD = Math.max(1, Math.round(vp.plotW() * dpr));
    const phD = Math.max(1, Math.round(vp.plotH() * dpr));
    if (!this.img || this.img.width !== pwD || this.img.height !== phD) {
      this.img = ctx.createImageData(pwD, phD);
      this.buf = new Float32Array(pwD * phD);
    }
    const img = this.img;
    const buf = this.buf!;
    buf.fill(0);
    const { sx, sy } = vp.scale();
    const sxD = sx * dpr;
    const syD = sy * dpr;
    const { ox, oy } = vp.view;
    const i0 = Math.max(0, Math.floor(oy));
    const i1 = Math.min(m.rows, Math.ceil(oy + phD / syD));
    const j0 = Math.max(0, Math.floor(ox));
    const j1 = Math.min(m.cols, Math.ceil(ox + pwD / sxD));
    const per = m.perColumnScale === true;
    const gmax = m.maxAbs[0] || 1;
    const matW = Math.min(pwD, Math.ceil((m.cols - ox) * sxD));
    const matH = Math.min(phD, Math.ceil((m.rows - oy) * syD));
    for (let i = i0; i < i1; i++) {
      let py0 = Math.floor((i - oy) * syD);
      let py1 = Math.floor((i + 1 - oy) * syD);
      if (py1 <= py0) py1 = py0 + 1;
      if (py0 < 0) py0 = 0;
      if (py1 > phD) py1 = phD;
      if (py0 >= phD) break;
      const end = m.rowPtr[i + 1];
      for (let k = lowerBound(m, i, j0); k < end; k++) {
        const c = m.colIdx[k];
        if (c >= j1) break;
        let v = m.values[k];
        if (v === 0) continue;
        v = Number.isFinite(v) ? v / (per ? m.maxAbs[c] || 1 : gmax) : NaN;
        let px0 = Math.floor((c - ox) * sxD);
        let px1 = Math.floor((c + 1 - ox) * sxD);
        if (px1 <= px0) px1 = px0 + 1;
        if (px0 < 0) px0 = 0;
        if (px1 > pwD) px1 = pwD;
        const av = Math.abs(v);
        for (let y = py0; y < py1; y++) {
          const row = y * pwD;
          for (let x = px0; x < px1; x++) {
            const cur = buf[row + x];
            if (Number.isNaN(cur)) continue;
            if (Number.isNaN(v) || av > Math.abs(cur)) buf[row + x] = v;
          }
        }
      }
    }
    // Colourise.
    const out = new Uint32Array(img.data.buffer);
    const bg = packRgb(pal.bgRgb);
    const { pos, neg } = lut;
    const decades = decadesOf(m);
    for (let q = 0; q < buf.length; q++) {
      const u = buf[q];
      if (u === 0) out[q] = bg;
      else if (Number.isNaN(u)) out[q] = NAN_COLOR;
      else out[q] = u > 0 ? pos[lutIndex(u, log, decades)] : neg[lutIndex(u, log, decades)];
    }
    ctx.putImageData(img, x0, y0);
    // Matrix extent frame (when the matrix is smaller than the plot area).
    ctx.strokeStyle = pal.border;
    ctx.lineWidth = 1;
    ctx.strokeRect(x0 - 0.5, y0 - 0.5, matW + 1, matH + 1);
  }
}
