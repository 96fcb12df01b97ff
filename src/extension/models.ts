// MJCF and URDF models in VS Code (docs/import.md, "In VS Code"). A model document is analysed like
// a scene, except that its text goes through the importer's `loadModel` (MuJoCo's compiler, in the
// extension host: it needs the workspace's files) instead of the scene parser. This module gives the
// analyzer that loader — with `<include>` and asset files read through `vscode.workspace.fs`, inside
// the model's workspace folder only — keeps the <key> each model starts from (the "Choose
// Keyframe…" command, else the `constraintLens.import.keyframe` setting), and runs the inspector's
// "MuJoCo" section on request. The importer module is imported on first use, and MuJoCo's
// WebAssembly (dist/mujoco/) is loaded by it only then: opening scenes never loads either.
import { nodeFileAccessAsync } from '../import/nodeFiles';
import * as vscode from 'vscode';
import type { ParseResult } from '../engine';
import type { FileAccess, ModelParseResult } from '../import';
import type { MujocoComparison, MujocoSection } from '../protocol';
import { Disposable } from './dispose';
import { toPanelComparison } from './logic/mujocoSection';
import type { SceneState as AnySceneState } from './logic/sceneStore';
import { errorMessage, keyOf } from './util';

/** The host's scene state: the store's, keyed by URIs (scenes.ts, which imports this module, names the same type). */
type SceneState = AnySceneState<vscode.Uri>;
type Importer = typeof import('../import');

let importer: Promise<Importer> | undefined;
/** The importer module (bundled into dist/extension.js, initialised on first use). */
const loadImporter = (): Promise<Importer> => (importer ??= import('../import'));

/** The model file's parse result with the importer's extras, when the scene state is a converted model. */
export function modelParseOf(s: SceneState | undefined): ModelParseResult | undefined {
  const p = s?.result?.parse as (ParseResult & { model?: unknown }) | undefined;
  return p && 'model' in p && p.model !== undefined ? (p as ModelParseResult) : undefined;
}

export class ModelService extends Disposable {
  /** Per document: the keyframe chosen with "Choose Keyframe…" (null: qpos0 chosen explicitly). */
  private readonly chosen = new Map<string, string | null>();
  private readonly sections = new Map<string, MujocoSection>();
  private readonly sectionEmitter = this._register(new vscode.EventEmitter<{ key: string; section: MujocoSection }>());
  /** A model's MuJoCo section changed. */
  readonly onDidChangeSection = this.sectionEmitter.event;
  /** Load time of MuJoCo's WebAssembly in this extension host (ms), once loaded. */
  wasmLoadMs: number | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly defaultKeyframe: () => string | undefined,
  ) {
    super();
  }

  /** The keyframe option of a model: the one chosen for it, else the setting (used only if the model has that key). */
  keyframeOptions(uri: vscode.Uri): { keyframe?: string; defaultKeyframe?: string } {
    const c = this.chosen.get(keyOf(uri));
    if (c === null) return {};
    if (c !== undefined) return { keyframe: c };
    const d = this.defaultKeyframe();
    return d ? { defaultKeyframe: d } : {};
  }

  /** Start the model from `name` (undefined: qpos0). The caller re-analyses the document. */
  chooseKeyframe(uri: vscode.Uri, name: string | undefined): void {
    this.chosen.set(keyOf(uri), name ?? null);
  }

  /** Load (compile and convert) a model document's text. Never rejects: failures are diagnostics. */
  async load(uri: vscode.Uri, text: string): Promise<ModelParseResult> {
    const m = await loadImporter();
    const path = uri.scheme === 'file' ? uri.fsPath : uri.path;
    const r = await m.loadModel(path, text, { ...this.keyframeOptions(uri), files: workspaceFiles(uri) });
    if (r.model && this.wasmLoadMs === undefined) {
      this.wasmLoadMs = r.model.wasmLoadMs;
      this.log.info(`MuJoCo's WebAssembly loaded in ${r.model.wasmLoadMs.toFixed(0)} ms`);
    }
    return r;
  }

  /** The MuJoCo section of a model (idle until a comparison is asked for); undefined for scenes. */
  section(s: SceneState): MujocoSection | undefined {
    const parse = modelParseOf(s);
    const known = this.sections.get(s.key);
    if (!parse && !known && !/\.(xml|urdf)$/i.test(s.uri.path)) return undefined;
    const keyframes = parse?.model?.compiled.keys.map((k) => k.name).filter((n) => n !== '') ?? [];
    const base: MujocoSection = known ?? { status: 'idle', keyframes };
    return { ...base, keyframes, keyframe: parse?.model?.keyframe };
  }

  /** The model was analysed again: an earlier comparison belongs to the old text or keyframe. */
  modelChanged(s: SceneState): void {
    const prev = this.sections.get(s.key);
    if (!prev || prev.status === 'running') return;
    this.sections.delete(s.key);
    this.fire(s);
  }

  forget(key: string): void {
    this.sections.delete(key);
    this.chosen.delete(key);
  }

  /**
   * Run MuJoCo and the engine side by side on the analysed model for its `solver.steps` steps.
   * Resolves with the section (done or failed).
   */
  async compare(s: SceneState): Promise<MujocoSection | undefined> {
    const parse = modelParseOf(s);
    if (!parse?.scene || !parse.model) return undefined;
    const generation = s.generation;
    this.set(s, { status: 'running', keyframes: [] });
    let section: MujocoSection;
    try {
      const m = await loadImporter();
      // MuJoCo runs synchronously in the extension host: give the 'running' message a chance to go out first.
      await new Promise((res) => setTimeout(res, 0));
      const result = await m.compareWithMujoco(parse, parse.scene.solver.steps);
      const comparison: MujocoComparison = toPanelComparison(result);
      section = { status: 'done', comparison, keyframes: [] };
      this.log.info(
        `compared ${s.fileName} with MuJoCo: ${result.steps} steps, MuJoCo ${result.timing.mujocoMs.toFixed(1)} ms, ours ${result.timing.oursMs.toFixed(1)} ms, WebAssembly load ${result.timing.wasmLoadMs.toFixed(0)} ms`,
      );
    } catch (e) {
      this.log.error(`comparing ${s.fileName} with MuJoCo failed: ${errorMessage(e)}`);
      section = { status: 'failed', error: errorMessage(e), keyframes: [] };
    }
    // A newer analysis meanwhile: the comparison is of the old model.
    if (s.generation !== generation) section = { status: 'idle', keyframes: [] };
    this.set(s, section);
    return this.section(s);
  }

  private set(s: SceneState, section: MujocoSection): void {
    this.sections.set(s.key, section);
    this.fire(s);
  }

  private fire(s: SceneState): void {
    const section = this.section(s);
    if (section) this.sectionEmitter.fire({ key: s.key, section });
  }
}

/**
 * File access for a model's `<include>` and asset files: the workspace folder that holds the model
 * (the model's own folder when it is in none), read through `vscode.workspace.fs`. Local files
 * resolve symbolic links first, so that a link cannot lead outside the folder (files.ts refuses it).
 */
function workspaceFiles(model: vscode.Uri): FileAccess {
  const folder = vscode.workspace.getWorkspaceFolder(model)?.uri ?? vscode.Uri.joinPath(model, '..');
  // Local files: asynchronous reads of regular files only (a FIFO or device named as an include or
  // mesh would block a read forever; a synchronous one would freeze every extension of the window).
  if (model.scheme === 'file') return nodeFileAccessAsync(folder.fsPath);
  const toUri = (p: string): vscode.Uri => model.with({ path: p });
  return {
    workspaceRoot: folder.path,
    readFile: async (p) => {
      try {
        return await withTimeout(Promise.resolve(vscode.workspace.fs.readFile(toUri(p))), REMOTE_READ_MS);
      } catch {
        return undefined;
      }
    },
    stat: async (p) => {
      try {
        const st = await withTimeout(Promise.resolve(vscode.workspace.fs.stat(toUri(p))), REMOTE_READ_MS);
        return st && { regular: (st.type & vscode.FileType.File) !== 0, size: st.size };
      } catch {
        return undefined;
      }
    },
  };
}

/** How long a read of a remote include or asset may take before it counts as unreadable. */
const REMOTE_READ_MS = 20_000;

/** `p`, or undefined after `ms`: a file system that never answers does not stall the analysis. */
function withTimeout<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)));
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
