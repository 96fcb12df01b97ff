// Constraint Lens inspector: the webview UI (also the standalone report, read-only).
import {
  decodeFromJson,
  isPanelModel,
  parseHostMessage,
  type Diagnostic,
  type HostMessage,
  type PanelModel,
  type Projection,
  type StepRecord,
  type SystemSnapshot,
  type WebviewMessage,
  type WebviewState,
} from '../src/protocol';
import { HISTORY_CHARTS, HistoryChart, LambdaChart, SpectrumChart, applyChartTheme, type HistoryContext } from './charts';
import { button, clear, h, icon } from './dom';
import { condBand, condBandLabel, csvCell, fmt, fmtCond, fmtExact, fmtTime, fmtVec, norm3 } from './format';
import { Heatmap, type HeatmapSelection } from './heatmap/heatmap';
import { entry, matricesOf, normalizeSnapshot, type MatrixSource } from './matrix';
import { SceneView, frameAt } from './sceneView';
import { onThemeChange, readPalette, type Palette } from './theme';

interface VsCodeApi {
  postMessage(m: WebviewMessage): void;
  getState(): WebviewState | undefined;
  setState(s: WebviewState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const COMMANDS: { command: 'step' | 'run' | 'playPause' | 'reset'; label: string; icon: string; title: string }[] = [
  { command: 'step', label: 'Step', icon: 'step', title: 'Advance one time step' },
  { command: 'run', label: 'Run', icon: 'run', title: 'Run the scene’s planned number of steps' },
  { command: 'playPause', label: 'Play', icon: 'play', title: 'Play / pause the simulation' },
  { command: 'reset', label: 'Reset', icon: 'reset', title: 'Back to the initial state (clears the history)' },
];

class App {
  private readonly root: HTMLElement;
  private readonly vscode: VsCodeApi | undefined;
  private readonly report: boolean;
  private state: WebviewState;
  private pal: Palette;
  private model: PanelModel | undefined;
  /** Snapshot shown in the matrices. */
  private snap: SystemSnapshot | undefined;
  private matrices: MatrixSource[] = [];
  private step = 0;
  private follow = true;
  private selected = -1;
  private running = false;
  private pendingRequest: number | undefined;
  private wantedStep: number | undefined;
  private initialSnap: SystemSnapshot | undefined;
  private bodyBoundsKey = '';

  // widgets
  private heatmap!: Heatmap;
  private scene!: SceneView;
  private spectrum!: SpectrumChart;
  private lambda!: LambdaChart;
  private historyCharts: HistoryChart[] = [];
  private els: Record<string, HTMLElement> = {};
  private slider!: HTMLInputElement;
  private tabs: HTMLButtonElement[] = [];
  private logBtn!: HTMLButtonElement;
  private playBtn: HTMLButtonElement | undefined;
  private built = false;

  constructor(root: HTMLElement, vscode: VsCodeApi | undefined, report: boolean) {
    this.root = root;
    this.vscode = vscode;
    this.report = report;
    this.state = vscode?.getState() ?? {};
    this.pal = readPalette();
    applyChartTheme(this.pal);
    document.body.classList.toggle('cl-report', report);
    onThemeChange(() => this.applyTheme());
  }

  post(m: WebviewMessage): void {
    this.vscode?.postMessage(m);
  }

  private saveState(): void {
    if (!this.vscode) return;
    this.state = {
      ...this.state,
      selectedMatrix: this.state.selectedMatrix,
      selectedStep: this.step,
      logScale: this.state.logScale,
      projection: this.state.projection,
      selectedConstraint: this.snap?.constraints[this.selected]?.name,
    };
    this.vscode.setState(this.state);
  }

  // ---- messages ------------------------------------------------------------------------

  onMessage(data: unknown): void {
    const m = parseHostMessage(data);
    if (!m) {
      this.post({ type: 'log', level: 'error', message: `webview: ignored invalid message ${describe(data)}` });
      return;
    }
    try {
      this.handle(m);
    } catch (e) {
      this.showBanner('error', `The panel failed to render: ${e instanceof Error ? e.message : String(e)}`);
      this.post({ type: 'log', level: 'error', message: `webview: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` });
    }
  }

  private handle(m: HostMessage): void {
    switch (m.type) {
      case 'model':
        this.setModel(m.model);
        break;
      case 'snapshot': {
        const s = normalizeSnapshot(m.snapshot);
        if (this.pendingRequest !== undefined && s.step === this.pendingRequest) this.pendingRequest = undefined;
        if (s.step === 0) this.initialSnap = s;
        if (this.wantedStep !== undefined && this.wantedStep !== s.step && this.pendingRequest === undefined) {
          this.request(this.wantedStep);
        }
        if (s.step === this.step || this.wantedStep === undefined || this.wantedStep === s.step) {
          this.wantedStep = undefined;
          this.setSnapshot(s);
        }
        break;
      }
      case 'history': {
        if (!this.model) return;
        this.model.history = m.history;
        const live = m.currentStep;
        this.updateSliderRange();
        if (this.follow || this.step > live) this.goToStep(live, true);
        else this.renderHistory();
        break;
      }
      case 'running':
        this.running = m.running;
        this.updatePlay();
        break;
      case 'invalidated':
        this.showBanner('warning', `The scene changed (${m.reason}). The results below are from the previous version until it is re-analysed.`);
        this.root.classList.add('cl-stale');
        break;
      case 'error':
        this.showBanner('error', m.message);
        break;
      case 'select': {
        if (!this.snap) return;
        if (m.constraint !== undefined) {
          const i = this.snap.constraints.findIndex((c) => c.name === m.constraint);
          this.select(i, false);
        }
        break;
      }
    }
  }

  private request(step: number): void {
    if (this.report) return;
    this.wantedStep = step;
    if (this.pendingRequest !== undefined) return; // one in flight: ask for the latest when it lands
    this.pendingRequest = step;
    this.post({ type: 'requestSnapshot', step });
    // Never wait forever for an answer.
    const asked = step;
    setTimeout(() => {
      if (this.pendingRequest === asked) {
        this.pendingRequest = undefined;
        if (this.wantedStep !== undefined && this.wantedStep !== asked) this.request(this.wantedStep);
      }
    }, 4000);
  }

  // ---- model -------------------------------------------------------------------------

  setModel(model: PanelModel): void {
    const t0 = performance.now();
    const first = this.model === undefined;
    model.snapshot = normalizeSnapshot(model.snapshot);
    if (model.snapshots) model.snapshots = model.snapshots.map(normalizeSnapshot).sort((a, b) => a.step - b.step);
    this.model = model;
    if (model.sceneUri && model.sceneUri !== this.state.sceneUri) {
      this.state.sceneUri = model.sceneUri;
      this.saveState();
    }
    this.initialSnap = model.snapshot.step === 0 ? model.snapshot : model.snapshots?.find((s) => s.step === 0);
    this.hideBanner();
    this.root.classList.remove('cl-stale');
    if (!this.built) this.build();
    const live = model.history.length;
    let step = model.snapshot.step;
    if (first && this.state.selectedStep !== undefined && this.state.selectedStep <= live) step = this.state.selectedStep;
    if (this.report && model.snapshots?.length) step = model.snapshots[model.snapshots.length - 1].step;
    this.step = Math.min(step, live);
    this.follow = this.step === live;
    this.updateSliderRange();
    this.bodyBoundsKey = '';
    this.snap = undefined;
    this.setSnapshot(model.snapshot.step === this.step ? model.snapshot : (this.reportSnapshotFor(this.step) ?? model.snapshot));
    const cur = this.snap as SystemSnapshot | undefined;
    if (cur && cur.step !== this.step) this.request(this.step);
    if (first && this.state.selectedConstraint) {
      const i = cur?.constraints.findIndex((c) => c.name === this.state.selectedConstraint) ?? -1;
      if (i >= 0) this.select(i, false);
    }
    this.renderStatic();
    this.renderHistory();
    document.body.dataset.clReady = '1';
    document.body.dataset.clModelMs = (performance.now() - t0).toFixed(0);
  }

  private reportSnapshotFor(step: number): SystemSnapshot | undefined {
    const list = this.model?.snapshots;
    if (!list || !list.length) return undefined;
    let best = list[0];
    for (const s of list) if (s.step <= step) best = s;
    return best;
  }

  private setSnapshot(s: SystemSnapshot): void {
    const prevId = this.currentMatrixId();
    this.snap = s;
    this.matrices = matricesOf(s);
    if (this.selected >= s.constraints.length) this.selected = -1;
    this.renderTabs(prevId);
    this.renderHeader();
    this.renderForces();
    this.renderSpectrum();
    this.renderRedundancy();
    this.renderScene();
    this.updateHeatmapSelection();
  }

  private currentMatrixId(): string {
    return this.state.selectedMatrix ?? 'J';
  }

  // ---- layout ------------------------------------------------------------------------

  private build(): void {
    this.built = true;
    clear(this.root);
    const E = this.els;

    // Header -----------------------------------------------------------------------------
    E.title = h('h1', { class: 'cl-title' });
    E.file = h('span', { class: 'cl-file' });
    E.subtitle = h('div', { class: 'cl-subtitle' });
    const titleBlock = h('div', { class: 'cl-title-block' }, h('div', { class: 'cl-title-line' }, E.title, E.file), E.subtitle);
    const controls = h('div', { class: 'cl-controls', role: 'toolbar', 'aria-label': 'Simulation controls' });
    if (this.report) {
      controls.append(h('span', { class: 'cl-badge', title: 'A static report: the recorded run can be scrubbed, nothing is re-computed.', text: 'Report · read-only' }));
    } else {
      for (const c of COMMANDS) {
        const b = button(c.label, { icon: c.icon, title: c.title, cls: c.command === 'playPause' ? 'cl-btn-primary' : '', onClick: () => this.post({ type: 'command', command: c.command }) });
        b.dataset.command = c.command;
        if (c.command === 'playPause') {
          this.playBtn = b;
          b.setAttribute('aria-pressed', 'false');
        }
        controls.append(b);
      }
    }
    E.stats = h('div', { class: 'cl-stats', role: 'list', 'aria-label': 'System summary' });
    this.slider = h('input', { type: 'range', min: 0, max: 0, step: 1, value: 0, class: 'cl-slider', id: 'cl-step-slider', 'aria-label': 'Step (timeline)' });
    this.slider.addEventListener('input', () => this.goToStep(Number(this.slider.value), false));
    E.stepOut = h('output', { class: 'cl-step-out', for: 'cl-step-slider' });
    E.stepNote = h('span', { class: 'cl-step-note', role: 'status' });
    const timeline = h('div', { class: 'cl-timeline' }, h('label', { class: 'cl-timeline-label', for: 'cl-step-slider', text: 'Timeline' }), this.slider, E.stepOut, E.stepNote);
    const header = h('header', { class: 'cl-header' }, h('div', { class: 'cl-header-top' }, titleBlock, controls), E.stats, timeline);
    E.banner = h('div', { class: 'cl-banner', role: 'alert', hidden: true });

    // Matrices ---------------------------------------------------------------------------
    E.tabs = h('div', { class: 'cl-tabs', role: 'tablist', 'aria-label': 'Matrix' });
    this.logBtn = button('log |x|', { title: 'Colour by log₁₀ of the magnitude (sign kept)', pressed: !!this.state.logScale, cls: 'cl-toggle', onClick: () => this.toggleLog() });
    const tools = h(
      'div',
      { class: 'cl-toolbar', role: 'toolbar', 'aria-label': 'Heatmap tools' },
      this.logBtn,
      h('span', { class: 'cl-sep', 'aria-hidden': 'true' }),
      button('Zoom out', { icon: 'zoomOut', iconOnly: true, cls: 'cl-icon-btn', title: 'Zoom out (−)', onClick: () => this.heatmap.zoomBy(1 / 1.6) }),
      button('Zoom in', { icon: 'zoomIn', iconOnly: true, cls: 'cl-icon-btn', title: 'Zoom in (+, or mouse wheel)', onClick: () => this.heatmap.zoomBy(1.6) }),
      button('Fit', { icon: 'fit', iconOnly: true, cls: 'cl-icon-btn', title: 'Fit the whole matrix (0, or double-click)', onClick: () => this.heatmap.fit() }),
      h('span', { class: 'cl-sep', 'aria-hidden': 'true' }),
      button('CSV', { icon: 'copy', title: 'Copy as CSV (with labels)', onClick: () => void this.copy('csv') }),
      button('NumPy', { icon: 'copy', title: 'Copy as a NumPy array literal', onClick: () => void this.copy('numpy') }),
    );
    E.matrixDesc = h('p', { class: 'cl-desc' });
    E.copyStatus = h('span', { class: 'cl-copy-status', role: 'status' });
    this.heatmap = new Heatmap({ onActivate: (i) => this.onHeatmapActivate(i) });
    this.heatmap.setPalette(this.pal);
    this.heatmap.setLogScale(!!this.state.logScale);
    const matrices = card('matrices', 'Matrices', [E.tabs, tools], [h('div', { class: 'cl-desc-row' }, E.matrixDesc, E.copyStatus), this.heatmap.el]);

    // Forces -----------------------------------------------------------------------------
    const lambdaCanvas = h('canvas', { 'aria-label': 'λ per constraint row (bar chart)', role: 'img' });
    this.lambda = new LambdaChart(lambdaCanvas, (ci) => this.select(ci, true));
    E.lambdaNote = h('p', { class: 'cl-desc' });
    E.forceTable = h('div', { class: 'cl-table-wrap' });
    const forces = card('forces', 'Constraint forces', [], [E.lambdaNote, h('div', { class: 'cl-chart cl-chart-lambda' }, lambdaCanvas), E.forceTable]);

    // Scene ------------------------------------------------------------------------------
    this.scene = new SceneView({ onConstraint: (i) => this.select(i, true), onBody: (i) => this.post({ type: 'reveal', bodyIndex: i }) });
    this.scene.setPalette(this.pal);
    this.scene.setProjection(this.state.projection ?? 'XZ');
    const proj = h('div', { class: 'cl-segmented', role: 'radiogroup', 'aria-label': 'Projection' });
    for (const p of ['XY', 'XZ', 'YZ'] as Projection[]) {
      const b = h('button', { type: 'button', class: 'cl-seg', role: 'radio', 'aria-checked': String((this.state.projection ?? 'XZ') === p), text: p, title: `Project onto the ${p} plane` });
      b.addEventListener('click', () => {
        this.state.projection = p;
        for (const x of Array.from(proj.children)) x.setAttribute('aria-checked', String(x === b));
        this.scene.setProjection(p);
        this.saveState();
      });
      proj.append(b);
    }
    E.sceneNote = h('p', { class: 'cl-desc' });
    const sceneCard = card('scene', 'Scene', [proj], [this.scene.el, E.sceneNote]);

    // Spectrum / redundancy / diagnostics -----------------------------------------------
    const specCanvas = h('canvas', { role: 'img', 'aria-label': 'Singular values of A (log scale)' });
    this.spectrum = new SpectrumChart(specCanvas);
    E.specSummary = h('div', { class: 'cl-kv' });
    E.specEmpty = h('p', { class: 'cl-empty', hidden: true });
    E.specChartWrap = h('div', { class: 'cl-chart cl-chart-spectrum' }, specCanvas);
    const spectrum = card('spectrum', 'Spectrum of A', [], [E.specSummary, E.specChartWrap, E.specEmpty]);
    E.redundancyBody = h('div', { class: 'cl-redundancy' });
    const redundancy = card('redundancy', 'Redundancy', [], [E.redundancyBody]);
    E.redundancyCard = redundancy;
    E.diagList = h('ul', { class: 'cl-diags', 'aria-label': 'Diagnostics' });
    E.diagCount = h('span', { class: 'cl-count' });
    const diags = card('diagnostics', 'Problems', [E.diagCount], [E.diagList]);

    // History ----------------------------------------------------------------------------
    const grid = h('div', { class: 'cl-history-grid' });
    this.historyCharts = [];
    E.historyEmpty = h('p', { class: 'cl-empty', text: 'No steps taken yet. Step or run the simulation to see the history.' });
    for (const spec of HISTORY_CHARTS) {
      const canvas = h('canvas', { role: 'img', 'aria-label': `${spec.title} over time` });
      const note = h('span', { class: 'cl-chart-note' });
      E[`note-${spec.id}`] = note;
      grid.append(h('figure', { class: 'cl-history-item', 'data-chart': spec.id }, h('figcaption', {}, h('span', { text: spec.title }), note), h('div', { class: 'cl-chart cl-chart-history' }, canvas)));
      this.historyCharts.push(new HistoryChart(spec, canvas, (s) => this.goToStep(s, false)));
    }
    const history = card('history', 'History', [h('span', { class: 'cl-hint', text: 'Click a chart to jump to a step' })], [E.historyEmpty, grid]);

    const footer = h('footer', { class: 'cl-footer' });
    E.footer = footer;
    const main = h('main', { class: 'cl-main' }, h('div', { class: 'cl-col cl-col-main' }, matrices, forces), h('div', { class: 'cl-col cl-col-side' }, sceneCard, redundancy, spectrum, diags));
    this.root.append(header, E.banner, main, history, footer);
  }

  private applyTheme(): void {
    this.pal = readPalette();
    applyChartTheme(this.pal);
    if (!this.built) return;
    this.heatmap.setPalette(this.pal);
    this.scene.setPalette(this.pal);
    if (this.snap) {
      this.renderForces();
      this.renderSpectrum();
    }
    this.renderHistory();
  }

  // ---- header & timeline ---------------------------------------------------------------

  private record(step: number): StepRecord | undefined {
    return step > 0 ? this.model?.history[step - 1] : undefined;
  }

  private renderStatic(): void {
    const m = this.model!;
    const E = this.els;
    E.title.textContent = m.sceneName || '(unnamed scene)';
    E.file.textContent = m.fileName;
    document.title = `${m.sceneName} — Constraint Lens`;
    this.renderDiagnostics();
    if (this.report) {
      E.footer.textContent = `Constraint Lens report${m.generator ? ` · ${m.generator}` : ''} · ${m.history.length} steps recorded · matrices embedded for ${m.snapshots?.length ?? 1} step(s)`;
    }
  }

  private renderHeader(): void {
    const m = this.model;
    const s = this.snap;
    if (!m || !s) return;
    const E = this.els;
    const rec = this.record(this.step);
    const t = rec ? rec.t : this.step === s.step ? s.t : this.step * m.dt;
    E.subtitle.textContent = `${s.formulation} formulation · ${s.stabilization} stabilisation · dt = ${fmt(m.dt)} s · ${s.bodies.length} moving bodies, ${s.constraints.length} constraints`;
    clear(E.stats);
    const stat = (label: string, value: string | Node, opts: { cls?: string; title?: string; id?: string } = {}): HTMLElement => {
      const el = h('div', { class: `cl-stat ${opts.cls ?? ''}`.trim(), role: 'listitem', title: opts.title, 'data-stat': opts.id }, h('span', { class: 'cl-stat-label', text: label }), h('span', { class: 'cl-stat-value' }, value));
      E.stats.append(el);
      return el;
    };
    stat('Step', `${this.step} / ${m.history.length}`, { id: 'step', title: 'Shown step / steps taken' });
    stat('Time', fmtTime(t), { id: 'time' });
    const method = rec?.method ?? s.method;
    stat('Method', method, { id: 'method', title: 'Linear solver used for A·λ = rhs' });
    const cond = rec && rec.step !== s.step ? rec.cond.A : s.cond.A;
    const est = rec && rec.step !== s.step ? rec.condEstimated : s.condEstimated;
    const band = condBand(cond);
    const kv = h('span', { class: 'cl-cond' }, h('span', { class: 'cl-cond-num', text: fmtCond(cond, est) }), h('span', { class: `cl-band cl-band-${band}`, text: condBandLabel[band] }));
    stat('κ(A)', kv, { id: 'cond', cls: `cl-stat-cond cl-${band}`, title: `2-norm condition number of A${est ? ' (estimated)' : ''}; Jacobi-scaled κ = ${fmtCond(s.cond.scaled)}. Bands: < 1e2 good, < 1e6 caution, above ill-conditioned, ∞ singular.` });
    const deficient = s.rank.J < s.rank.rows;
    stat('rank J', `${s.rank.J} / ${s.rank.rows} rows`, { id: 'rank', cls: deficient ? 'cl-warn' : '', title: deficient ? `${s.rank.rows - s.rank.J} dependent row(s): see Redundancy` : 'Full row rank' });
    stat('DOFs', String(s.rank.dofs), { id: 'dofs', title: 'Velocity coordinates of the moving bodies (6 per body)' });
    const counts = { error: 0, warning: 0, info: 0 };
    for (const d of m.diagnostics) {
      if (d.severity === 'error') counts.error++;
      else if (d.severity === 'warning') counts.warning++;
      else counts.info++;
    }
    const probs = h(
      'span',
      { class: 'cl-probs' },
      h('span', { class: `cl-prob cl-prob-error ${counts.error ? '' : 'cl-zero'}` }, icon('error'), String(counts.error)),
      h('span', { class: `cl-prob cl-prob-warning ${counts.warning ? '' : 'cl-zero'}` }, icon('warning'), String(counts.warning)),
      h('span', { class: `cl-prob cl-prob-info ${counts.info ? '' : 'cl-zero'}` }, icon('info'), String(counts.info)),
    );
    stat('Problems', probs, { id: 'problems', title: `${counts.error} errors, ${counts.warning} warnings, ${counts.info} infos` });
    E.stats.dataset.step = String(this.step);
    E.stepOut.textContent = `step ${this.step} · ${fmtTime(t)}`;
    const stale = s.step !== this.step;
    E.stepNote.textContent = stale ? (this.report ? `matrices from step ${s.step} (nearest embedded)` : 'loading matrices…') : '';
    E.stepNote.classList.toggle('cl-visible', stale);
  }

  private updateSliderRange(): void {
    const n = this.model?.history.length ?? 0;
    this.slider.max = String(n);
    this.slider.disabled = n === 0;
    this.slider.value = String(Math.min(this.step, n));
    this.slider.setAttribute('aria-valuetext', `step ${this.step} of ${n}`);
  }

  goToStep(k: number, fromHost: boolean): void {
    const m = this.model;
    if (!m) return;
    k = Math.max(0, Math.min(m.history.length, Math.round(k)));
    this.step = k;
    this.follow = k === m.history.length;
    this.slider.value = String(k);
    this.slider.setAttribute('aria-valuetext', `step ${k} of ${m.history.length}`);
    if (this.report) {
      const s = this.reportSnapshotFor(k);
      if (s && s !== this.snap) this.setSnapshot(s);
    } else if (this.snap?.step !== k) {
      if (k === 0 && this.initialSnap) this.setSnapshot(this.initialSnap);
      else this.request(k);
    }
    this.renderHeader();
    this.renderScene();
    for (const c of this.historyCharts) c.updateCursor(k, this.pal.focus);
    if (!fromHost) this.saveState();
    else this.renderHistory();
  }

  private updatePlay(): void {
    const b = this.playBtn;
    if (!b) return;
    b.setAttribute('aria-pressed', String(this.running));
    clear(b);
    b.append(icon(this.running ? 'pause' : 'play'), h('span', { class: 'cl-btn-label', text: this.running ? 'Pause' : 'Play' }));
    b.title = this.running ? 'Pause the simulation' : 'Play the simulation';
  }

  private showBanner(kind: 'warning' | 'error', text: string): void {
    if (!this.built) {
      // No model yet (e.g. the scene cannot be analysed): the message is the whole page.
      clear(this.root);
      this.root.append(h('div', { class: `cl-banner cl-banner-${kind} cl-banner-solo`, role: 'alert' }, icon(kind), h('span', { text })));
      return;
    }
    const b = this.els.banner;
    clear(b);
    b.className = `cl-banner cl-banner-${kind}`;
    b.append(icon(kind), h('span', { text }));
    b.hidden = false;
  }
  private hideBanner(): void {
    if (this.els.banner) this.els.banner.hidden = true;
  }

  // ---- matrices ------------------------------------------------------------------------

  private renderTabs(prevId: string): void {
    const E = this.els;
    clear(E.tabs);
    this.tabs = [];
    let id = prevId;
    if (!this.matrices.some((m) => m.id === id)) id = this.matrices[0]?.id ?? 'J';
    this.state.selectedMatrix = id;
    for (const m of this.matrices) {
      const b = h('button', { type: 'button', role: 'tab', class: 'cl-tab', id: `cl-tab-${m.id}`, 'aria-selected': String(m.id === id), tabindex: m.id === id ? 0 : -1, title: m.description }, h('span', { text: m.name }), h('span', { class: 'cl-tab-dim', text: `${m.rows}×${m.cols}` }));
      b.dataset.matrix = m.id;
      b.addEventListener('click', () => this.showMatrix(m.id, true));
      b.addEventListener('keydown', (e) => {
        const i = this.tabs.indexOf(b);
        let j = -1;
        if (e.key === 'ArrowRight') j = (i + 1) % this.tabs.length;
        else if (e.key === 'ArrowLeft') j = (i - 1 + this.tabs.length) % this.tabs.length;
        else if (e.key === 'Home') j = 0;
        else if (e.key === 'End') j = this.tabs.length - 1;
        if (j < 0) return;
        e.preventDefault();
        this.tabs[j].focus();
        this.showMatrix(this.tabs[j].dataset.matrix!, true);
      });
      this.tabs.push(b);
      E.tabs.append(b);
    }
    this.showMatrix(id, false);
  }

  showMatrix(id: string, user: boolean): void {
    const m = this.matrices.find((x) => x.id === id);
    if (!m) return;
    this.state.selectedMatrix = id;
    for (const t of this.tabs) {
      const on = t.dataset.matrix === id;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
    }
    this.heatmap.el.setAttribute('aria-labelledby', `cl-tab-${id}`);
    this.els.matrixDesc.textContent = m.description;
    this.heatmap.setMatrix(m);
    this.updateHeatmapSelection();
    if (user) this.saveState();
  }

  private toggleLog(): void {
    this.state.logScale = !this.state.logScale;
    this.logBtn.setAttribute('aria-pressed', String(this.state.logScale));
    this.heatmap.setLogScale(this.state.logScale);
    this.saveState();
  }

  private onHeatmapActivate(row: number): void {
    const m = this.heatmap.matrix;
    if (!m?.rowConstraint) return;
    const ci = m.rowConstraint[row];
    if (ci >= 0) this.select(ci, true);
  }

  private updateHeatmapSelection(): void {
    const s = this.snap;
    const m = this.heatmap.matrix;
    const sel: HeatmapSelection = { rows: [], cols: [] };
    const c = s?.constraints[this.selected];
    if (s && m && c) {
      const rowRange: [number, number] = [c.firstRow, c.firstRow + c.rows];
      const bodyCols = (): [number, number][] =>
        [c.bodyA, c.bodyB]
          .map((b) => s.bodyStates.find((x) => x.name === b)?.column ?? s.bodies.indexOf(b) * 6)
          .filter((x) => x !== undefined && x >= 0)
          .map((x) => [x, x + 6] as [number, number]);
      if (m.id === 'J') {
        sel.rows.push(rowRange);
        sel.cols.push(...bodyCols());
      } else if (m.id === 'A' || m.id === 'W') {
        sel.rows.push(rowRange);
        sel.cols.push(rowRange);
      } else if (m.id === 'rowVectors') {
        sel.rows.push(rowRange);
      } else if (m.id === 'Minv' || m.id === 'bodyVectors') {
        for (const r of bodyCols()) {
          sel.rows.push(r);
          if (m.id === 'Minv') sel.cols.push(r);
        }
      }
    }
    this.heatmap.setSelection(sel);
  }

  private async copy(kind: 'csv' | 'numpy'): Promise<void> {
    const m = this.heatmap.matrix;
    if (!m) return;
    const full = m.rows * m.cols <= 250_000;
    const r = full ? { i0: 0, i1: m.rows, j0: 0, j1: m.cols } : this.heatmap.visibleRange();
    const lines: string[] = [];
    const rowsOut = r.i1 - r.i0;
    const colsOut = r.j1 - r.j0;
    if (kind === 'csv') {
      const head = [''];
      for (let j = r.j0; j < r.j1; j++) head.push(csvCell(m.colLabels[j]));
      lines.push(head.join(','));
      for (let i = r.i0; i < r.i1; i++) {
        const row = [csvCell(m.rowLabels[i])];
        for (let j = r.j0; j < r.j1; j++) row.push(fmtExact(entry(m, i, j).value));
        lines.push(row.join(','));
      }
    } else {
      const num = (x: number): string => (Number.isFinite(x) ? fmtExact(x) : Number.isNaN(x) ? 'np.nan' : x > 0 ? 'np.inf' : '-np.inf');
      lines.push(`# ${m.name} rows ${r.i0}..${r.i1 - 1}, cols ${r.j0}..${r.j1 - 1}`);
      lines.push(`# columns: ${Array.from({ length: colsOut }, (_, k) => m.colLabels[r.j0 + k]).join(', ')}`);
      lines.push(`${m.id.replace(/\W/g, '_')} = np.array([`);
      for (let i = r.i0; i < r.i1; i++) {
        const row: string[] = [];
        for (let j = r.j0; j < r.j1; j++) row.push(num(entry(m, i, j).value));
        lines.push(`    [${row.join(', ')}],  # ${m.rowLabels[i]}`);
      }
      lines.push('])');
    }
    const text = lines.join('\n') + '\n';
    const ok = await writeClipboard(text);
    const what = `${rowsOut}×${colsOut}${full ? '' : ' (visible part)'}`;
    this.flashStatus(ok ? `Copied ${m.name} ${what} as ${kind === 'csv' ? 'CSV' : 'NumPy'}` : 'Copy failed: clipboard not available');
  }

  private flashStatus(text: string): void {
    const el = this.els.copyStatus;
    el.textContent = text;
    el.classList.add('cl-visible');
    setTimeout(() => el.classList.remove('cl-visible'), 2500);
  }

  // ---- selection -----------------------------------------------------------------------

  select(i: number, reveal: boolean): void {
    const s = this.snap;
    if (!s) return;
    this.selected = i >= 0 && i < s.constraints.length ? i : -1;
    if (reveal && this.selected >= 0) this.post({ type: 'reveal', constraintIndex: s.constraints[this.selected].fileIndex });
    this.updateHeatmapSelection();
    this.scene.setSelected(this.selected);
    this.renderForces();
    this.renderHistory();
    const c = s.constraints[this.selected];
    if (c) {
      const m = this.heatmap.matrix;
      if (m && (m.id === 'J' || m.id === 'A' || m.id === 'W' || m.id === 'rowVectors')) this.heatmap.reveal(c.firstRow);
    }
    this.saveState();
  }

  // ---- forces --------------------------------------------------------------------------

  private renderForces(): void {
    const s = this.snap;
    if (!s) return;
    const E = this.els;
    const red = new Set<number>();
    for (const m of this.matrices) for (const r of m.redundantRows ?? []) red.add(r);
    this.lambda.update(s, this.pal, this.selected, red);
    E.lambdaNote.textContent = s.lambda.length > 600 ? `λ per row (first 600 of ${s.lambda.length}); the λ column of the vectors view shows all.` : `λ per constraint row at step ${s.step}. Click a bar or a row to select the constraint and reveal it in the scene file.`;
    const wrap = E.forceTable;
    clear(wrap);
    const table = h('table', { class: 'cl-table' });
    table.append(
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['Constraint', 'Type', 'Bodies', 'λ', 'Force on B', 'Torque on B', '‖C‖', 'Status'].map((t, k) => h('th', { scope: 'col', class: k >= 3 && k <= 6 ? 'cl-num' : '', text: t })),
        ),
      ),
    );
    const tb = h('tbody');
    const limit = Math.min(s.constraints.length, 300);
    for (let ci = 0; ci < limit; ci++) {
      const c = s.constraints[ci];
      const nameBtn = h('button', { type: 'button', class: 'cl-link', title: `Select ${c.name} and reveal it in the scene file`, text: c.name });
      nameBtn.addEventListener('click', () => this.select(ci, true));
      const tr = h(
        'tr',
        { class: ci === this.selected ? 'cl-selected' : '', 'data-constraint': ci },
        h('th', { scope: 'row' }, nameBtn),
        h('td', { text: c.type }),
        h('td', { class: 'cl-bodies', text: `${c.bodyA} → ${c.bodyB}` }),
        h('td', { class: 'cl-num cl-mono', title: c.lambda.map((x) => fmtExact(x)).join(', '), text: c.lambda.length === 1 ? fmt(c.lambda[0]) : `‖${fmt(Math.hypot(...c.lambda))}‖` }),
        h('td', { class: 'cl-num cl-mono', title: `on A: ${fmtVec(c.forceA)} (|F| = ${fmt(norm3(c.forceA))})`, text: fmtVec(c.forceB) }),
        h('td', { class: 'cl-num cl-mono', title: `on A: ${fmtVec(c.torqueA)}`, text: fmtVec(c.torqueB) }),
        h('td', { class: 'cl-num cl-mono', text: fmt(c.violation, 3) }),
        h('td', {}, h('span', { class: `cl-status cl-status-${c.status}`, text: c.status })),
      );
      tr.addEventListener('click', (e) => {
        if ((e.target as HTMLElement).closest('button')) return;
        this.select(ci, true);
      });
      tb.append(tr);
    }
    table.append(tb);
    wrap.append(table);
    if (s.constraints.length > limit) wrap.append(h('p', { class: 'cl-desc', text: `Showing ${limit} of ${s.constraints.length} constraints.` }));
  }

  // ---- spectrum & redundancy ----------------------------------------------------------

  private renderSpectrum(): void {
    const s = this.snap;
    if (!s) return;
    const E = this.els;
    clear(E.specSummary);
    const kv = (k: string, v: string, cls = ''): void => {
      E.specSummary.append(h('div', { class: `cl-kv-item ${cls}` }, h('span', { class: 'cl-kv-k', text: k }), h('span', { class: 'cl-kv-v', text: v })));
    };
    const sv = s.singularValues;
    kv('κ(A)', fmtCond(s.cond.A, s.condEstimated), `cl-${condBand(s.cond.A)}`);
    kv('κ scaled', fmtCond(s.cond.scaled, s.condEstimated));
    kv('rank A', `${s.rank.J} / ${s.rank.rows}`, s.rank.J < s.rank.rows ? 'cl-warn' : '');
    kv('tolerance', fmt(s.rankTolerance, 3));
    if (sv && sv.length) {
      kv('σ max', fmt(sv[0], 4));
      kv('σ min', fmt(sv[sv.length - 1], 4));
      E.specChartWrap.hidden = false;
      E.specEmpty.hidden = true;
      this.spectrum.update(s, this.pal);
    } else {
      E.specChartWrap.hidden = true;
      E.specEmpty.hidden = false;
      E.specEmpty.textContent = `Singular values were not computed for this step (${s.A.rows} rows${s.condEstimated ? '; κ is an estimate' : ''}).`;
    }
  }

  private renderRedundancy(): void {
    const s = this.snap;
    if (!s) return;
    const E = this.els;
    const body = E.redundancyBody;
    clear(body);
    E.redundancyCard.hidden = s.redundant.length === 0;
    if (!s.redundant.length) return;
    const consistency = s.consistent === null ? '' : s.consistent ? ' The redundancy is consistent: a λ exists but it is not unique (the solver returns the minimum-norm one).' : ' The redundant rows conflict: no λ satisfies all of them.';
    body.append(h('p', { class: 'cl-desc', text: `${s.redundant.length} of ${s.rank.rows} rows depend on earlier rows (rank ${s.rank.J}).${consistency}` }));
    const list = h('ul', { class: 'cl-red-list' });
    const cIndex = (name: string): number => s.constraints.findIndex((c) => c.name === name);
    const link = (name: string, row: number): HTMLElement => {
      const ci = cIndex(name);
      const c = s.constraints[ci];
      const label = s.rows[(c?.firstRow ?? 0) + row]?.label ?? `${name}[${row}]`;
      const b = h('button', { type: 'button', class: 'cl-link cl-mono', text: label, title: `Select ${name}` });
      b.addEventListener('click', () => this.select(ci, true));
      return b;
    };
    for (const r of s.redundant) {
      const terms: (Node | string)[] = [];
      r.dependsOn.forEach((d, k) => {
        const sign = d.coefficient < 0 ? ' − ' : k === 0 ? '' : ' + ';
        terms.push(sign, h('span', { class: 'cl-mono', text: `${fmt(Math.abs(d.coefficient), 4)}·` }), link(d.constraint, d.row));
      });
      const show = (id: string, text: string): HTMLButtonElement =>
        button(text, {
          cls: 'cl-small',
          title: `Show ${text.replace('Show in ', '')} with the row highlighted`,
          onClick: () => {
            this.showMatrix(id, true);
            const ci = cIndex(r.constraint);
            if (ci >= 0) this.select(ci, true);
          },
        });
      list.append(
        h(
          'li',
          { class: 'cl-red-item' },
          h('div', { class: 'cl-red-eq' }, link(r.constraint, r.row), h('span', { class: 'cl-eq', text: ' = ' }), ...(terms.length ? terms : ['0'])),
          h('div', { class: 'cl-red-actions' }, show('J', 'Show in J'), show('A', 'Show in A')),
        ),
      );
    }
    body.append(list);
  }

  // ---- scene -------------------------------------------------------------------------

  private renderScene(): void {
    const m = this.model;
    const s = this.snap;
    if (!m || !s) return;
    const key = `${m.history.length}:${s.step === 0 ? 'init' : ''}`;
    if (key !== this.bodyBoundsKey) {
      this.bodyBoundsKey = key;
      const frames: { p: [number, number, number] }[][] = [];
      const stride = Math.max(1, Math.floor(m.history.length / 400));
      for (let k = 0; k < m.history.length; k += stride) frames.push(frameAt(s, m.history, m.sceneBodies, k + 1).bodies);
      frames.push(frameAt(s, m.history, m.sceneBodies, s.step).bodies);
      const extra = s.constraints.flatMap((c) => [c.anchorAWorld, c.anchorBWorld] as [number, number, number][]);
      this.scene.setBounds(frames, extra);
    }
    const f = frameAt(s, m.history, m.sceneBodies, this.step);
    this.scene.setFrame(f);
    this.scene.setSelected(this.selected);
    const sel = s.constraints[this.selected];
    this.els.sceneNote.textContent = sel
      ? `${sel.name} (${sel.type}) selected · |λ| = ${fmt(Math.hypot(...sel.lambda))} · force on ${sel.bodyB} ${fmtVec(sel.forceB)}`
      : 'Arrows: constraint forces on each end, length ∝ |F|. Click a constraint to select it.';
  }

  // ---- history -------------------------------------------------------------------------

  private renderHistory(): void {
    const m = this.model;
    const s = this.snap;
    if (!m || !s) return;
    const empty = m.history.length === 0;
    this.els.historyEmpty.hidden = !empty;
    const ctx: HistoryContext = { history: m.history, snapshot: s, initial: this.initialSnap, palette: this.pal, selectedConstraint: this.selected };
    for (const c of this.historyCharts) {
      const note = c.update(ctx, this.step);
      this.els[`note-${c.spec.id}`].textContent = note ?? '';
    }
  }

  private renderDiagnostics(): void {
    const m = this.model!;
    const E = this.els;
    clear(E.diagList);
    E.diagCount.textContent = String(m.diagnostics.length);
    if (!m.diagnostics.length) {
      E.diagList.append(h('li', { class: 'cl-empty', text: 'No problems found.' }));
      return;
    }
    const order = { error: 0, warning: 1, information: 2, hint: 3 } as Record<string, number>;
    const sorted = [...m.diagnostics].sort((a, b) => (order[a.severity] ?? 9) - (order[b.severity] ?? 9) || a.range.start.line - b.range.start.line);
    // Collapse identical (code, message) repeats.
    const seen = new Map<string, { d: Diagnostic; n: number }>();
    for (const d of sorted) {
      const k = `${d.code}\u0000${d.message}`;
      const e = seen.get(k);
      if (e) e.n++;
      else seen.set(k, { d, n: 1 });
    }
    for (const { d, n } of seen.values()) {
      const sev = d.severity === 'information' ? 'info' : d.severity;
      const b = h(
        'button',
        { type: 'button', class: `cl-diag cl-diag-${sev}`, title: this.report ? d.message : 'Reveal in the scene file' },
        icon(sev === 'hint' ? 'info' : sev, `cl-icon cl-sev-${sev}`),
        h('span', { class: 'cl-diag-code', text: d.code }),
        h('span', { class: 'cl-diag-msg' }, ...richText(d.message)),
        h('span', { class: 'cl-diag-loc', text: `${n > 1 ? `×${n} · ` : ''}Ln ${d.range.start.line + 1}` }),
      );
      b.setAttribute('aria-label', `${d.severity} ${d.code}: ${d.message}, line ${d.range.start.line + 1}`);
      b.addEventListener('click', () => {
        const data = d.data ?? {};
        const ci = typeof data.constraintIndex === 'number' ? data.constraintIndex : typeof data.fileIndex === 'number' ? data.fileIndex : undefined;
        const bi = typeof data.bodyIndex === 'number' ? data.bodyIndex : undefined;
        this.post({ type: 'reveal', range: d.range, constraintIndex: ci, bodyIndex: bi });
      });
      E.diagList.append(h('li', {}, b));
    }
  }
}

function card(id: string, title: string, tools: HTMLElement[], body: HTMLElement[]): HTMLElement {
  return h(
    'section',
    { class: 'cl-card', id: `cl-${id}`, 'aria-labelledby': `cl-${id}-title` },
    h('div', { class: 'cl-card-head' }, h('h2', { class: 'cl-card-title', id: `cl-${id}-title`, text: title }), h('div', { class: 'cl-card-tools' }, ...tools)),
    h('div', { class: 'cl-card-body' }, ...body),
  );
}

/** Diagnostic messages use `backticks` for code: render them as <code>. */
function richText(s: string): (string | HTMLElement)[] {
  return s.split(/`([^`]*)`/g).map((part, i) => (i % 2 ? h('code', { text: part }) : part));
}

function describe(x: unknown): string {
  try {
    const s = typeof x === 'string' ? x : JSON.stringify(x);
    return (s ?? String(x)).slice(0, 120);
  } catch {
    return String(x);
  }
}

async function writeClipboard(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* fall back */
  }
  const ta = h('textarea', { class: 'cl-clip', 'aria-hidden': 'true', readonly: true });
  ta.value = text;
  document.body.append(ta);
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  ta.remove();
  return ok;
}

// ---- bootstrap ---------------------------------------------------------------------------

function boot(): void {
  const root = document.getElementById('app') ?? document.body;
  const embedded = document.getElementById('cl-model');
  const text = embedded?.textContent?.trim();
  if (text) {
    const app = new App(root, undefined, true);
    try {
      const model = decodeFromJson<unknown>(text);
      if (!isPanelModel(model)) throw new Error('the embedded model is not valid');
      app.setModel(model);
    } catch (e) {
      root.textContent = `Constraint Lens: could not read the embedded report data (${e instanceof Error ? e.message : String(e)}).`;
    }
    return;
  }
  let vscode: VsCodeApi | undefined;
  try {
    vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined;
  } catch {
    vscode = undefined;
  }
  const app = new App(root, vscode, false);
  window.addEventListener('message', (e: MessageEvent) => app.onMessage(e.data));
  window.addEventListener('error', (e) => vscode?.postMessage({ type: 'log', level: 'error', message: `webview error: ${e.message} (${e.filename}:${e.lineno})` }));
  if (!vscode) {
    root.textContent = 'Constraint Lens: no data (open a *.scene.json file and run “Constraint Lens: Open Inspector”).';
    return;
  }
  vscode.postMessage({ type: 'ready' });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot);
else boot();
