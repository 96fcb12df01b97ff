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
import { COND_BAND_LABEL, condThresholds } from '../src/shared';
import { decimate, MAX_BUCKETS, type Point } from './decimate';
import { condAt, energyPartAt, lambdaAt, quatDriftAt, violationAt, type History } from './history';
import { withAlpha, type Palette } from './theme';
import { minOf } from '../src/shared/arrays';

declare module 'chart.js' {
  // Declaration merging needs chart.js's own type parameter name.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface PluginOptionsByType<TType extends ChartType> {
    clCursor?: { x?: number; color?: string };
    clLines?: { lines: { y: number; color: string; label: string; dash?: number[] }[] };
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
Chart.register(cursorPlugin, linesPlugin);

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
/** Log axes: label only powers of ten when at least two are shown, every tick otherwise. */
function logTick(this: unknown, v: number | string, _i: number, ticks: { value: number }[]): string {
  const x = Number(v);
  let pows = powCounts.get(ticks);
  if (pows === undefined) {
    pows = ticks.filter((t) => isPow10(t.value)).length;
    powCounts.set(ticks, pows);
  }
  if (pows >= 2 && !isPow10(x)) return '';
  return fmt(x, 2);
}
const linTick = (v: number | string): string => fmt(Number(v), 3);
const logv = (x: number): number => (Number.isFinite(x) ? Math.max(FLOOR, Math.abs(x)) : NaN);

interface SeriesSpec {
  label: string;
  color: string;
  data: Point[];
  width?: number;
  dash?: number[];
  dim?: boolean;
}

/** Buckets of the decimation: one per pixel of the chart's width, at most MAX_BUCKETS (≤ 2000 points). */
let buckets = MAX_BUCKETS;

/** `get(k)` over the records (x = step k + 1), decimated to min/max per pixel (decimate.ts). */
function seriesOf(history: History, get: (k: number) => number): Point[] {
  return decimate(history.length, get, (k) => k + 1, buckets);
}

/** Largest |get(k)| over the run. */
function maxAbs(history: History, get: (k: number) => number): number {
  let m = 0;
  for (let k = 0; k < history.length; k++) {
    const v = Math.abs(get(k));
    if (v > m) m = v;
  }
  return m;
}

/** Some record is singular (κ = ∞). */
function anySingular(history: History): boolean {
  for (let k = 0; k < history.length; k++) if (condAt(history, k) === null) return true;
  return false;
}

interface HistoryChartSpec {
  id: string;
  title: string;
  yTitle: string;
  log: boolean;
  build(ctx: HistoryContext): { series: SeriesSpec[]; lines?: { y: number; color: string; label: string; dash?: number[] }[]; note?: string };
}

export interface HistoryContext {
  history: History;
  snapshot: SystemSnapshot;
  initial?: SystemSnapshot;
  palette: Palette;
  selectedConstraint: number;
  /** Names of the history's columns when they are not the snapshot's (PanelModel.historyColumns: a MuJoCo run). */
  columns?: { constraints: string[]; rows: string[] };
  /** The scene's κ warning threshold (bands and chart lines). */
  conditionWarning?: number;
}

const MAX_SERIES = 8;

/** Pick up to MAX_SERIES indices: the selected one plus the largest by `score`. */
function pick(n: number, score: (i: number) => number, selected: number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  if (n <= MAX_SERIES) return idx;
  idx.sort((a, b) => score(b) - score(a));
  const out = idx.slice(0, MAX_SERIES);
  if (selected >= 0 && selected < n && !out.includes(selected)) out[MAX_SERIES - 1] = selected;
  return out.sort((a, b) => a - b);
}

export const HISTORY_CHARTS: HistoryChartSpec[] = [
  {
    id: 'violation',
    title: 'Constraint violation ‖C‖',
    yTitle: '‖C‖ (log)',
    log: true,
    build: ({ history, snapshot, palette, selectedConstraint, columns }) => {
      const cs = columns ? columns.constraints.map((name) => ({ name })) : snapshot.constraints;
      const n = Math.max(cs.length, history.length ? history.buf.nC : 0);
      const maxC = (i: number): number => maxAbs(history, (k) => violationAt(history, k, i) || 0);
      const chosen = pick(n, maxC, selectedConstraint);
      return {
        series: chosen.map((i, k) => ({
          label: cs[i]?.name ?? `c${i}`,
          color: palette.series[k % palette.series.length],
          data: seriesOf(history, (k) => logv(violationAt(history, k, i))),
          width: i === selectedConstraint ? 2.5 : 1.5,
          dash: k >= palette.series.length ? [5, 3] : undefined,
          dim: selectedConstraint >= 0 && i !== selectedConstraint,
        })),
        note: n > chosen.length ? `${chosen.length} of ${n} constraints (largest)` : undefined,
      };
    },
  },
  {
    id: 'lambda',
    title: 'Multipliers λ',
    yTitle: 'λ',
    log: false,
    build: ({ history, snapshot, palette, selectedConstraint, columns }) => {
      const rows = columns ? columns.rows.map((label) => ({ label })) : snapshot.rows;
      const n = Math.max(rows.length, history.length ? history.buf.nL : 0);
      const sel = columns ? (selectedConstraint >= 0 ? { firstRow: selectedConstraint, rows: 1 } : undefined) : snapshot.constraints[selectedConstraint];
      const selRow = sel ? sel.firstRow : -1;
      const maxL = (i: number): number => maxAbs(history, (k) => lambdaAt(history, k, i) || 0);
      const chosen = pick(n, maxL, selRow);
      return {
        series: chosen.map((i, k) => {
          const inSel = sel !== undefined && i >= sel.firstRow && i < sel.firstRow + sel.rows;
          return {
            label: rows[i]?.label ?? `r${i}`,
            color: palette.series[k % palette.series.length],
            data: seriesOf(history, (k) => lambdaAt(history, k, i)),
            width: inSel ? 2.5 : 1.5,
            dash: k >= palette.series.length ? [5, 3] : undefined,
            dim: sel !== undefined && !inSel,
          };
        }),
        note: n > chosen.length ? `${chosen.length} of ${n} rows (largest |λ|)` : undefined,
      };
    },
  },
  {
    id: 'cond',
    title: 'Condition number κ(A)',
    yTitle: 'κ(A) (log)',
    log: true,
    build: ({ history, palette, conditionWarning }) => ({
      series: [
        {
          label: 'κ(A)',
          color: palette.series[0],
          data: seriesOf(history, (k) => {
            const c = condAt(history, k);
            return c === null ? 1e17 : Math.max(1, c);
          }),
        },
      ],
      // The shared κ band edges with the scene's threshold (src/shared/kappa.ts).
      lines: [
        { y: condThresholds(conditionWarning).caution, color: palette.warning, label: `${COND_BAND_LABEL.caution} ${formatCond(condThresholds(conditionWarning).caution)}` },
        { y: condThresholds(conditionWarning).bad, color: palette.error, label: `${COND_BAND_LABEL.bad} ${formatCond(condThresholds(conditionWarning).bad)}` },
      ],
      note: anySingular(history) ? 'singular steps drawn at 1e17' : undefined,
    }),
  },
  {
    id: 'energy',
    title: 'Energy',
    yTitle: 'J',
    log: false,
    build: ({ history, palette }) => ({
      series: [
        { label: 'total', color: palette.series[0], data: seriesOf(history, (k) => energyPartAt(history, k, 2)), width: 2 },
        { label: 'kinetic', color: palette.series[2], data: seriesOf(history, (k) => energyPartAt(history, k, 0)), dash: [4, 3] },
        { label: 'potential', color: palette.series[3], data: seriesOf(history, (k) => energyPartAt(history, k, 1)), dash: [2, 2] },
      ],
    }),
  },
  {
    id: 'drift',
    title: 'Quaternion drift max ||q|−1|',
    yTitle: '||q|−1| (log)',
    log: true,
    build: ({ history, palette }) => ({
      series: [{ label: '||q|−1|', color: palette.series[4], data: seriesOf(history, (k) => logv(quatDriftAt(history, k))) }],
      lines: [{ y: 1e-6, color: palette.warning, label: '1e−6' }],
    }),
  },
];

export class HistoryChart {
  readonly chart: Chart<'line', { x: number; y: number }[]>;
  constructor(
    readonly spec: HistoryChartSpec,
    canvas: HTMLCanvasElement,
    private readonly onPick: (step: number) => void,
  ) {
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
          y: {
            type: spec.log ? 'logarithmic' : 'linear',
            title: { display: false, text: spec.yTitle },
            ticks: spec.log ? { autoSkip: true, maxTicksLimit: 8, callback: logTick } : { maxTicksLimit: 6, callback: linTick },
          },
        },
        plugins: {
          legend: { display: true, position: 'bottom', labels: { usePointStyle: false } },
          tooltip: {
            callbacks: {
              title: (items) => `step ${items[0]?.parsed.x ?? ''}`,
              label: (item) => {
                const y = item.parsed.y ?? NaN;
                const shown = spec.id === 'cond' && y >= 1e17 ? '∞' : spec.id === 'cond' ? formatCond(y) : fmt(y, 6);
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
    this.chart = new Chart(canvas, cfg);
  }

  update(ctx: HistoryContext, step: number): string | undefined {
    buckets = Math.max(100, Math.min(MAX_BUCKETS, Math.round(this.chart.width || MAX_BUCKETS)));
    const built = this.spec.build(ctx);
    const p = ctx.palette;
    this.chart.data.datasets = built.series.map(
      (s): ChartDataset<'line', { x: number; y: number }[]> => ({
        label: s.label,
        data: s.data,
        borderColor: s.dim ? withAlpha(s.color, 0.35) : s.color,
        backgroundColor: s.dim ? withAlpha(s.color, 0.35) : s.color,
        borderWidth: s.width ?? 1.5,
        borderDash: s.dash,
        pointRadius: s.data.length < 30 ? 2 : 0,
      }),
    );
    const o = this.chart.options;
    (this.chart as CursorChart).clCursorAt = { x: step, color: p.focus };
    o.plugins!.clLines = { lines: built.lines ?? [] };
    o.plugins!.legend!.display = built.series.length > 1;
    const last = ctx.history.length || 1;
    if (this.spec.id === 'cond') {
      const ys = o.scales!.y as { min?: number; max?: number };
      const singular = anySingular(ctx.history);
      ys.max = singular ? 1e18 : undefined;
      ys.min = singular ? 1 : undefined;
    }
    (o.scales!.x as { min?: number; max?: number }).min = 0;
    (o.scales!.x as { min?: number; max?: number }).max = Math.max(1, last);
    this.chart.update('none');
    return built.note;
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

export class SpectrumChart {
  readonly chart: Chart<'line', { x: number; y: number }[]>;
  constructor(canvas: HTMLCanvasElement) {
    this.chart = new Chart(canvas, {
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
    this.chart = new Chart(canvas, {
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
