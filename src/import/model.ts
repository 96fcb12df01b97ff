// What loading a model yields: the scene parser's result plus the importer's extras. Its own module
// so that compare.ts (which reads it) and index.ts (which builds it and re-exports compare) do not
// import each other.
import type { ParseResult } from '../engine';
import type { Converted } from './convert';
import type { ElementMap } from './map';
import type { CompiledModel, MujocoState } from './mujoco';
import type { XmlSourceMap } from './sourcemap';
import type { ImportedScene } from './types';

/** Everything compare and export need besides the scene. */
export interface ImportedModel {
  path: string;
  format: 'mjcf' | 'urdf';
  compiled: CompiledModel;
  /** MuJoCo's kinematics at the initial state. */
  state: MujocoState;
  /** The <key> the initial state came from (undefined: qpos0). */
  keyframe?: string;
  converted: Converted;
  /** The XML element of each of MuJoCo's bodies, joints, geoms, equalities and keys. */
  map: ElementMap;
  /** The files MuJoCo compiled the model from (to compile it again for a comparison run). */
  vfs: Map<string, Uint8Array>;
  mainName: string;
  /** How long loading MuJoCo's WebAssembly took in this process (ms, first load). */
  wasmLoadMs: number;
}

export interface ModelParseResult extends ParseResult {
  scene: ImportedScene | undefined;
  sourceMap: XmlSourceMap;
  model?: ImportedModel;
}
