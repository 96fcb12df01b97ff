// The 3D view's options and how a pick was made (types the view, the panel and the report share).
import type { ForceMode } from './describe';
import type { Preset } from './orbit';
import type { Selection3D } from './selection';
import type { TrailMode } from './trail';

/** How the user picked: a click ('pointer') or Tab / Escape ('keyboard'). */
export type SelectVia = 'pointer' | 'keyboard';

export interface SceneView3DOptions {
  /** Called when the user picks a body, a constraint or a contact (click, Tab); `{}` when Escape clears it. */
  onSelect?: (sel: Selection3D, via: SelectVia) => void;
  preset?: Preset;
  trail?: TrailMode;
  forces?: ForceMode;
  axes?: boolean;
  /** Multisampling (default: on, off on a software renderer). */
  antialias?: boolean;
}
