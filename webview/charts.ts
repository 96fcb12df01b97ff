// chart.js charts (bundled, no CDN): history (|C|, λ, κ, energy, drift), spectrum, λ per row.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartConfiguration,
  type ChartDataset,
  type ChartType,
  type Plugin,
} from 'chart.js';
import type { SystemSnapshot } from '../src/protocol';
import { formatNumber as fmt, formatCond } from '../src/shared';
import { MAX_BUCKETS } from './decimate';
import { anySingular, SINGULAR_AT, type HistoryChartSpec, type HistoryContext } from './historySpecs';
import { withAlpha, type Palette } from './theme';
import { minOf } from '../src/shared/arrays';
import { axisMode, decadeRange, denoise, distinctDigits, linearThreshold, symlog, symlogInverse, type AxisMode } from './chartScale';
import { cpuCanvas } from './canvas';

declare module 'chart.js' {
  // Declaration merging needs chart.js's own type parameter name.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    clCursor?: { x?: number; color?: string };
    clLines?: { lines: { y: number; color: string; label: string; dash?: number[] }[] };
    clMarks?: { marks: { x: number; color: string; label: string }[] };
  }
}

Chart.register(LineController, LineElement, PointElement, BarController, BarElement, ScatterController, LinearScale, LogarithmicScale, CategoryScale, Tooltip, Legend);

/** A chart whose cursor can move without an update (the cursor is read at draw time). */
type CursorChart = Chart & { clCursorAt?: { x?: number; color?: string } };

const cursorPlugin: Plugin = {
  id: 'clCursor',
  afterDatasetsDraw(chart, _args, pluginOpts: { x?: number; color?: string }) {
    const opts = (chart as CursorChart).clCursorAt ?? pluginOpts;
    if (opts?.x === undefined) return;
    const xs = chart.scales.x;
    if (!xs) return;
    const px = xs.getPixelForValue(opts.x);
    if (!Number.isFinite(px) || px < chart.chartArea.left - 1 || px > chart.chartArea.right + 1) return;
    const ctx = chart.ctx;
    ctx.save();
    ctx.strokeStyle = opts.color ?? '#888';
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(px, chart.chartArea.top);
    ctx.lineTo(px, chart.chartArea.bottom);
    ctx.stroke();
    ctx.restore();
  },
};

const linesPlugin: Plugin = {
  id: 'clLines',
  afterDatasetsDraw(chart, _args, opts: { lines?: { y: number; color: string; label: string; dash?: number[] }[] }) {
    const ys = chart.scales.y;
    if (!ys || !opts?.lines) return;
    const ctx = chart.ctx;
    const { left, right, top, bottom } = chart.chartArea;
    ctx.save();
    for (const l of opts.lines) {
      const py = ys.getPixelForValue(l.y);
      if (!Number.isFinite(py) || py < top || py > bottom) continue;
      ctx.strokeStyle = l.color;
      ctx.fillStyle = l.color;
      ctx.lineWidth = 1;
      ctx.setLineDash(l.dash ?? [5, 4]);
      ctx.beginPath();
      ctx.moveTo(left, py);
      ctx.lineTo(right, py);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.font = `10px ${String(Chart.defaults.font.family)}`;
      ctx.textAlign = 'right';
      ctx.textBaseline = 'bottom';
      ctx.fillText(l.label, right - 4, py - 2);
    }
    ctx.restore();
  },
};
/** Vertical markers at given steps (the divergence onset), labelled at the top. */
const marksPlugin: Plugin = {
  id: 'clMarks',
  afterDatasetsDraw(chart, _args, opts: { marks?: { x: number; color: string; label: string }[] }) {
    const xs = chart.scales.x;
    if (!xs || !opts?.marks) return;
    const ctx = chart.ctx;
    const { top, bottom, left, right } = chart.chartArea;
    ctx.save();
    for (const m of opts.marks) {
      const px = xs.getPixelForValue(m.x);
      if (!Number.isFinite(px) || px < left - 1 || px > right + 1) continue;
      ctx.strokeStyle = m.color;
      ctx.fillStyle = m.color;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([2, 2]);
      ctx.beginPath();
      ctx.moveTo(px, top);
      ctx.lineTo(px, bottom);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.font = `10px ${String(Chart.defaults.font.family)}`;
      ctx.textAlign = px > (left + right) / 2 ? 'right' : 'left';
      ctx.textBaseline = 'top';
      ctx.fillText(m.label, px + (px > (left + right) / 2 ? -3 : 3), top + 2);
    }
    ctx.restore();
  },
};
Chart.register(cursorPlugin, linesPlugin, marksPlugin);

export function applyChartTheme(p: Palette): void {
  Chart.defaults.color = p.muted;
  Chart.defaults.borderColor = p.grid;
  Chart.defaults.font.family = p.font;
  Chart.defaults.font.size = 11;
  Chart.defaults.animation = false;
  Chart.defaults.responsive = true;
  Chart.defaults.maintainAspectRatio = false;
  const tt = Chart.defaults.plugins.tooltip;
  tt.backgroundColor = p.dark ? 'rgba(30,30,30,0.95)' : 'rgba(255,255,255,0.97)';
  tt.titleColor = p.fg;
  tt.bodyColor = p.fg;
  tt.borderColor = p.border;
  tt.borderWidth = 1;
  tt.cornerRadius = 3;
  tt.padding = 8;
  tt.boxPadding = 4;
  const lg = Chart.defaults.plugins.legend;
  lg.labels.boxWidth = 10;
  lg.labels.boxHeight = 10;
  lg.labels.color = p.fg;
}

const FLOOR = 1e-16;

const isPow10 = (v: number): boolean => v > 0 && Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;
/** Powers of ten among an axis's ticks, counted once per tick list (the callback runs for every tick). */
const powCounts = new WeakMap<object, number>();
/** Significant digits that tell a tick list's neighbours apart, counted once per tick list. */
const tickDigits = new WeakMap<object, number>();
/**
 * Log axes: label only powers of ten when at least two are shown, every tick otherwise, with the
 * digits that keep neighbours apart (a κ axis from 7000 to 15000 reads 12000, 13000, 14000, never
 * 15000, 15000, 15000).
 */
function logTick(this: unknown, v: number | string, _i: number, ticks: { value: number }[]): string {
  const x = Number(v);
  let pows = powCounts.get(ticks);
  if (pows === undefined) {
    pows = ticks.filter((t) => isPow10(t.value)).length;
    powCounts.set(ticks, pows);
  }
  if (pows >= 2 && !isPow10(x)) return '';
  let digits = tickDigits.get(ticks);
  if (digits === undefined) {
    digits = distinctDigits(ticks.map((t) => t.value));
    tickDigits.set(ticks, digits);
  }
  return fmt(x, digits);
}
const linTick = (v: number | string): string => fmt(Number(v), 3);
const logv = (x: number): number => (Number.isFinite(x) ? Math.max(FLOOR, Math.abs(x)) : NaN);

/** The y transform of an axis mode: what is plotted for a raw value (NaN: not drawn). */
function transform(mode: AxisMode, floor: number, c: number): (y: number) => number {
  if (mode === 'log') return (y) => logv(denoise(y, floor));
  if (mode === 'symlog') return (y) => (Number.isFinite(y) ? symlog(denoise(y, floor), c) : NaN);
  return (y) => (Number.isFinite(y) ? denoise(y, floor) : NaN);
}

export class HistoryChart {
  readonly chart: Chart<'line', { x: number; y: number }[]>;
  /** The axis drawn now and the symlog's linear threshold (tooltips and ticks read them back). */
  mode: AxisMode;
  private c = 1;
  /** The context of the last update (the readout at a moved cursor reads it). */
  private ctx: HistoryContext | undefined;
  constructor(
    readonly spec: HistoryChartSpec,
    canvas: HTMLCanvasElement,
    private readonly onPick: (step: number) => void,
  ) {
    this.mode = spec.axis === 'log' ? (spec.kind === 'positive' ? 'log' : 'symlog') : 'linear';
    const cfg: ChartConfiguration<'line', { x: number; y: number }[]> = {
      type: 'line',
      data: { datasets: [] },
      options: {
        parsing: false,
        normalized: true,
        spanGaps: true,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        elements: { point: { radius: 0, hoverRadius: 3 }, line: { tension: 0 } },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'step' }, ticks: { maxTicksLimit: 8, precision: 0 } },
          y: { type: 'linear', title: { display: false, text: spec.yTitle } },
        },
        plugins: {
          legend: { display: true, position: 'bottom', labels: { usePointStyle: false } },
          tooltip: {
            callbacks: {
              title: (items) => `step ${items[0]?.parsed.x ?? ''}`,
              label: (item) => {
                const t = item.parsed.y ?? NaN;
                const y = this.mode === 'symlog' ? symlogInverse(t, this.c) : t;
                const shown = spec.id === 'cond' && y >= SINGULAR_AT ? '∞' : spec.id === 'cond' ? formatCond(y) : fmt(y, 6);
                return `${item.dataset.label}: ${shown}`;
              },
            },
          },
        },
        onClick: (_e, _els, chart) => {
          const ev = _e.native as MouseEvent | undefined;
          if (!ev) return;
          const r = chart.canvas.getBoundingClientRect();
          const v = chart.scales.x.getValueForPixel(ev.clientX - r.left);
          if (v !== undefined && Number.isFinite(v)) this.onPick(Math.max(0, Math.round(v)));
        },
      },
    };
    this.chart = new Chart(cpuCanvas(canvas), cfg);
  }

  update(ctx: HistoryContext, step: number): string | undefined {
    this.ctx = ctx;
    const buckets = Math.max(100, Math.min(MAX_BUCKETS, Math.round(this.chart.width || MAX_BUCKETS)));
    const built = this.spec.build({ ...ctx, buckets });
    const p = ctx.palette;
    // The axis: the user's choice, else the spec's; `auto` reads the data (chartScale.ts).
    const floor = this.spec.noise ? (ctx.noise ?? 0) : 0;
    const raw = built.series.flatMap((s) => s.data.map((d) => d.y));
    this.mode = axisMode(ctx.axes?.[this.spec.id] ?? this.spec.axis, this.spec.kind, raw, floor);
    this.c = linearThreshold(raw, floor);
    const f = transform(this.mode, floor, this.c);
    this.chart.data.datasets = built.series.map(
      (s): ChartDataset<'line', { x: number; y: number }[]> => ({
        label: s.label,
        data: s.data.map((d) => ({ x: d.x, y: f(d.y) })),
        borderColor: s.dim ? withAlpha(s.color, 0.35) : s.color,
        backgroundColor: s.dim ? withAlpha(s.color, 0.35) : s.color,
        borderWidth: s.width ?? 1.5,
        borderDash: s.dash,
        pointRadius: s.data.length < 30 ? 2 : 0,
      }),
    );
    const o = this.chart.options;
    const ys = o.scales!.y as { type: string; min?: number; max?: number; ticks: object };
    const c = this.c;
    ys.type = this.mode === 'log' ? 'logarithmic' : 'linear';
    ys.ticks =
      this.mode === 'log'
        ? { autoSkip: true, maxTicksLimit: 8, callback: logTick }
        : this.mode === 'symlog'
          ? { maxTicksLimit: 7, callback: (v: number | string) => symTick(Number(v), c) }
          : { maxTicksLimit: 6, callback: linTick };
    (this.chart as CursorChart).clCursorAt = { x: step, color: p.focus };
    o.plugins!.clLines = { lines: (built.lines ?? []).map((l) => ({ ...l, y: this.mode === 'symlog' ? symlog(l.y, c) : l.y })) };
    o.plugins!.clMarks = { marks: ctx.onset !== undefined ? [{ x: ctx.onset, color: p.error, label: `onset ${ctx.onset}` }] : [] };
    o.plugins!.legend!.display = built.series.length > 1;
    const last = ctx.history.length || 1;
    const singular = this.spec.id === 'cond' && this.mode === 'log' && anySingular(ctx.history);
    // a log axis in whole decades (the data's own range would magnify round-off: chartScale.ts)
    const decades = this.mode === 'log' && !singular ? decadeRange(raw.map((y) => denoise(y, floor))) : undefined;
    ys.max = singular ? SINGULAR_AT * 10 : decades?.max;
    ys.min = singular ? 1 : decades?.min;
    (o.scales!.x as { min?: number; max?: number }).min = ctx.range ? ctx.range.from : 0;
    (o.scales!.x as { min?: number; max?: number }).max = ctx.range ? ctx.range.to : Math.max(1, last);
    this.chart.update('none');
    return built.note;
  }

  /** The spec's readout at `step` from the last update's history (undefined: none, or not drawn yet). */
  readoutAt(step: number): string | undefined {
    return this.ctx && this.spec.readout ? this.spec.readout(this.ctx, step) : undefined;
  }

  /** Moves the cursor: a redraw of what is there, no update of the data or the scales. */
  updateCursor(step: number, color: string): void {
    (this.chart as CursorChart).clCursorAt = { x: step, color };
    this.chart.draw();
  }

  destroy(): void {
    this.chart.destroy();
  }
}

/** A symlog tick: the raw value at t, two significant digits (0 at the centre). */
function symTick(t: number, c: number): string {
  return t === 0 ? '0' : fmt(symlogInverse(t, c), 2);
}

export class SpectrumChart {
  readonly chart: Chart<'line', { x: number; y: number }[]>;
  constructor(canvas: HTMLCanvasElement) {
    this.chart = new Chart(cpuCanvas(canvas), {
      type: 'line',
      data: { datasets: [] },
      options: {
        parsing: false,
        normalized: true,
        interaction: { mode: 'nearest', intersect: false, axis: 'x' },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'index i' }, ticks: { precision: 0, maxTicksLimit: 10 } },
          y: { type: 'logarithmic', title: { display: true, text: 'σᵢ(A)' }, ticks: { autoSkip: true, maxTicksLimit: 8, callback: logTick } },
        },
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { title: (it) => `σ${it[0]?.parsed.x ?? ''}`, label: (it) => `${fmt(it.parsed.y ?? NaN, 8)}` } },
        },
      },
    });
  }

  update(s: SystemSnapshot, p: Palette): void {
    const sv = s.singularValues ?? new Float64Array(0);
    const tol = s.rankTolerance;
    const pts = Array.from(sv, (v, i) => ({ x: i + 1, y: Math.max(FLOOR * Math.max(1, sv[0] || 1), v) }));
    const ok = pts.map((pt) => (sv[pt.x - 1] > tol ? p.series[0] : p.error));
    this.chart.data.datasets = [
      {
        label: 'σ',
        data: pts,
        borderColor: withAlpha(p.series[0], 0.6),
        backgroundColor: ok,
        pointBackgroundColor: ok,
        pointBorderColor: ok,
        pointRadius: pts.length > 200 ? 1.5 : 3.5,
        pointHoverRadius: 5,
        borderWidth: 1,
        showLine: pts.length > 1,
      },
    ];
    this.chart.options.plugins!.clLines = { lines: tol > 0 ? [{ y: tol, color: p.error, label: `rank tolerance ${fmt(tol, 3)}` }] : [] };
    const xs = this.chart.options.scales!.x as { min?: number; max?: number };
    xs.min = pts.length > 1 ? 1 : 0;
    xs.max = Math.max(2, pts.length);
    const ys = this.chart.options.scales!.y as { min?: number };
    const minV = minOf(pts, (q) => q.y, tol > 0 ? tol : Infinity);
    ys.min = Number.isFinite(minV) ? Math.pow(10, Math.floor(Math.log10(minV)) - 1) : undefined;
    this.chart.update('none');
  }
}

export class LambdaChart {
  readonly chart: Chart<'bar', number[], string>;
  private rowConstraint: number[] = [];
  constructor(canvas: HTMLCanvasElement, onPick: (constraint: number) => void) {
    this.chart = new Chart(cpuCanvas(canvas), {
      type: 'bar',
      data: { labels: [], datasets: [] },
      options: {
        interaction: { mode: 'index', intersect: false },
        scales: {
          x: { type: 'category', ticks: { autoSkip: true, maxRotation: 60, minRotation: 0 }, grid: { display: false } },
          y: { type: 'linear', title: { display: true, text: 'λ' }, ticks: { maxTicksLimit: 6, callback: (v) => fmt(Number(v), 3) } },
        },
        plugins: {
          legend: { display: false },
          tooltip: { callbacks: { label: (it) => `λ = ${String(it.parsed.y)}` } },
        },
        onClick: (_e, els) => {
          const i = els[0]?.index;
          if (i !== undefined && this.rowConstraint[i] >= 0) onPick(this.rowConstraint[i]);
        },
        onHover: (e, els) => {
          const t = e.native?.target as HTMLElement | undefined;
          if (t) t.style.cursor = els.length ? 'pointer' : 'default';
        },
      },
    });
  }

  update(s: SystemSnapshot, p: Palette, selected: number, redundantRows: Set<number>): void {
    const n = Math.min(s.lambda.length, 600);
    const labels: string[] = [];
    const data: number[] = [];
    const colors: string[] = [];
    const borders: string[] = [];
    this.rowConstraint = [];
    const rc = new Int32Array(n).fill(-1);
    s.constraints.forEach((c, ci) => {
      for (let r = c.firstRow; r < c.firstRow + c.rows && r < n; r++) rc[r] = ci;
    });
    for (let i = 0; i < n; i++) {
      labels.push(s.rows[i]?.label ?? `r${i}`);
      data.push(s.lambda[i]);
      const ci = rc[i];
      this.rowConstraint.push(ci);
      const base = redundantRows.has(i) ? p.warning : p.series[(ci < 0 ? 0 : ci) % 2 === 0 ? 0 : 5];
      const dim = selected >= 0 && ci !== selected;
      colors.push(withAlpha(base, dim ? 0.35 : 0.85));
      borders.push(ci === selected ? p.focus : withAlpha(base, dim ? 0.5 : 1));
    }
    this.chart.data.labels = labels;
    this.chart.data.datasets = [{ label: 'λ', data, backgroundColor: colors, borderColor: borders, borderWidth: 1.5, maxBarThickness: 36 }];
    this.chart.update('none');
  }
}
