// SceneView3D: the WebGL scene view. Bodies, constraints, forces and contacts of a PanelModel at
// a step (recorded poses only), orbit / pan / zoom, presets, picking, labels, theme colours.
// Renders on demand (a camera move or a new step schedules one frame).
import { AmbientLight, DirectionalLight, Scene, WebGLRenderer } from 'three';
import type { PanelModel, StepRecord } from '../../src/protocol';
import { formatNumber } from '../../src/shared';
import { h } from '../dom';
import { onNextFrame } from '../frame';
import { ArrowLayer } from './arrows';
import { BodyLayer } from './bodies';
import { GeometryKit, type Glyphs } from './glyphs';
import { WorldLayer } from './grid';
import { JointLayer } from './joints';
import { extendBounds, frameAt, frameBounds, reboundOnRun, recordsRun, sceneData, type Frame, type RunRecords, type SceneData, type StepSource } from './model';
import { Orbit, type Preset } from './orbit';
import { Overlay, unavailableMessage, type OverlayActions } from './overlay';
import { handleKey } from './keys';
import { createContext } from './context';
import { readPalette3D, type Palette3D } from './palette';
import { pick, project, type Target } from './pick';
import { TrailLayer, type TrailMode } from './trail';
import { describeTarget, legendInfo, glyphUnit, arrowScales, targetLabel, type ForceMode, type Scales } from './describe';
import { divergenceOnsetOf } from './robust';
import { followContact, nextTarget, resolveSelection, sameTarget, targetName, targetPoint, type Selection3D } from './selection';
import type { ContactData } from './read';
export type { Selection3D };
import type { SceneView3DOptions, SelectVia } from './options';
export type { SceneView3DOptions, SelectVia };

export class SceneView3D {
  readonly root: HTMLDivElement;
  readonly canvas: HTMLCanvasElement;
  /** False when WebGL 2 could not start (the view shows a message instead). */
  readonly available: boolean;
  onSelect?: (sel: Selection3D, via: SelectVia) => void;
  /** Milliseconds from the constructor to the end of the first frame with a model. */
  firstPaintMs: number | undefined;
  /** The WebGL renderer in use (software = no GPU) and whether it multisamples. */
  glInfo: { renderer: string; software: boolean; antialias: boolean } = { renderer: '', software: false, antialias: false };
  private readonly t0 = performance.now();
  private renderer?: WebGLRenderer;
  private readonly scene = new Scene();
  private readonly kit = new GeometryKit();
  private readonly world = new WorldLayer(this.kit);
  private readonly bodies = new BodyLayer(this.kit);
  private readonly joints = new JointLayer(this.kit);
  private readonly arrows = new ArrowLayer(this.kit);
  private readonly trail = new TrailLayer();
  private readonly orbit: Orbit;
  private readonly overlay?: Overlay;
  private pal!: Palette3D;
  private model?: PanelModel;
  /** The run drawn: the model's history, or what setModel / setHistory were given. */
  private run: RunRecords = recordsRun([]);
  private data?: SceneData;
  private frame?: Frame;
  private step = 0;
  private unit = 0.01;
  private scales: Scales = { force: 1, torque: 1, maxArrow: 1, maxForce: 0, maxTorque: 0, floor: { force: 0, torque: 0 } };
  private arrowLog = 0;
  private trailMode: TrailMode;
  private forceMode: ForceMode;
  /** Forces mode not given: all arrows for small scenes, the selected constraint's above 150 constraints. */
  private forceAuto: boolean;
  private sel: Target | undefined;
  /** The selected contact as last seen: followed (same pair, nearest point) when the step changes. */
  private selContact?: ContactData;
  private hover: Target | undefined;
  private cancelRender: (() => void) | undefined;
  private hoverRaf = 0;
  private hoverAt: [number, number] = [0, 0]; // one pick a frame, at the pointer's latest position: a move while it is pending is not lost
  private legendKey = '';
  private readonly cleanups: (() => void)[] = [];
  private lost?: HTMLDivElement;
  /** The camera moved since the last fit (the user orbited, panned or zoomed): no automatic fit then. */
  private moved = false;
  private fitting = false;
  /** The run's divergence onset (Fit frames the steps before it and the step shown). */
  private onset?: number;

  constructor(container: HTMLElement, opts: SceneView3DOptions = {}) {
    this.onSelect = opts.onSelect;
    this.trailMode = opts.trail ?? 'off';
    this.forceMode = opts.forces ?? 'all';
    this.forceAuto = opts.forces === undefined;
    this.bodies.showAxes = !!opts.axes;
    this.root = h('div', { class: 'cl3d' });
    container.append(this.root);
    this.orbit = new Orbit(() => {
      if (!this.fitting) this.moved = true;
      this.invalidate();
    });
    const ctx = createContext(opts.antialias);
    if ('reason' in ctx) {
      this.canvas = document.createElement('canvas');
      this.available = false;
      this.root.append(unavailableMessage(ctx.reason));
      return;
    }
    this.canvas = ctx.canvas;
    this.glInfo = { renderer: ctx.renderer, software: ctx.software, antialias: ctx.antialias };
    try {
      this.renderer = new WebGLRenderer({ canvas: this.canvas, context: ctx.gl, antialias: ctx.antialias });
    } catch (e) {
      this.root.append(unavailableMessage(`WebGL failed to start: ${e instanceof Error ? e.message : String(e)}`));
    }
    this.available = !!this.renderer;
    if (!this.renderer) return;
    this.renderer.setPixelRatio(Math.min(2, window.devicePixelRatio || 1));
    this.root.append(this.canvas);
    this.overlay = new Overlay(this.root, this.actions());
    this.scene.add(this.world.group, this.trail.group, this.bodies.group, this.joints.group, this.arrows.group);
    this.scene.add(new AmbientLight(0xffffff, 1.1));
    const sun = new DirectionalLight(0xffffff, 1.9);
    sun.position.set(0.35, 0.6, 1);
    // The light follows the camera (a headlight, slightly above and to the left).
    this.orbit.persp.add(sun);
    const sun2 = sun.clone();
    this.orbit.ortho.add(sun2);
    this.scene.add(this.orbit.persp, this.orbit.ortho);
    this.orbit.attach(this.canvas);
    this.setTheme();
    this.orbit.setPreset(opts.preset ?? 'persp');
    this.listen();
    const ro = new ResizeObserver(() => this.resize());
    ro.observe(this.root);
    this.cleanups.push(() => ro.disconnect());
    this.resize();
  }

  private on<K extends keyof HTMLElementEventMap>(el: HTMLElement, type: K, fn: (e: HTMLElementEventMap[K]) => void): void {
    el.addEventListener(type, fn);
    this.cleanups.push(() => el.removeEventListener(type, fn));
  }

  private onGl(type: 'webglcontextlost' | 'webglcontextrestored', fn: (e: Event) => void): void {
    this.canvas.addEventListener(type, fn);
    this.cleanups.push(() => this.canvas.removeEventListener(type, fn));
  }

  private listen(): void {
    const c = this.canvas;
    this.on(c, 'click', (e) => {
      if (this.orbit.lastDrag >= 4 || !this.data || !this.frame) return;
      const t = this.pickAt(e);
      if (t) this.userSelect(t, 'pointer');
    });
    this.on(c, 'pointermove', (e) => {
      if (e.buttons) return;
      const r = c.getBoundingClientRect();
      this.hoverAt = [e.clientX - r.left, e.clientY - r.top];
      if (this.hoverRaf) return;
      this.hoverRaf = requestAnimationFrame(() => {
        this.hoverRaf = 0;
        if (!this.data || !this.frame) return;
        this.setHover(pick(this.orbit.camera, this.pickables(), this.data, this.frame, this.hoverAt[0], this.hoverAt[1], c.clientWidth, c.clientHeight));
      });
    });
    this.on(c, 'pointerleave', () => this.setHover(undefined));
    this.on(c, 'keydown', (e) =>
      handleKey(e, this.orbit, {
        ...this.actions(),
        arrowLog: () => this.arrowLog,
        clear: () => {
          if (!this.sel && !this.selContact) return false;
          this.setSel(undefined);
          this.refreshLook();
          this.onSelect?.({}, 'keyboard');
          return true;
        },
        cycle: (dir) => this.cycle(dir),
      }),
    );
    this.on(c, 'focus', () => this.invalidate());
    this.onGl('webglcontextlost', (e) => {
      e.preventDefault();
      this.lost ??= unavailableMessage('The GPU took the WebGL context away (too many contexts, a driver reset or sleep). The view comes back when it is restored.', true);
      this.root.append(this.lost);
    });
    this.onGl('webglcontextrestored', () => {
      this.lost?.remove();
      this.lost = undefined;
      this.rebuild();
    });
  }

  private actions(): OverlayActions {
    return {
      fit: () => this.fit(),
      preset: (p) => this.setPreset(p),
      toggleAxes: () => this.setAxes(!this.bodies.showAxes),
      cycleTrail: () => this.setTrail(this.trailMode === 'off' ? 'all' : this.trailMode === 'all' ? 'selected' : 'off'),
      cycleForces: () => this.setForces(this.forceMode === 'all' ? 'selected' : this.forceMode === 'selected' ? 'off' : 'all'),
      arrowScale: (l) => this.setArrowScale(l),
    };
  }

  private pickables(): Glyphs[] {
    return [...this.arrows.pickables, ...this.bodies.pickables, ...this.joints.pickables];
  }

  private pickAt(e: MouseEvent): Target | undefined {
    const r = this.canvas.getBoundingClientRect();
    return pick(this.orbit.camera, this.pickables(), this.data!, this.frame!, e.clientX - r.left, e.clientY - r.top, this.canvas.clientWidth, this.canvas.clientHeight);
  }

  /** Tab order: bodies, constraints, then the step's contacts. Leaving the end lets focus move on (no keyboard trap). */
  private cycle(dir: 1 | -1): boolean {
    const next = this.data && this.frame ? nextTarget(this.data, this.frame, this.sel, dir) : undefined;
    if (next) this.userSelect(next, 'keyboard');
    return !!next;
  }

  private setSel(t: Target | undefined): void {
    this.sel = t;
    this.selContact = t?.kind === 'contact' ? this.frame?.contacts[t.index] : undefined;
  }

  private userSelect(t: Target, via: SelectVia): void {
    this.setSel(t);
    this.refreshLook();
    this.onSelect?.(this.selection, via);
  }

  private setHover(t: Target | undefined): void {
    if (sameTarget(t, this.hover)) return;
    this.hover = t;
    this.canvas.classList.toggle('cl3d-pointer', !!t);
    this.refreshLook();
  }

  /**
   * Shows the scene of a model: the step of its snapshot, the camera fitted (kept when the same
   * scene comes back). `run`: its records when they are not the model's history (the panel's columns).
   */
  setModel(model: PanelModel, run: RunRecords = recordsRun(model.history)): void {
    const prev = this.data;
    const same = !!prev && this.model?.sceneName === model.sceneName && prev.bodies.map((b) => b.name).join('\n') === model.sceneBodies.map((b) => b.name).join('\n');
    const selName = this.sel && prev && this.sel.kind !== 'contact' ? (this.sel.kind === 'body' ? prev.bodies[this.sel.index]?.name : prev.constraints[this.sel.index]?.name) : undefined;
    this.model = model;
    this.run = run;
    this.onset = divergenceOnsetOf(model.diagnostics ?? []);
    this.data = sceneData(model, run);
    this.setSel(undefined);
    this.hover = undefined;
    const f0 = frameAt(model, this.data, run.length > 0 ? 1 : model.snapshot.step, undefined, run);
    this.unit = glyphUnit(this.data, f0);
    this.scales = arrowScales(model, this.data, f0, this.arrowLog, run);
    this.step = same ? Math.min(this.step, run.length) : model.snapshot.step;
    if (this.forceAuto && !same) this.forceMode = this.data.constraints.length > 150 ? 'selected' : 'all';
    this.rebuild();
    if (selName) this.select(this.data.bodyIndex.has(selName) ? { body: selName } : { constraint: selName });
    if (!same) {
      this.drawOverlay(); // the legend of this scene first: the fit keeps clear of it
      this.fit();
    }
    this.canvas.setAttribute('aria-label', `3D scene view of ${model.sceneName}: ${this.data.bodies.length} bodies, ${this.data.constraints.length} constraints. Arrow keys orbit, + and − zoom, F fits, 1 2 3 0 change the view, Tab selects.`);
    if (this.renderer) this.renderNow();
  }

  private rebuild(): void {
    if (!this.model || !this.data || !this.renderer) return;
    this.world.build(this.data, this.pal, this.unit);
    this.trail.recolor(this.pal);
    this.trail.build(this.run, this.data, this.trailMode, this.sel?.kind === 'body' ? this.sel.index : -1);
    this.setStep(this.step);
  }

  /**
   * A longer (or reset) run of the same scene: new records, same camera and glyph sizes (cheaper
   * than setModel while a run plays; the bounds that F fits grow with the new poses). `history`:
   * records, or the panel's columns read in place. Redraws step `k` (default: the current one).
   */
  setHistory(history: readonly StepRecord[] | RunRecords, k = this.step): void {
    if (!this.model || !this.data) return;
    const run = isRecords(history) ? recordsRun(history) : history;
    const before = this.run.length;
    this.run = run;
    if (before === 0 && run.length > 0) this.unit = glyphUnit(reboundOnRun(this.data, run), frameAt(this.model, this.data, 1, undefined, run));
    else if (run.length > before) extendBounds(this.data, run, before + 1, run.length);
    // The first records of a run (a model comes before its streamed history): the grid and an
    // untouched camera take in what they cover.
    const first = before === 0 && run.length > 0 && !this.moved;
    if (first && this.renderer) this.world.build(this.data, this.pal, this.unit);
    if (this.trailMode !== 'off') this.trail.build(run, this.data, this.trailMode, this.sel?.kind === 'body' ? this.sel.index : -1);
    this.setStep(k);
    if (first) this.fit();
  }

  /** Draws step k: the recorded poses (and the forces when `src` or the model has that step's snapshot). */
  setStep(k: number, src?: StepSource): void {
    if (!this.model || !this.data) return;
    this.step = Math.max(0, Math.floor(k));
    this.frame = frameAt(this.model, this.data, this.step, src, this.run);
    this.scales = arrowScales(this.model, this.data, this.frame, this.arrowLog, this.run);
    // Contacts are renumbered every step: the selected one follows its pair, a hovered one is dropped.
    if (this.hover?.kind === 'contact') this.hover = undefined;
    if (this.selContact) {
      const i = followContact(this.data, this.frame, this.selContact);
      this.sel = i >= 0 ? { kind: 'contact', index: i } : undefined;
      if (i >= 0) this.selContact = this.frame.contacts[i];
    }
    if (!this.renderer) return;
    this.bodies.update(this.data, this.frame, this.pal, this.bodyLook(), this.unit);
    this.joints.update(this.data, this.frame, this.pal, this.jointLook(), this.unit);
    this.updateArrows();
    this.trail.setStep(this.step);
    this.legendKey = '';
    this.invalidate();
  }

  /** Selects a body, a constraint or a contact of the shown step by name (from the tree, the editor, the matrices, the contacts card): no onSelect. */
  select(sel: Selection3D): void {
    this.setSel(this.data && this.frame ? resolveSelection(this.data, this.frame, sel) : undefined);
    this.refreshLook();
  }

  get selection(): Selection3D {
    if (!this.sel || !this.data || !this.frame) return {};
    const name = targetName(this.data, this.frame, this.sel);
    return this.sel.kind === 'body' ? { body: name } : this.sel.kind === 'constraint' ? { constraint: name } : { contact: name };
  }

  /** One line about the selection at the shown step (what its label says); '' when nothing is selected. */
  get selectionText(): string {
    return this.sel && this.data && this.frame ? describeTarget(this.data, this.frame, this.sel) : '';
  }

  private updateArrows(): void {
    const look = { selected: this.sel?.kind === 'contact' ? this.sel.index : -1, hovered: this.hover?.kind === 'contact' ? this.hover.index : -1 };
    this.arrows.update(this.data!, this.frame!, this.pal, this.unit, this.scales, this.forceMode, this.sel?.kind === 'constraint' ? this.sel.index : -1, look);
  }

  private bodyLook(): { selected: number; hovered: number; involved: Set<number>; asleep: Set<number> } {
    const involved = new Set<number>();
    if (this.sel?.kind === 'constraint' && this.data) {
      const c = this.data.constraints[this.sel.index];
      involved.add(c.a).add(c.b);
    }
    return { selected: this.sel?.kind === 'body' ? this.sel.index : -1, hovered: this.hover?.kind === 'body' ? this.hover.index : -1, involved, asleep: this.frame?.asleep ?? new Set() };
  }

  private jointLook(): { selected: number; hovered: number } {
    return { selected: this.sel?.kind === 'constraint' ? this.sel.index : -1, hovered: this.hover?.kind === 'constraint' ? this.hover.index : -1 };
  }

  /** Selection or hover changed: recolour (no new matrices), trail and arrows of the selection. */
  private refreshLook(): void {
    if (!this.data || !this.frame || !this.renderer) return;
    this.bodies.recolor(this.data, this.pal, this.bodyLook());
    this.joints.recolor(this.frame, this.pal, this.jointLook());
    if (this.forceMode === 'selected' || this.frame.contacts.length) this.updateArrows();
    if (this.trailMode === 'selected' || this.trail.effective === 'selected') {
      this.trail.build(this.run, this.data, this.trailMode, this.sel?.kind === 'body' ? this.sel.index : -1);
      this.trail.setStep(this.step);
    }
    if (this.sel) this.overlay?.announce(`Selected ${describeTarget(this.data, this.frame, this.sel)}`);
    this.legendKey = '';
    this.invalidate();
  }

  /** Re-reads the colours from the --vscode-* variables (call on theme changes). */
  setTheme(): void {
    if (!this.renderer) return;
    this.pal = readPalette3D(this.root);
    const [r, g, b] = this.pal.bg;
    this.renderer.setClearColor(`rgb(${r},${g},${b})`, 1);
    this.legendKey = '';
    this.rebuild();
    this.invalidate();
  }

  /** Fits the step shown and the scene as set up (never the run's worst step) between the toolbar and the legend. */
  fit(): void {
    if (!this.data) return;
    const o = this.overlay;
    const bottom = o ? Math.max(o.legend.offsetHeight, o.scale.offsetHeight) + 10 : 0;
    this.fitting = true;
    const b = this.frame ? frameBounds(this.data, this.frame.poses, this.run, this.onset) : this.data.bounds;
    this.orbit.fitBox(b.min, b.max, { top: o ? o.toolbar.offsetTop + o.toolbar.offsetHeight : 0, bottom });
    this.fitting = false;
    this.moved = false;
  }

  /** The run's divergence onset became known (the diagnostics of a finished run): an untouched camera fits again. */
  setOnset(onset: number | undefined): void {
    if (onset === this.onset) return;
    this.onset = onset;
    if (!this.moved) this.fit();
  }

  setPreset(p: Preset): void {
    this.orbit.setPreset(p);
    this.fit();
  }

  setAxes(on: boolean): void {
    this.bodies.showAxes = on;
    this.setStep(this.step);
  }

  setTrail(mode: TrailMode): void {
    this.trailMode = mode;
    this.rebuild();
  }

  setForces(mode: ForceMode): void {
    this.forceMode = mode;
    this.forceAuto = false;
    this.setStep(this.step);
  }

  /** Arrow lengths × 10^log10 (the legend's slider). */
  setArrowScale(log10: number): void {
    this.arrowLog = Math.max(-3, Math.min(3, log10));
    this.overlay?.setArrowScale(this.arrowLog);
    if (this.model && this.data && this.frame) this.scales = arrowScales(this.model, this.data, this.frame, this.arrowLog, this.run);
    this.setStep(this.step);
  }

  /** CSS pixel position (in the canvas) of a body's centre, a constraint's anchors' midpoint or a contact's point at the shown step. */
  screenPosition(sel: Selection3D): { x: number; y: number } | undefined {
    const t = this.data && this.frame ? resolveSelection(this.data, this.frame, sel) : undefined;
    const p = t && targetPoint(this.data!, this.frame!, t);
    return p && this.project(p);
  }

  /** CSS pixel position (in the canvas) of a world point; undefined behind the camera. */
  project(p: [number, number, number]): { x: number; y: number } | undefined {
    return project(this.orbit.camera, p, this.canvas.clientWidth, this.canvas.clientHeight);
  }

  private resize(): void {
    if (!this.renderer) return;
    const w = Math.max(1, this.root.clientWidth);
    const hh = Math.max(1, this.root.clientHeight);
    this.renderer.setSize(w, hh, false);
    this.orbit.resize(w, hh);
    this.renderNow();
  }

  invalidate(): void {
    if (this.cancelRender || !this.renderer) return;
    this.cancelRender = onNextFrame(() => {
      this.cancelRender = undefined;
      this.renderNow();
    });
  }

  /** Renders now (synchronously): the canvas holds the frame until the browser composites it. */
  renderNow(): void {
    this.cancelRender = void this.cancelRender?.();
    if (!this.renderer) return;
    this.renderer.render(this.scene, this.orbit.camera);
    if (this.model && this.firstPaintMs === undefined) this.firstPaintMs = performance.now() - this.t0;
    this.drawOverlay();
  }

  private drawOverlay(): void {
    const o = this.overlay;
    if (!o || !this.data || !this.frame) return;
    const W = this.canvas.clientWidth;
    const H = this.canvas.clientHeight;
    const upp = this.orbit.unitsPerPixel;
    const label = (t: Target | undefined): ReturnType<typeof targetLabel> => targetLabel(this.data!, this.frame!, t, (p) => project(this.orbit.camera, p, W, H));
    o.setLabels(label(this.hover), label(this.sel));
    const info = legendInfo(this.data, this.frame, this.scales, upp, this.forceMode, this.sel?.kind === 'constraint' ? this.sel.index : -1);
    const key = JSON.stringify([...info.states, info.redundantSet, [...info.contacts], info.force, info.torque, info.note, info.belowFloor]);
    if (key !== this.legendKey) {
      this.legendKey = key;
      o.setLegend(this.pal, info);
    }
    o.setPressed(this.orbit.preset, this.bodies.showAxes, this.trailMode === 'all' && this.trail.effective === 'selected' ? 'selected' : this.trailMode, this.forceMode);
    o.setScale(`grid ${formatNumber(this.world.step, 3, { sciBelow: 0, sciAbove: Infinity })} m · z up${this.orbit.preset ? ` · ${this.orbit.preset === 'persp' ? '3D' : this.orbit.preset}` : ''}`);
  }

  /** Draw calls and triangles of the last frame (for the bench); the contact arrows as laid out (for tests). */
  get info(): { calls: number; triangles: number; arrows: ArrowLayer['drawn'] } {
    return { calls: this.renderer?.info.render.calls ?? 0, triangles: this.renderer?.info.render.triangles ?? 0, arrows: this.arrows.drawn };
  }

  /** Orbits the camera by an angle (radians); used by keyboard, tests and the bench. */
  orbitBy = (dAz: number, dEl = 0): void => this.orbit.orbit(dAz, dEl);

  dispose(): void {
    this.cancelRender?.();
    if (this.hoverRaf) cancelAnimationFrame(this.hoverRaf);
    for (const f of this.cleanups.splice(0)) f();
    this.orbit.dispose();
    this.overlay?.dispose();
    for (const l of [this.world, this.bodies, this.joints, this.arrows, this.trail]) l.dispose();
    this.kit.dispose();
    this.renderer?.dispose();
    this.renderer?.forceContextLoss();
    this.renderer = undefined;
    this.root.remove();
  }
}

const isRecords = (x: readonly StepRecord[] | RunRecords): x is readonly StepRecord[] => Array.isArray(x);
