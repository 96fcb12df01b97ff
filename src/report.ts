// The standalone HTML report: one self-contained file (bundled webview JS/CSS inlined, the
// PanelModel embedded), read-only, no network. Pure function: the caller reads the assets
// (dist/webview.js and dist/webview.css) and builds the model.
import { encodeForJson, type PanelModel, type SystemSnapshot } from './protocol';
import { renderPanelHtml } from './panelHtml';

/** A deterministic-enough nonce without Node/DOM crypto (the report is a static file). */
function makeNonce(seed: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x1234567;
  for (let i = 0; i < seed.length; i++) {
    const c = seed.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 + c, 0x5bd1e995) >>> 0;
  }
  const rnd = Math.floor(Math.random() * 0xffffffff) >>> 0;
  return [h1, h2, rnd].map((x) => x.toString(16).padStart(8, '0')).join('');
}

export function buildReportHtml(model: PanelModel, assets: { js: string; css: string }): string {
  const embedded = encodeForJson(model);
  return renderPanelHtml({
    cspSource: '',
    nonce: makeNonce(embedded.slice(0, 4096) + model.sceneName),
    scriptUri: '',
    styleUri: '',
    title: `${model.sceneName} — Constraint Lens report`,
    // Source-map comments would make devtools fetch a file that is not there.
    inlineScript: assets.js.replace(/^\/\/# sourceMappingURL=.*$/gm, ''),
    inlineStyle: assets.css.replace(/\/\*# sourceMappingURL=[^*]*\*\//g, ''),
    embeddedModel: embedded,
  });
}

/**
 * Which steps to embed as full snapshots in a report (`PanelModel.snapshots`): every step
 * when the run is short and the system small, otherwise the first, the last and a few evenly
 * spaced ones. `steps` is the number of steps taken (history length); step 0 is the initial state.
 */
export function reportSnapshotSteps(steps: number, rows: number, dofs: number): number[] {
  const size = Math.max(1, rows) * Math.max(1, dofs) + rows * rows;
  const budget = 4_000_000; // matrix entries (dense-equivalent upper bound) across all snapshots
  const max = Math.max(2, Math.min(steps + 1, 101, Math.floor(budget / size)));
  if (steps + 1 <= max) return Array.from({ length: steps + 1 }, (_, i) => i);
  const out = new Set<number>();
  for (let i = 0; i < max; i++) out.add(Math.round((i * steps) / (max - 1)));
  return [...out].sort((a, b) => a - b);
}

/** Where a report's step snapshots come from: the extension's scene manager (maybe a worker) or the CLI's Simulation. */
interface ReportRun {
  /** Steps taken (the history's length). */
  currentStep: number;
  /** The analysed system after step k (0 = initial), undefined when it cannot be had. */
  snapshotAt(step: number): SystemSnapshot | undefined | Promise<SystemSnapshot | undefined>;
}

/** The report footer's generator line: `Constraint Lens 0.1.0 (CLI), 2025-01-01`. */
export function reportGenerator(version: string, where: string, date = new Date()): string {
  return `Constraint Lens ${version} (${where}), ${date.toISOString().slice(0, 10)}`;
}

/**
 * The model a report embeds, one code path for the CLI's `report` and the extension's Export
 * Report: the panel model with the run's whole history, analysed snapshots of the steps chosen by
 * `reportSnapshotSteps` (every step of a short run; anchors and matrices as the engine computed
 * them), the last step's snapshot as the one shown, and the generator line.
 */
export async function buildReportModel(base: PanelModel, run: ReportRun | undefined, generator: string): Promise<PanelModel> {
  const model: PanelModel = { ...base, generator };
  if (!run || run.currentStep <= 0) return model;
  const steps = reportSnapshotSteps(run.currentStep, base.snapshot.rank.rows, base.snapshot.rank.dofs);
  const snaps: SystemSnapshot[] = [];
  for (const k of steps) {
    const snap = await run.snapshotAt(k);
    if (snap) snaps.push(snap);
  }
  model.snapshots = snaps;
  const last = snaps[snaps.length - 1];
  if (last && last.step === run.currentStep) model.snapshot = last;
  return model;
}
