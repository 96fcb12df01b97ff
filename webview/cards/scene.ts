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
import { h } from '../dom';
import { runRecords } from '../history';
import { SceneView3D, type Selection3D, type SelectVia } from '../scene3d';
import type { PanelState } from '../store';
import { card, type CardContext } from './card';

const HINT = 'Drag to orbit, right-drag to pan, wheel to zoom; click a body or a constraint to select it and show it in the scene file (keyboard: Tab selects, Enter shows).';

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

const sameSelection = (a: Selection3D, b: Selection3D): boolean => a.body === b.body && a.constraint === b.constraint;

/** The view's element (`.cl3d`) holds the view, for tests and tools (screen positions, pixels). */
export type SceneViewElement = HTMLElement & { sceneView?: SceneView3D };

export function createSceneCard({ store, actions }: CardContext): HTMLElement {
  const host = h('div', { class: 'cl-scene3d' });
  const note = h('p', { class: 'cl-desc cl-scene-note' });
  const el = card('scene', 'Scene', [], [host, note]);
  const pick = (sel: Selection3D, via: SelectVia): void => {
    const reveal = via === 'pointer';
    if (sel.constraint !== undefined) {
      const name = sel.constraint;
      const i = store.getState().snapshot?.constraints.findIndex((c) => c.name === name) ?? -1;
      actions.select(i, reveal);
    } else if (sel.body !== undefined) actions.selectBody(sel.body, reveal);
    else actions.select(-1, false);
  };
  const view = new SceneView3D(host, { onSelect: pick });
  (view.root as SceneViewElement).sceneView = view;
  view.canvas.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    e.preventDefault();
    actions.revealSelection();
  });

  // The model given to setModel: a store model with the same scene (only its diagnostics differ)
  // and a new history is the same run grown (or reset), drawn with setHistory (camera, bounds and
  // glyph sizes kept).
  let base: PanelModel | undefined;
  let baseHistory: PanelState['history'] | undefined;
  store.watch(
    (s) => [s.model, s.history, s.step, s.snapshot],
    (_, s) => {
      const m = s.model;
      if (!m) return;
      if (m !== base || s.history !== baseHistory) {
        const same = base !== undefined && m.snapshot === base.snapshot && m.sceneBodies === base.sceneBodies && m.sceneConstraints === base.sceneConstraints;
        if (same) view.setHistory(runRecords(s.history), s.step);
        else view.setModel(m, runRecords(s.history));
        base = m;
        baseHistory = s.history;
        if (!same) view.select(viewSelection(s));
      }
      // The shown step's snapshot (forces, the step's states and redundant set), when the panel has it.
      view.setStep(s.step, s.snapshot && s.snapshot.step === s.step ? s.snapshot : undefined);
      // The step drawn (tests compare it with the header's and the forces').
      el.dataset.step = String(s.step);
    },
  );
  store.watch(
    (s) => [s.selected, s.selectedBody, s.snapshot],
    (_, s) => {
      const want = viewSelection(s);
      if (!sameSelection(want, view.selection)) view.select(want);
    },
  );
  store.watch(
    (s) => [s.selected, s.selectedBody, s.snapshot, s.step],
    (_, s) => {
      note.textContent = describeSelection(s);
    },
  );
  // The view reads its colours from the page's --vscode-* variables: once the card is in the page
  // (the watches start after mounting), and on every theme change.
  store.watch(
    (s) => s.palette,
    () => view.setTheme(),
  );
  return el;
}
