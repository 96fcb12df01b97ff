// The HTML over the canvas: toolbar (fit, presets, toggles), legend (what the colours and a
// reference arrow mean, the arrow scale), grid scale, the hover / selection labels (never
// overlapping), a live region for screen readers, and the message shown when WebGL is unavailable.
import { formatNumber } from '../../src/shared';
import { h } from '../dom';
import type { RGB } from '../theme';
import type { ItemState } from './model';
import type { Preset } from './orbit';
import type { ForceMode, LegendInfo } from './describe';
import type { TrailMode } from './trail';
import { css, type Palette3D } from './palette';
import type { ContactState } from './read';

export interface OverlayActions {
  fit(): void;
  preset(p: Preset): void;
  toggleAxes(): void;
  cycleTrail(): void;
  cycleForces(): void;
  /** log10 of the user's arrow scale multiplier. */
  arrowScale(log10: number): void;
}

const STATE_WORDS: [ItemState, string][] = [
  ['ok', 'ok'],
  ['redundant', 'redundant'],
  ['violated', 'violated'],
  ['conflicting', 'conflicting'],
  ['ill-conditioned', 'ill-conditioned'],
  ['unknown', 'unknown'],
];

/** A legend length: one significant digit in scientific notation (`2e4`, `5e-3`) outside [0.01, 1e4), else two digits in fixed notation. */
const fmt = (x: number): string => (x >= 1e4 || x < 1e-2 ? formatNumber(x, 1, { sciBelow: Infinity }) : formatNumber(x, 2, { sciAbove: Infinity }));

export class Overlay {
  readonly toolbar: HTMLDivElement;
  readonly legend: HTMLDivElement;
  readonly scale: HTMLDivElement;
  readonly live: HTMLDivElement;
  private readonly hoverLabel: HTMLDivElement;
  private readonly selLabel: HTMLDivElement;
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private readonly range: HTMLInputElement;

  constructor(
    private readonly root: HTMLElement,
    actions: OverlayActions,
  ) {
    const btn = (key: string, text: string, title: string, fn: () => void, pressed?: boolean): HTMLButtonElement => {
      const b = h('button', { type: 'button', class: 'cl3d-btn', title, text });
      if (pressed !== undefined) b.setAttribute('aria-pressed', String(pressed));
      b.addEventListener('click', fn);
      this.buttons.set(key, b);
      return b;
    };
    this.toolbar = h(
      'div',
      { class: 'cl3d-toolbar', role: 'toolbar', 'aria-label': '3D view' },
      btn('fit', 'Fit', 'Fit the scene (F)', () => actions.fit()),
      h('span', { class: 'cl3d-sep' }),
      btn('XY', 'XY', 'Top view, looking down z (1)', () => actions.preset('XY'), false),
      btn('XZ', 'XZ', 'Front view, looking along y (2)', () => actions.preset('XZ'), false),
      btn('YZ', 'YZ', 'Side view, looking along x (3)', () => actions.preset('YZ'), false),
      btn('persp', '3D', 'Perspective (0)', () => actions.preset('persp'), true),
      h('span', { class: 'cl3d-sep' }),
      btn('axes', 'Axes', 'Body frame axes (A)', () => actions.toggleAxes(), false),
      btn('trail', 'Trail: off', 'Trail of body positions over the run (T)', () => actions.cycleTrail()),
      btn('forces', 'Forces: all', 'Force and torque arrows: all, selected constraint, off (V)', () => actions.cycleForces()),
    );
    this.range = h('input', { type: 'range', class: 'cl3d-range', min: -3, max: 3, step: 0.05, value: 0, 'aria-label': 'Arrow scale', title: 'Arrow scale ([ and ])' });
    this.range.addEventListener('input', () => actions.arrowScale(Number(this.range.value)));
    this.legend = h('div', { class: 'cl3d-panel cl3d-legend', 'aria-label': 'Legend' });
    this.scale = h('div', { class: 'cl3d-panel cl3d-scale' });
    this.hoverLabel = h('div', { class: 'cl3d-label', hidden: true, 'aria-hidden': 'true' });
    this.selLabel = h('div', { class: 'cl3d-label cl3d-label-sel', hidden: true, 'aria-hidden': 'true' });
    this.live = h('div', { class: 'cl3d-sr', role: 'status', 'aria-live': 'polite' });
    root.append(this.toolbar, this.legend, this.scale, this.hoverLabel, this.selLabel, this.live);
  }

  private lastPressed = '';
  private lastScale = '';

  setPressed(preset: Preset | undefined, axes: boolean, trail: TrailMode, forces: ForceMode): void {
    const key = `${preset}|${axes}|${trail}|${forces}`;
    if (key === this.lastPressed) return; // called every frame: touch the DOM only on changes
    this.lastPressed = key;
    for (const p of ['XY', 'XZ', 'YZ', 'persp']) this.buttons.get(p)!.setAttribute('aria-pressed', String(p === preset));
    this.buttons.get('axes')!.setAttribute('aria-pressed', String(axes));
    this.buttons.get('trail')!.textContent = `Trail: ${trail}`;
    this.buttons.get('forces')!.textContent = `Forces: ${forces}`;
  }

  setArrowScale(log10: number): void {
    this.range.value = String(log10);
  }

  setScale(text: string): void {
    if (text === this.lastScale) return;
    this.lastScale = text;
    this.scale.textContent = text;
  }

  /** Rebuilds the legend's rows around the arrow-scale row, which stays (a focused slider keeps its focus). */
  setLegend(pal: Palette3D, info: LegendInfo): void {
    const L = this.legend;
    const scaleRow = this.range.parentElement?.parentElement === L ? this.range.parentElement : h('div', { class: 'cl3d-legend-row' }, h('span', { class: 'cl3d-muted', text: 'arrows' }), this.range);
    for (const el of Array.from(L.children)) if (el !== scaleRow) el.remove();
    if (scaleRow.parentElement !== L) L.append(scaleRow); // moving it would blur the slider
    const row = (...kids: (Node | string)[]): HTMLDivElement => h('div', { class: 'cl3d-legend-row' }, ...kids);
    const sw = (c: RGB, round = false): HTMLSpanElement => {
      const s = h('span', { class: 'cl3d-swatch' });
      s.style.background = css(c);
      if (round) s.style.borderRadius = '50%';
      return s;
    };
    const arrow = (c: RGB, px: number, double: boolean): HTMLSpanElement => {
      const a = h('span', { class: double ? 'cl3d-arrow cl3d-arrow2' : 'cl3d-arrow' });
      a.style.width = `${Math.max(10, Math.round(px) - 5)}px`;
      a.style.background = css(c);
      a.style.color = css(c);
      return a;
    };
    if (info.force) scaleRow.before(row(arrow(info.constraintForces ? pal.force : pal.fg, info.force.px, false), `force ${fmt(info.force.value)} N`));
    if (info.torque) scaleRow.before(row(arrow(pal.torque, info.torque.px, true), `torque ${fmt(info.torque.value)} N·m (about the centre of mass)`));
    const states = STATE_WORDS.filter(([s]) => info.states.has(s));
    if (states.length) L.append(row(...states.flatMap(([s, w]) => [sw(pal.state[s]), `${w} `])));
    if (info.redundantSet) L.append(row(sw(pal.state.redundant, true), 'halo: redundant set'));
    const cs = (['open', 'stick', 'slip'] as ContactState[]).filter((s) => info.contacts.has(s));
    if (cs.length) L.append(row('contacts', ...cs.flatMap((s) => [sw(pal.contact[s], true), `${s} `])));
    if (info.contactArrows) L.append(row(h('span', { class: 'cl3d-muted', text: 'contact arrows: normal and' }), sw(pal.friction), h('span', { class: 'cl3d-muted', text: 'friction force on body A' })));
    if (info.note) L.append(row(h('span', { class: 'cl3d-muted', text: info.note })));
    if (info.belowFloor.length) {
      const names = info.belowFloor.length > 3 ? `${info.belowFloor.slice(0, 3).join(', ')} and ${info.belowFloor.length - 3} more` : info.belowFloor.join(', ');
      L.append(row(sw(pal.state.violated), `below the floor: ${names}`));
    }
  }

  /**
   * Places the selection and hover labels next to their anchor points (CSS pixels in the root):
   * right of the point, else left, above or below, whichever first keeps clear of the toolbar, the
   * legend, the grid scale and (for the hover label) the selection's label; undefined hides a label.
   */
  setLabels(hover: { text: string; x: number; y: number } | undefined, sel: { text: string; x: number; y: number } | undefined): void {
    const W = this.root.clientWidth;
    const H = this.root.clientHeight;
    const rect = (el: HTMLElement): DOMRect => new DOMRect(el.offsetLeft, el.offsetTop, el.offsetWidth, el.offsetHeight);
    const avoid = [this.toolbar, this.legend, this.scale].filter((el) => !el.hidden && el.offsetWidth > 0).map(rect);
    const hits = (a: DOMRect, b: DOMRect): boolean => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const place = (el: HTMLDivElement, l: typeof hover): DOMRect | undefined => {
      el.hidden = !l;
      if (!l) return undefined;
      if (el.textContent !== l.text) el.textContent = l.text;
      const w = el.offsetWidth;
      const hh = el.offsetHeight;
      const at = (x: number, y: number): DOMRect => new DOMRect(Math.max(2, Math.min(W - w - 2, x)), Math.max(2, Math.min(H - hh - 2, y)), w, hh);
      const tries = [at(l.x + 12, l.y - hh / 2), at(l.x - 12 - w, l.y - hh / 2), at(l.x - w / 2, l.y - 12 - hh), at(l.x - w / 2, l.y + 12)];
      const r = tries.find((t) => !avoid.some((o) => hits(t, o))) ?? tries[0];
      el.style.transform = `translate(${Math.round(r.left)}px, ${Math.round(r.top)}px)`;
      avoid.push(r);
      return r;
    };
    place(this.selLabel, sel);
    place(this.hoverLabel, hover && sel && hover.text === sel.text ? undefined : hover);
  }

  announce(text: string): void {
    this.live.textContent = text;
  }

  dispose(): void {
    for (const el of [this.toolbar, this.legend, this.scale, this.hoverLabel, this.selLabel, this.live]) el.remove();
  }
}

/** The clear message shown instead of a blank box when WebGL cannot start. */
export function unavailableMessage(reason: string, lost = false): HTMLDivElement {
  return h(
    'div',
    { class: `cl3d-message${lost ? ' cl3d-message-over' : ''}`, role: 'status' },
    h('p', { text: lost ? 'The 3D scene view lost its WebGL context.' : 'The 3D scene view needs WebGL 2, which is not available here.' }),
    h('p', { class: 'cl3d-muted', text: reason }),
    h('p', { class: 'cl3d-muted', text: 'The matrices, charts and diagnostics do not depend on it. Enabling hardware acceleration (or a software WebGL) brings the view back.' }),
  );
}
