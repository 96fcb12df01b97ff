// The scene card: the orthographic scene view at the shown step (projection XY / XZ / YZ), force
// arrows, and a note on the selected constraint. Clicking selects a constraint or reveals a body.
import type { Projection } from '../../src/protocol';
import { h } from '../dom';
import { formatNumber as fmt, formatVec as fmtVec } from '../../src/shared';
import { SceneView, frameAt } from '../sceneView';
import { poseSource } from '../history';
import { card, type CardContext } from './card';

/** Most history frames sampled for the view's bounds. */
const BOUNDS_FRAMES = 400;

export function createSceneCard({ store, actions }: CardContext): HTMLElement {
  const view = new SceneView({ onConstraint: (i) => actions.select(i, true), onBody: (i) => actions.reveal({ bodyIndex: i }) });
  const proj = h('div', { class: 'cl-segmented', role: 'radiogroup', 'aria-label': 'Projection' });
  const segs = (['XY', 'XZ', 'YZ'] as Projection[]).map((p) => {
    const b = h('button', { type: 'button', class: 'cl-seg', role: 'radio', 'aria-checked': String(store.getState().projection === p), text: p, title: `Project onto the ${p} plane` });
    b.dataset.projection = p;
    b.addEventListener('click', () => actions.setProjection(p));
    proj.append(b);
    return b;
  });
  const note = h('p', { class: 'cl-desc' });
  const cardEl = card('scene', 'Scene', [proj], [view.el, note]);

  store.watch(
    (s) => s.palette,
    (p) => p && view.setPalette(p),
  );
  store.watch(
    (s) => s.projection,
    (p) => {
      for (const b of segs) b.setAttribute('aria-checked', String(b.dataset.projection === p));
      view.setProjection(p);
    },
  );
  // Bounds over the whole run (so scrubbing does not rescale): only when the run or the start changes.
  let boundsKey = '';
  let boundsModel: unknown;
  store.watch(
    (s) => [s.model, s.history, s.snapshot, s.step, s.selected],
    (_, s) => {
      const m = s.model;
      const snap = s.snapshot;
      if (!m || !snap) return;
      const poses = poseSource(s.history);
      const key = `${poses.length}:${snap.step === 0 ? 'init' : ''}`;
      if (key !== boundsKey || m.snapshot !== boundsModel) {
        boundsKey = key;
        boundsModel = m.snapshot;
        const frames: { p: [number, number, number] }[][] = [];
        const stride = Math.max(1, Math.floor(poses.length / BOUNDS_FRAMES));
        for (let k = 0; k < poses.length; k += stride) frames.push(frameAt(snap, poses, m.sceneBodies, k + 1).bodies);
        frames.push(frameAt(snap, poses, m.sceneBodies, snap.step).bodies);
        const extra = snap.constraints.flatMap((c) => [c.anchorAWorld, c.anchorBWorld] as [number, number, number][]);
        view.setBounds(frames, extra);
      }
      view.setFrame(frameAt(snap, poses, m.sceneBodies, s.step));
      cardEl.dataset.step = String(s.step);
      view.setSelected(s.selected);
      const sel = snap.constraints[s.selected];
      note.textContent = sel
        ? `${sel.name} (${sel.type}) selected · |λ| = ${fmt(Math.hypot(...sel.lambda))} · force on ${sel.bodyB} ${fmtVec(sel.forceB)}`
        : 'Arrows: constraint forces on each end, length ∝ |F|. Click a constraint to select it.';
    },
  );
  return cardEl;
}
