// The standalone HTML report: one self-contained file (bundled webview JS/CSS inlined, the
// PanelModel embedded), read-only, no network. Pure function: the caller reads the assets
// (dist/webview.js and dist/webview.css) and builds the model.
import { encodeForJson, type PanelModel } from './protocol';
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
