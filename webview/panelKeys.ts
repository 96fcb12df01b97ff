// The panel's keyboard shortcuts for the run: Space plays or pauses, ← and → move one step (with
// Shift ten), Home and End go to the first and the last step. Keys typed into a field, a slider, a
// select, a button (Space presses it) or a canvas with keys of its own (3D view, heatmap) stay theirs.
import type { PanelActions } from './actions';
import type { Store } from './store';
import { runKey } from './runKeys';

/** Elements whose own keys win. */
const OWN_KEYS = 'input, select, textarea, button, [contenteditable], canvas, .cl3d, .cl-heatmap, [role="grid"], [role="listbox"], [role="tab"]';

export function installRunKeys(store: Store, actions: PanelActions, root: Document = document): void {
  root.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target as Element | null;
    if (t && typeof t.closest === 'function' && t.closest(OWN_KEYS)) return;
    const s = store.getState();
    if (!s.model) return;
    const r = runKey(e.key, e.shiftKey, s.step, s.total, s.report);
    if (!r) return;
    e.preventDefault();
    if (r === 'playPause') actions.command('playPause');
    else actions.goToStep(r.goTo);
  });
}
