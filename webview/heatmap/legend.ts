// The colour legend under the heatmap: the diverging bar, its end values, the scale in use and nnz.
import { h } from '../dom';
import { formatNumber as fmt } from '../../src/shared';
import type { MatrixSource } from '../matrix';
import type { Palette } from '../palette';
import { lutCss } from '../theme';
import { packRgb, type Lut } from './raster';
import { maxOf } from '../../src/shared/arrays';
import { cpuCanvas } from '../canvas';

export class Legend {
  private readonly bar = h('canvas', { class: 'cl-legend-bar', width: 160, height: 10, 'aria-hidden': 'true' });
  private readonly min = h('span', { class: 'cl-legend-val' });
  private readonly max = h('span', { class: 'cl-legend-val' });
  private readonly note = h('span', { class: 'cl-legend-note' });
  readonly el = h('div', { class: 'cl-legend' }, this.min, this.bar, this.max, this.note);

  draw(m: MatrixSource | undefined, pal: Palette, lut: Lut, log: boolean): void {
    const c = this.bar;
    const ctx = cpuCanvas(c).getContext('2d');
    if (!ctx) return;
    const w = c.width;
    const img = ctx.createImageData(w, c.height);
    const out = new Uint32Array(img.data.buffer);
    for (let x = 0; x < w; x++) {
      const u = (x / (w - 1)) * 2 - 1;
      const idx = Math.min(255, Math.round(Math.abs(u) * 255));
      const col = Math.abs(u) < 1 / w ? packRgb(pal.bgRgb) : u > 0 ? lut.pos[idx] : lut.neg[idx];
      for (let y = 0; y < c.height; y++) out[y * w + x] = col;
    }
    ctx.putImageData(img, 0, 0);
    if (!m) return;
    const mx = m.perColumnScale ? maxOf(m.maxAbs) : m.maxAbs[0];
    if (m.perColumnScale) {
      this.min.textContent = '−max';
      this.max.textContent = '+max';
    } else {
      this.min.textContent = fmt(-mx, 3);
      this.max.textContent = fmt(mx, 3);
    }
    const decades = Math.max(1, Math.min(12, Math.round(Math.log10(mx / (m.minAbs || mx))) || 1));
    this.note.textContent =
      (log ? `log₁₀|x| over ${decades} decade${decades === 1 ? '' : 's'}` : 'linear, centred on 0') +
      (m.perColumnScale ? ' · each column scaled to its max |x|' : '') +
      ` · nnz ${m.values.length.toLocaleString('en-US')}`;
    c.title = `negative ${lutCss(lut.neg[255])} · zero = background · positive ${lutCss(lut.pos[255])}`;
  }
}
