// Orthographic scene view: bodies, constraints (anchor to anchor), constraint force arrows.
import type { Projection } from '../src/protocol';
import type { SceneFrame, V3 } from '../src/shared/sceneFrame';
import { formatNumber as fmt, norm3 } from '../src/shared';
import { withAlpha, type Palette } from './theme';
import { CanvasView } from './canvas';
import { h } from './dom';

// The frame drawn at a step (bodies, anchors following their bodies rigidly) is computed in
// src/shared/sceneFrame.ts, the same for the panel and the report.
export { frameAt, type SceneFrame } from '../src/shared/sceneFrame';

const AXES: Record<Projection, [number, number, string, string]> = {
  XY: [0, 1, 'x', 'y'],
  XZ: [0, 2, 'x', 'z'],
  YZ: [1, 2, 'y', 'z'],
};

export class SceneView extends CanvasView {
  readonly el: HTMLDivElement;
  private readonly tip: HTMLDivElement;
  private frame: SceneFrame = { bodies: [], constraints: [] };
  private bounds: { min: V3; max: V3 } = { min: [-1, -1, -1], max: [1, 1, 1] };
  private proj: Projection = 'XZ';
  private pal!: Palette;
  private selected = -1;
  private W = 300;
  private H = 240;
  private hit: { kind: 'constraint' | 'body'; index: number; x: number; y: number }[] = [];
  private segs: { index: number; x1: number; y1: number; x2: number; y2: number }[] = [];

  constructor(private readonly cb: { onConstraint: (i: number) => void; onBody: (i: number) => void }) {
    super(h('canvas', { class: 'cl-scene-canvas', tabindex: 0, role: 'img', 'aria-label': 'Scene view' }));
    this.tip = h('div', { class: 'cl-tooltip', hidden: true, role: 'tooltip' });
    this.el = h('div', { class: 'cl-scene' }, this.canvas, this.tip);
    this.followWidth(this.el, () => this.resize());
    this.canvas.addEventListener('click', (e) => {
      const t = this.pick(e);
      if (!t) return;
      if (t.kind === 'constraint') this.cb.onConstraint(t.index);
      else this.cb.onBody(t.index);
    });
    this.canvas.addEventListener('mousemove', (e) => {
      const t = this.pick(e);
      this.canvas.style.cursor = t ? 'pointer' : 'default';
      const r = this.canvas.getBoundingClientRect();
      if (!t) {
        this.tip.hidden = true;
        return;
      }
      this.tip.textContent = '';
      if (t.kind === 'constraint') {
        const c = this.frame.constraints[t.index];
        this.tip.append(h('div', { class: 'cl-tooltip-title', text: c.name }), h('div', { text: `|λ| = ${fmt(c.lambda, 5)} · |F_B| = ${fmt(norm3(c.forceB), 5)} · ${c.status}` }));
      } else {
        const b = this.frame.bodies[t.index];
        this.tip.append(h('div', { class: 'cl-tooltip-title', text: b.name }), h('div', { text: `[${b.p.map((x) => fmt(x, 4)).join(', ')}]${b.fixed ? ' · fixed' : ''}` }));
      }
      this.tip.hidden = false;
      this.tip.style.left = `${Math.min(this.W - 180, e.clientX - r.left + 12)}px`;
      this.tip.style.top = `${e.clientY - r.top + 12}px`;
    });
    this.canvas.addEventListener('mouseleave', () => (this.tip.hidden = true));
    this.canvas.addEventListener('keydown', (e) => {
      const n = this.frame.constraints.length;
      if (!n) return;
      if (e.key === 'ArrowRight' || e.key === 'ArrowDown') this.cb.onConstraint((this.selected + 1 + n) % n);
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') this.cb.onConstraint((this.selected - 1 + n) % n);
      else return;
      e.preventDefault();
    });
  }

  setPalette(p: Palette): void {
    this.pal = p;
    this.invalidate();
  }
  setProjection(p: Projection): void {
    this.proj = p;
    this.invalidate();
  }
  setSelected(i: number): void {
    this.selected = i;
    this.invalidate();
  }

  /** Bounds over the whole run, so scrubbing does not rescale the view. */
  setBounds(frames: { p: V3 }[][], extra: V3[]): void {
    const min: V3 = [Infinity, Infinity, Infinity];
    const max: V3 = [-Infinity, -Infinity, -Infinity];
    const add = (p: V3): void => {
      for (let k = 0; k < 3; k++) {
        if (!Number.isFinite(p[k])) continue;
        min[k] = Math.min(min[k], p[k]);
        max[k] = Math.max(max[k], p[k]);
      }
    };
    for (const f of frames) for (const b of f) add(b.p);
    for (const p of extra) add(p);
    for (let k = 0; k < 3; k++) {
      if (!Number.isFinite(min[k])) {
        min[k] = -1;
        max[k] = 1;
      }
    }
    this.bounds = { min, max };
    this.invalidate();
  }

  setFrame(f: SceneFrame): void {
    this.frame = f;
    this.canvas.setAttribute('aria-label', `Scene view (${this.proj}): ${f.bodies.length} bodies, ${f.constraints.length} constraints. Arrow keys select constraints.`);
    this.invalidate();
  }

  private resize(): void {
    const w = Math.max(160, Math.floor(this.el.clientWidth));
    this.W = w;
    this.H = Math.max(200, Math.min(420, Math.round(w * 0.72)));
    this.setSize(this.W, this.H);
    this.invalidate();
  }

  private pick(e: MouseEvent): { kind: 'constraint' | 'body'; index: number } | undefined {
    const { x, y } = this.pointer(e);
    let best: { kind: 'constraint' | 'body'; index: number } | undefined;
    let bd = 9;
    for (const b of this.hit) {
      const d = Math.hypot(b.x - x, b.y - y);
      if (d < bd) {
        bd = d;
        best = { kind: b.kind, index: b.index };
      }
    }
    if (best) return best;
    bd = 7;
    for (const s of this.segs) {
      const dx = s.x2 - s.x1;
      const dy = s.y2 - s.y1;
      const l2 = dx * dx + dy * dy || 1;
      const t = Math.max(0, Math.min(1, ((x - s.x1) * dx + (y - s.y1) * dy) / l2));
      const d = Math.hypot(s.x1 + t * dx - x, s.y1 + t * dy - y);
      if (d < bd) {
        bd = d;
        best = { kind: 'constraint', index: s.index };
      }
    }
    return best;
  }

  protected draw(): void {
    if (!this.pal) return;
    const p = this.pal;
    const ctx = this.ctx;
    ctx.setTransform(this.dpr, 0, 0, this.dpr, 0, 0);
    ctx.fillStyle = p.bg;
    ctx.fillRect(0, 0, this.W, this.H);
    const [ax, ay, nx, ny] = AXES[this.proj];
    const { min, max } = this.bounds;
    const spanX = Math.max(1e-9, max[ax] - min[ax]);
    const spanY = Math.max(1e-9, max[ay] - min[ay]);
    const margin = 48;
    const span = Math.max(spanX, spanY, 1e-6);
    const scale = Math.min((this.W - 2 * margin) / (spanX || span), (this.H - 2 * margin) / (spanY || span), (Math.min(this.W, this.H) - 2 * margin) / span * 4);
    const cx = (min[ax] + max[ax]) / 2;
    const cy = (min[ay] + max[ay]) / 2;
    const X = (v: V3): number => this.W / 2 + (v[ax] - cx) * scale;
    const Y = (v: V3): number => this.H / 2 - (v[ay] - cy) * scale;
    // Grid at a "nice" spacing, and a scale bar.
    const raw = 70 / scale;
    const pow = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].map((k) => k * pow).find((k) => k >= raw) ?? 10 * pow;
    ctx.strokeStyle = p.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    const wx0 = cx - this.W / 2 / scale;
    const wy0 = cy - this.H / 2 / scale;
    for (let gx = Math.ceil(wx0 / step) * step; gx < cx + this.W / 2 / scale; gx += step) {
      const x = Math.round(this.W / 2 + (gx - cx) * scale) + 0.5;
      ctx.moveTo(x, 0);
      ctx.lineTo(x, this.H);
    }
    for (let gy = Math.ceil(wy0 / step) * step; gy < cy + this.H / 2 / scale; gy += step) {
      const y = Math.round(this.H / 2 - (gy - cy) * scale) + 0.5;
      ctx.moveTo(0, y);
      ctx.lineTo(this.W, y);
    }
    ctx.stroke();
    // axes glyph
    ctx.font = `11px ${p.font}`;
    ctx.fillStyle = p.muted;
    ctx.strokeStyle = p.muted;
    ctx.lineWidth = 1.5;
    const ox = 14;
    const oy = this.H - 14;
    this.arrow(ox, oy, ox + 26, oy, 5);
    this.arrow(ox, oy, ox, oy - 26, 5);
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillText(nx, ox + 30, oy);
    ctx.textAlign = 'center';
    ctx.fillText(ny, ox, oy - 34);
    ctx.textAlign = 'right';
    ctx.fillText(`grid ${fmt(step, 2)} m`, this.W - 8, this.H - 10);

    const f = this.frame;
    this.hit = [];
    this.segs = [];
    const maxF = Math.max(1e-300, ...f.constraints.map((c) => Math.max(norm3(c.forceA), norm3(c.forceB))));
    const statusColor = (s: string): string => (s === 'redundant' ? p.warning : s === 'violated' || s === 'conflicting' ? p.error : p.fg);
    // Constraints: body centre → anchor (thin dashed), anchor A → anchor B (solid).
    for (const c of f.constraints) {
      const sel = c.index === this.selected;
      const col = sel ? p.focus : statusColor(c.status);
      ctx.strokeStyle = withAlpha(col, 0.45);
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 3]);
      ctx.beginPath();
      if (c.bodyA >= 0) {
        ctx.moveTo(X(f.bodies[c.bodyA].p), Y(f.bodies[c.bodyA].p));
        ctx.lineTo(X(c.a), Y(c.a));
      }
      if (c.bodyB >= 0) {
        ctx.moveTo(X(f.bodies[c.bodyB].p), Y(f.bodies[c.bodyB].p));
        ctx.lineTo(X(c.b), Y(c.b));
      }
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.strokeStyle = col;
      ctx.lineWidth = sel ? 3.5 : 2;
      ctx.beginPath();
      ctx.moveTo(X(c.a), Y(c.a));
      ctx.lineTo(X(c.b), Y(c.b));
      ctx.stroke();
      for (const q of [c.a, c.b]) {
        ctx.fillStyle = col;
        ctx.beginPath();
        ctx.arc(X(q), Y(q), sel ? 3.5 : 2.5, 0, Math.PI * 2);
        ctx.fill();
      }
      this.segs.push({ index: c.index, x1: X(c.a), y1: Y(c.a), x2: X(c.b), y2: Y(c.b) });
    }
    // Force arrows, length ∝ |F| (largest = 48 px).
    const manyC = f.constraints.length > 150;
    for (const c of f.constraints) {
      const sel = c.index === this.selected;
      if (manyC && !sel) continue; // too many arrows to read: only the selected constraint's
      const col = sel ? p.focus : p.series[1];
      for (const [q, F] of [
        [c.a, c.forceA],
        [c.b, c.forceB],
      ] as [V3, V3][]) {
        const n = norm3(F);
        if (!(n > 0) || !Number.isFinite(n)) continue;
        const len = 8 + 40 * (n / maxF);
        const dx = F[ax] / n;
        const dy = -F[ay] / n;
        const inPlane = Math.hypot(dx, dy);
        if (inPlane < 1e-6) continue;
        ctx.strokeStyle = col;
        ctx.fillStyle = col;
        ctx.lineWidth = sel ? 2.5 : 1.75;
        this.arrow(X(q), Y(q), X(q) + dx * len, Y(q) + dy * len, 6);
      }
    }
    // Bodies.
    const R = f.bodies.length > 60 ? 3 : 7;
    f.bodies.forEach((b, i) => {
      const x = X(b.p);
      const y = Y(b.p);
      const involved = this.selected >= 0 && f.constraints[this.selected] && (f.constraints[this.selected].bodyA === i || f.constraints[this.selected].bodyB === i);
      ctx.lineWidth = involved ? 2.5 : R < 7 ? 1 : 1.5;
      ctx.strokeStyle = involved ? p.focus : p.fg;
      ctx.fillStyle = b.fixed ? withAlpha(p.muted, 0.35) : withAlpha(p.series[0], 0.85);
      ctx.beginPath();
      if (b.fixed) ctx.rect(x - R, y - R, 2 * R, 2 * R);
      else ctx.arc(x, y, R, 0, Math.PI * 2);
      ctx.fill();
      ctx.stroke();
      if (b.fixed) {
        ctx.beginPath();
        ctx.moveTo(x - R, y + R);
        ctx.lineTo(x + R, y - R);
        ctx.stroke();
      }
      ctx.fillStyle = p.fg;
      ctx.font = `${involved ? '600 ' : ''}11px ${p.font}`;
      ctx.textAlign = 'left';
      ctx.textBaseline = 'middle';
      if (f.bodies.length <= 40) ctx.fillText(b.name, x + 11, y - 9);
      this.hit.push({ kind: 'body', index: i, x, y });
    });
  }

  private arrow(x1: number, y1: number, x2: number, y2: number, head: number): void {
    const ctx = this.ctx;
    const a = Math.atan2(y2 - y1, x2 - x1);
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x2, y2);
    ctx.stroke();
    ctx.beginPath();
    ctx.moveTo(x2, y2);
    ctx.lineTo(x2 - head * Math.cos(a - 0.45), y2 - head * Math.sin(a - 0.45));
    ctx.lineTo(x2 - head * Math.cos(a + 0.45), y2 - head * Math.sin(a + 0.45));
    ctx.closePath();
    ctx.fillStyle = ctx.strokeStyle;
    ctx.fill();
  }
}
