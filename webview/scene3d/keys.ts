// The view's keyboard: arrows orbit (shift: pan), + / − zoom (orbit.ts); F fits; 1 / 2 / 3 / 0
// are the XY / XZ / YZ / perspective presets; A axes, T trail, V forces, [ and ] the arrow
// scale; Tab / shift+Tab cycle the selection (leaving at either end: no keyboard trap); Escape clears it.
import type { Orbit, Preset } from './orbit';
import type { OverlayActions } from './overlay';

interface KeyActions extends OverlayActions {
  arrowLog(): number;
  /** Clears the selection; false when there was none. */
  clear(): boolean;
  /** Selects the next / previous item; false at the end (focus moves on). */
  cycle(dir: 1 | -1): boolean;
}

const PRESET_KEYS: Record<string, Preset> = { '1': 'XY', '2': 'XZ', '3': 'YZ', '0': 'persp' };

/** Handles a keydown on the canvas; true (and preventDefault) when it was one of the view's keys. */
export function handleKey(e: KeyboardEvent, orbit: Orbit, a: KeyActions): boolean {
  if (e.altKey || e.ctrlKey || e.metaKey) return false;
  let handled = orbit.key(e);
  if (!handled) {
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    handled = true;
    if (k in PRESET_KEYS) a.preset(PRESET_KEYS[k]);
    else if (k === 'f') a.fit();
    else if (k === 'a') a.toggleAxes();
    else if (k === 't') a.cycleTrail();
    else if (k === 'v') a.cycleForces();
    else if (k === '[') a.arrowScale(a.arrowLog() - 0.1);
    else if (k === ']') a.arrowScale(a.arrowLog() + 0.1);
    else if (k === 'Escape') handled = a.clear();
    else if (k === 'Tab') handled = a.cycle(e.shiftKey ? -1 : 1);
    else handled = false;
  }
  if (handled) e.preventDefault();
  return handled;
}
