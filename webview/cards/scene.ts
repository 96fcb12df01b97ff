// The scene card: the 3D scene view (webview/scene3d) at the shown step. It draws what the store
// holds and never runs the engine: the model's bodies and constraints, the recorded poses of the
// run (the store's history columns, read in place: a growing run goes to setHistory, not a new
// model), the forces of the shown step's snapshot when the panel has it, the state colours, the
// theme. It follows the timeline and Play (the store's step, moved by the snapshot the host pushes
// with the records).
// Selection is the store's: picking in the view selects there (a click also reveals it in the
// scene file and the Explorer tree, as Enter does), and a selection made elsewhere (table,
// heatmap, tree, editor cursor) is highlighted in the view.
import type { PanelModel } from '../../src/protocol';
import { formatNumber as fmt, formatVec as fmtVec, norm3 } from '../../src/shared';
import { afterFirstPaint } from '../defer';
import { h } from '../dom';
import { onPageHide } from '../lifecycle';
import { runRecords } from '../history';
import { loadDeferred, type Deferred } from '../load';
import type { SceneView3D, Selection3D, SelectVia } from '../scene3d';
import type { PanelState } from '../store';
import { divergenceOnset } from '../selectors';
import { card, type CardContext } from './card';

const HINT = 'Drag to orbit, right-drag to pan, wheel to zoom; click a body, a constraint or a contact to select it (a body or constraint is also shown in the scene file; keyboard: Tab selects, Enter shows).';

/** The store's selection as the view names it. */
export function viewSelection(s: PanelState): Selection3D {
  const c = s.snapshot?.constraints[s.selected];
  if (c) return { constraint: c.name };
  return s.selectedBody !== undefined ? { body: s.selectedBody } : {};
}

/** What the line under the view says about the selection at the shown step. */
function describeSelection(s: PanelState): string {
  const snap = s.snapshot;
  const c = snap?.constraints[s.selected];
  if (c && snap) {
    const at = snap.step === s.step ? '' : ` (forces of step ${snap.step})`;
    return `${c.name} (${c.type}) selected · |λ| = ${fmt(Math.hypot(...c.lambda))} · force on ${c.bodyB} ${fmtVec(c.forceB)}${at}`;
  }
  const b = s.selectedBody;
  if (b !== undefined) {
    const acting = snap?.constraints.filter((x) => x.bodyA === b || x.bodyB === b).map((x) => x.name) ?? [];
    const state = snap?.step === s.step ? snap.bodyStates.find((x) => x.name === b) : undefined;
    const speed = state ? ` · |v| = ${fmt(norm3(state.velocity))}` : '';
    return `${b} selected${speed} · ${acting.length ? `constraints: ${acting.join(', ')}` : 'no constraint acts on it'}`;
  }
  return HINT;
}

const sameSelection = (a: Selection3D, b: Selection3D): boolean => a.body === b.body && a.constraint === b.constraint && a.contact === b.contact;

/** The view's element (`.cl3d`) holds the view, for tests and tools (screen positions, pixels). */
type SceneViewElement = HTMLElement & { sceneView?: SceneView3D };

export function createSceneCard({ store, actions }: CardContext): HTMLElement {
  const host = h('div', { class: 'cl-scene3d' });
  const note = h('p', { class: 'cl-desc cl-scene-note' });
  const el = card('scene', 'Scene', [], [host, note]);
  // The view (a WebGL context, three.js, the scene's meshes) is built after the inspector's first
  // paint, not before it: on the first frame with a model it would cost more than the rest of the
  // panel (bench/ui/profile.ts); three.js comes with the deferred parts (load.ts). Until then the
  // watches below only note what to show.
  let view: SceneView3D | undefined;
  const pick = (sel: Selection3D, via: SelectVia): void => {
    const reveal = via === 'pointer';
    if (sel.contact !== undefined) {
      // A contact is the view's own selection (contacts have no row in the tables or the file):
      // the store's constraint or body selection is cleared, the note names the contact.
      actions.select(-1, false);
      note.textContent = `Selected ${view?.selectionText ?? ''}`;
    } else if (sel.constraint !== undefined) {
      const name = sel.constraint;
      const i = store.getState().snapshot?.constraints.findIndex((c) => c.name === name) ?? -1;
      actions.select(i, reveal);
    } else if (sel.body !== undefined) actions.selectBody(sel.body, reveal);
    else actions.select(-1, false);
  };

  // The model given to setModel: a store model with the same scene (only its diagnostics differ)
  // and a new history is the same run grown (or reset), drawn with setHistory (camera, bounds and
  // glyph sizes kept).
  let base: PanelModel | undefined;
  let baseHistory: PanelState['history'] | undefined;
  const showModel = (v: SceneView3D, s: PanelState): void => {
    const m = s.model;
    if (!m) return;
    if (m !== base || s.history !== baseHistory) {
      const same = base !== undefined && m.snapshot === base.snapshot && m.sceneBodies === base.sceneBodies && m.sceneConstraints === base.sceneConstraints;
      if (same) v.setHistory(runRecords(s.history), s.step);
      else v.setModel(m, runRecords(s.history));
      // A finished run's diagnostics may name the divergence onset: Fit then frames the steps before it.
      if (same) v.setOnset(divergenceOnset(s));
      base = m;
      baseHistory = s.history;
      if (!same) v.select(viewSelection(s));
    }
    // The shown step's snapshot (forces, the step's states and redundant set), when the panel has it.
    v.setStep(s.step, s.snapshot && s.snapshot.step === s.step ? s.snapshot : undefined);
    // The step drawn (tests compare it with the header's and the forces').
    el.dataset.step = String(s.step);
  };
  const showSelection = (v: SceneView3D, s: PanelState): void => {
    const want = viewSelection(s);
    // The store has nothing selected while the view holds a contact: the contact stays.
    if (want.body === undefined && want.constraint === undefined && v.selection.contact !== undefined) return;
    if (!sameSelection(want, v.selection)) v.select(want);
  };
  const build = (d: Deferred): void => {
    if (view) return;
    const v = new d.SceneView3D(host, { onSelect: pick });
    view = v;
    // the WebGL context goes with the page (lifecycle.ts)
    onPageHide(() => {
      view = undefined;
      v.dispose();
    });
    (v.root as SceneViewElement).sceneView = v;
    v.canvas.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
      e.preventDefault();
      actions.revealSelection();
    });
    const s = store.getState();
    showModel(v, s);
    showSelection(v, s);
  };
  const schedule = afterFirstPaint(el, () => void loadDeferred().then(build, () => undefined /* reported by loadDeferred */));

  store.watch(
    (s) => [s.model, s.history, s.step, s.snapshot],
    (_, s) => {
      if (!s.model) return;
      if (view) showModel(view, s);
      else schedule();
    },
  );
  store.watch(
    (s) => [s.selected, s.selectedBody, s.snapshot],
    (_, s) => view && showSelection(view, s),
  );
  store.watch(
    (s) => [s.selected, s.selectedBody, s.snapshot, s.step],
    (_, s) => {
      note.textContent = view?.selection.contact !== undefined ? `Selected ${view.selectionText}` : describeSelection(s);
    },
  );
  // The view reads its colours from the page's --vscode-* variables: once the card is in the page
  // (it is built after mounting), and on every theme change.
  store.watch(
    (s) => s.palette,
    () => view?.setTheme(),
  );
  return el;
}
