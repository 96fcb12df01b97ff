// What each history chart plots (|C|, λ, κ, energy, drift), as raw values per step: the chart
// (charts.ts) decides the axis (linear, log, symmetric log: chartScale.ts) and the transform.
// No chart.js here.
import type { SystemSnapshot } from '../src/protocol';
import { COND_BAND_LABEL, condThresholds, formatCond } from '../src/shared';
import type { AxisChoice, SeriesKind } from './chartScale';
import { decimate, MAX_BUCKETS, type Point } from './decimate';
import { condAt, condReadout, energyPartAt, lambdaAt, quatDriftAt, violationAt, type History } from './history';
import type { Palette } from './theme';

export interface SeriesSpec {
  label: string;
  color: string;
  data: Point[];
  width?: number;
  dash?: number[];
  dim?: boolean;
}

export interface ChartLine {
  y: number;
  color: string;
  label: string;
  dash?: number[];
}

export interface HistoryChartSpec {
  id: string;
  title: string;
  yTitle: string;
  /** Positive series go on a log axis when they span decades, signed ones on a symmetric log axis. */
  kind: SeriesKind;
  /** The axis when the user has not chosen (`auto`: from the data). */
  axis: AxisChoice;
  /** Values below the scene's noise floor read as zero (forces; not ‖C‖, κ or drift, which have their own scales). */
  noise: boolean;
  build(ctx: HistoryContext): { series: SeriesSpec[]; lines?: ChartLine[]; note?: string };
  /**
   * The value at one step as text, shown beside the chart's title for the panel's step: it reads
   * the record the chart plots with the header's rules, so the two can be compared at a glance.
   */
  readout?(ctx: HistoryContext, step: number): string | undefined;
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
  /** Steps shown (x from `from` to `to`); the whole run when absent. */
  range?: { from: number; to: number };
  /** The divergence onset step (CL404), marked on every chart. */
  onset?: number;
  /** Forces below this read as zero (the scene's noise floor, N). */
  noise?: number;
  /** The user's axis per chart id (absent: the spec's). */
  axes?: Readonly<Record<string, AxisChoice>>;
  /** Decimation buckets (one per pixel of the chart's width). */
  buckets?: number;
}

/** `get(k)` over the records shown (x = step k + 1), decimated to min/max per pixel (decimate.ts). */
function seriesOf(ctx: HistoryContext, get: (k: number) => number): Point[] {
  const n = ctx.history.length;
  const from = Math.max(0, Math.min(n, (ctx.range?.from ?? 0) - 1));
  const to = Math.max(from, Math.min(n, ctx.range?.to ?? n));
  return decimate(to - from, (k) => get(k + from), (k) => k + from + 1, ctx.buckets ?? MAX_BUCKETS);
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
export function anySingular(history: History): boolean {
  for (let k = 0; k < history.length; k++) if (condAt(history, k) === null) return true;
  return false;
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

/** κ of a singular step, drawn at the top of the log axis. */
export const SINGULAR_AT = 1e17;

export const HISTORY_CHARTS: HistoryChartSpec[] = [
  {
    id: 'violation',
    title: 'Constraint violation ‖C‖',
    yTitle: '‖C‖',
    kind: 'positive',
    axis: 'log',
    noise: false,
    build: (ctx) => {
      const { history, snapshot, palette, selectedConstraint, columns } = ctx;
      const cs = columns ? columns.constraints.map((name) => ({ name })) : snapshot.constraints;
      const n = Math.max(cs.length, history.length ? history.buf.nC : 0);
      const maxC = (i: number): number => maxAbs(history, (k) => violationAt(history, k, i) || 0);
      const chosen = pick(n, maxC, selectedConstraint);
      return {
        series: chosen.map((i, k) => ({
          label: cs[i]?.name ?? `c${i}`,
          color: palette.series[k % palette.series.length],
          data: seriesOf(ctx, (k) => violationAt(history, k, i)),
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
    kind: 'signed',
    axis: 'auto',
    noise: true,
    build: (ctx) => {
      const { history, snapshot, palette, selectedConstraint, columns } = ctx;
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
            data: seriesOf(ctx, (k) => lambdaAt(history, k, i)),
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
    yTitle: 'κ(A)',
    kind: 'positive',
    axis: 'log',
    noise: false,
    build: (ctx) => ({
      series: [
        {
          label: 'κ(A)',
          color: ctx.palette.series[0],
          data: seriesOf(ctx, (k) => {
            const c = condAt(ctx.history, k);
            return c === null ? SINGULAR_AT : Math.max(1, c);
          }),
        },
      ],
      // The shared κ band edges with the scene's threshold (src/shared/kappa.ts).
      lines: [
        { y: condThresholds(ctx.conditionWarning).caution, color: ctx.palette.warning, label: `${COND_BAND_LABEL.caution} ${formatCond(condThresholds(ctx.conditionWarning).caution)}` },
        { y: condThresholds(ctx.conditionWarning).bad, color: ctx.palette.error, label: `${COND_BAND_LABEL.bad} ${formatCond(condThresholds(ctx.conditionWarning).bad)}` },
      ],
      note: anySingular(ctx.history) ? 'singular steps drawn at 1e17' : undefined,
    }),
    readout: (ctx, step) => condReadout(ctx.history, step),
  },
  {
    id: 'energy',
    title: 'Energy',
    yTitle: 'J',
    kind: 'signed',
    axis: 'auto',
    noise: false,
    build: (ctx) => ({
      series: [
        { label: 'total', color: ctx.palette.series[0], data: seriesOf(ctx, (k) => energyPartAt(ctx.history, k, 2)), width: 2 },
        { label: 'kinetic', color: ctx.palette.series[2], data: seriesOf(ctx, (k) => energyPartAt(ctx.history, k, 0)), dash: [4, 3] },
        { label: 'potential', color: ctx.palette.series[3], data: seriesOf(ctx, (k) => energyPartAt(ctx.history, k, 1)), dash: [2, 2] },
      ],
    }),
  },
  {
    id: 'drift',
    title: 'Quaternion drift max ||q|−1|',
    yTitle: '||q|−1|',
    kind: 'positive',
    axis: 'log',
    noise: false,
    build: (ctx) => ({
      series: [{ label: '||q|−1|', color: ctx.palette.series[4], data: seriesOf(ctx, (k) => quatDriftAt(ctx.history, k)) }],
      lines: [{ y: 1e-6, color: ctx.palette.warning, label: '1e−6' }],
    }),
  },
];
