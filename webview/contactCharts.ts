// chart.js charts of the contact solvers: Newton's convergence within one step (‖h‖ and the block
// norms per iteration on a log scale, the line-search step lengths on a second axis, as MuJoCo's
// simulate viewer plots its solver), and per-step series over the run (iterations, residuals,
// penetration) with the timeline cursor; clicking a per-step chart moves the timeline.
import { Chart, LinearScale, LineController, LineElement, LogarithmicScale, PointElement, Legend, Tooltip, type ChartConfiguration, type ChartDataset } from 'chart.js';
import type { NewtonSnapshot } from '../src/protocol';
import type { StepExtras } from './history';
import { formatNumber as fmt } from '../src/shared';
import type { Palette } from './palette';
import { withAlpha } from './theme';
import { cpuCanvas } from './canvas';

Chart.register(LineController, LineElement, PointElement, LinearScale, LogarithmicScale, Legend, Tooltip);

/** Values at or below this are drawn at it on log axes (an exact 0 residual). */
const LOG_FLOOR = 1e-17;
const onLog = (x: number): number => (Number.isFinite(x) ? Math.max(LOG_FLOOR, Math.abs(x)) : NaN);

const isPow10 = (v: number): boolean => v > 0 && Math.abs(Math.log10(v) - Math.round(Math.log10(v))) < 1e-9;
/** Log ticks: powers of ten only. */
const logTick = (v: number | string): string => (isPow10(Number(v)) ? fmt(Number(v), 2) : '');

const NEWTON_BLOCKS = ['dyn', 'kin', 'b', 'n', 'f'] as const;
const BLOCK_TITLE: Record<(typeof NEWTON_BLOCKS)[number], string> = { dyn: 'dyn (dynamics)', kin: 'kin (kinematics)', b: 'b (joints)', n: 'n (contact normals)', f: 'f (friction)' };

type Pt = { x: number; y: number };

/** ‖h‖ and the block norms per Newton iteration (log), α per iteration (right axis, 0…1). */
export class ConvergenceChart {
  readonly chart: Chart<'line', Pt[]>;
  constructor(canvas: HTMLCanvasElement) {
    const cfg: ChartConfiguration<'line', Pt[]> = {
      type: 'line',
      data: { datasets: [] },
      options: {
        parsing: false,
        normalized: true,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        elements: { line: { tension: 0 } },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'Newton iteration' }, ticks: { precision: 0, stepSize: 1 } },
          y: { type: 'logarithmic', title: { display: true, text: 'residual (log)' }, ticks: { autoSkip: true, maxTicksLimit: 9, callback: logTick } },
          y1: { type: 'linear', position: 'right', min: 0, max: 1.05, title: { display: true, text: 'step length α' }, grid: { drawOnChartArea: false }, ticks: { maxTicksLimit: 5, callback: (v) => fmt(Number(v), 2) } },
        },
        plugins: {
          legend: { display: true, position: 'bottom' },
          tooltip: {
            callbacks: {
              title: (items) => `iteration ${items[0]?.parsed.x ?? ''}`,
              label: (item) => `${item.dataset.label}: ${item.parsed.y !== null && item.parsed.y <= LOG_FLOOR && item.dataset.yAxisID !== 'y1' ? '0' : fmt(item.parsed.y ?? NaN, 4)}`,
            },
          },
        },
      },
    };
    this.chart = new Chart(cpuCanvas(canvas), cfg);
  }

  update(n: NewtonSnapshot, tolerance: number | undefined, p: Palette): void {
    const sets: ChartDataset<'line', Pt[]>[] = [
      { label: '‖h‖', data: n.residuals.map((y, x) => ({ x, y: onLog(y) })), borderColor: p.fg, backgroundColor: p.fg, borderWidth: 2.5, pointRadius: 3, yAxisID: 'y' },
    ];
    NEWTON_BLOCKS.forEach((b, k) => {
      const data = n.blockResiduals.map((r, x) => ({ x, y: onLog(r[b]) }));
      if (data.every((d) => d.y <= LOG_FLOOR)) return; // an empty block (no joints, no contacts)
      const c = p.series[k % p.series.length];
      sets.push({ label: BLOCK_TITLE[b], data, borderColor: c, backgroundColor: c, borderWidth: 1.5, borderDash: [5, 3], pointRadius: 2, yAxisID: 'y' });
    });
    // α of iteration k moves x_{k−1} to x_k: drawn at x = k
    const alpha = n.stepLengths.map((y, k) => ({ x: k + 1, y }));
    if (alpha.length) sets.push({ label: 'step length α', data: alpha, borderColor: withAlpha(p.muted, 0.8), backgroundColor: p.muted, borderWidth: 1, showLine: true, stepped: 'before', pointStyle: 'rect', pointRadius: 3, yAxisID: 'y1' });
    this.chart.data.datasets = sets;
    this.chart.options.plugins!.clLines = { lines: tolerance && tolerance > 0 ? [{ y: tolerance, color: p.warning, label: `tolerance ${fmt(tolerance, 2)}` }] : [] };
    const xs = this.chart.options.scales!.x as { min?: number; max?: number };
    xs.min = 0;
    xs.max = Math.max(1, n.residuals.length - 1);
    this.chart.update('none');
  }

  destroy(): void {
    this.chart.destroy();
  }
}

/** One series of a per-step chart: a value per record (NaN: not drawn), on the left (log or linear) or right axis. */
interface StepSeries {
  label: string;
  get: (r: StepExtras) => number | undefined;
  color: string;
  axis: 'y' | 'y1';
  dash?: number[];
  /**
   * Drawn as marks only (no line, a visible triangle at every point whatever the history's length): for
   * sparse events such as the steps where Newton did not converge, which a line would join across the
   * steps between them and which, as points of a long line, would be drawn with radius 0.
   */
  marks?: boolean;
}

/** Most points drawn per series: longer histories keep the largest value of each bucket of steps. */
const MAX_POINTS = 1500;

function decimate(history: readonly StepExtras[], get: StepSeries['get'], log: boolean): Pt[] {
  const k = Math.max(1, Math.ceil(history.length / MAX_POINTS));
  const out: Pt[] = [];
  for (let i = 0; i < history.length; i += k) {
    let y = NaN;
    let x = history[i].step;
    for (let q = 0; q < k && i + q < history.length; q++) {
      const v = get(history[i + q]);
      if (v !== undefined && Number.isFinite(v) && !(Math.abs(v) <= Math.abs(y))) {
        y = v;
        x = history[i + q].step;
      }
    }
    out.push({ x, y: log ? onLog(y) : y });
  }
  return out;
}

/** A chart over the run's steps: series from the history, the timeline cursor, click to go to a step. */
export class StepChart {
  readonly chart: Chart<'line', Pt[]>;
  constructor(
    canvas: HTMLCanvasElement,
    private readonly axes: { y: { title: string; log: boolean }; y1?: { title: string; log: boolean } },
    onPick: (step: number) => void,
  ) {
    const axis = (a: { title: string; log: boolean }, right: boolean) => ({
      type: a.log ? ('logarithmic' as const) : ('linear' as const),
      position: right ? ('right' as const) : ('left' as const),
      title: { display: true, text: a.title },
      grid: right ? { drawOnChartArea: false } : undefined,
      ticks: a.log ? { autoSkip: true, maxTicksLimit: 8, callback: logTick } : { maxTicksLimit: 6, precision: 0, callback: (v: number | string) => fmt(Number(v), 3) },
    });
    const cfg: ChartConfiguration<'line', Pt[]> = {
      type: 'line',
      data: { datasets: [] },
      options: {
        parsing: false,
        normalized: true,
        spanGaps: false,
        interaction: { mode: 'nearest', axis: 'x', intersect: false },
        elements: { point: { radius: 0, hoverRadius: 3 }, line: { tension: 0 } },
        scales: {
          x: { type: 'linear', title: { display: true, text: 'step' }, ticks: { maxTicksLimit: 8, precision: 0 } },
          y: axis(axes.y, false),
          ...(axes.y1 ? { y1: axis(axes.y1, true) } : {}),
        },
        plugins: {
          legend: { display: true, position: 'bottom' },
          tooltip: { callbacks: { title: (items) => `step ${items[0]?.parsed.x ?? ''}`, label: (item) => `${item.dataset.label}: ${fmt(item.parsed.y ?? NaN, 4)}` } },
        },
        onClick: (e, _els, chart) => {
          const ev = e.native as MouseEvent | undefined;
          if (!ev) return;
          const v = chart.scales.x.getValueForPixel(ev.clientX - chart.canvas.getBoundingClientRect().left);
          if (v !== undefined && Number.isFinite(v)) onPick(Math.max(0, Math.round(v)));
        },
      },
    };
    this.chart = new Chart(cpuCanvas(canvas), cfg);
  }

  update(history: readonly StepExtras[], series: StepSeries[], step: number, p: Palette, lines: { y: number; color: string; label: string }[] = []): void {
    this.chart.data.datasets = series.map((s) => {
      const log = (s.axis === 'y' ? this.axes.y : this.axes.y1)?.log ?? false;
      const data = decimate(history, s.get, log);
      if (s.marks) return { label: s.label, data, borderColor: s.color, backgroundColor: s.color, borderWidth: 1.5, showLine: false, pointStyle: 'triangle', pointRadius: 5, pointHoverRadius: 7, yAxisID: s.axis };
      return { label: s.label, data, borderColor: s.color, backgroundColor: s.color, borderWidth: 1.5, borderDash: s.dash, pointRadius: data.length < 40 ? 2 : 0, yAxisID: s.axis };
    });
    const o = this.chart.options;
    o.plugins!.clCursor = { x: step, color: p.focus };
    o.plugins!.clLines = { lines };
    const xs = o.scales!.x as { min?: number; max?: number };
    xs.min = 0;
    xs.max = Math.max(1, history.length ? history[history.length - 1].step : 1);
    this.chart.update('none');
  }

  cursor(step: number, color: string): void {
    this.chart.options.plugins!.clCursor = { x: step, color };
    this.chart.update('none');
  }

  destroy(): void {
    this.chart.destroy();
  }
}
