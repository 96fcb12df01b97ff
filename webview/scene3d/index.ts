// The 3D scene view (the panel's Scene card, docs/extension.md): import SceneView3D from here (the stylesheet is scene3d.css).
export { SceneView3D, type Selection3D, type SceneView3DOptions, type SelectVia } from './view';
export type { Preset } from './orbit';
export type { TrailMode } from './trail';
export type { ForceMode } from './describe';
export type { StepSource } from './model';
