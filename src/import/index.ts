// Bring your own model: MJCF (MuJoCo) and URDF files → the engine's scene, with diagnostics on the XML.
// MuJoCo's own compiler (WebAssembly, loaded on first use) decides what the model means; saxes gives
// the element positions; convert.ts turns the compiled model into maximal coordinates. See docs/import.md.
//   loadModel(path, text, opts)   → ModelParseResult (the scene parser's ParseResult shape, plus `model`)
//   inspectModel(path, text, opts) → the engine's InspectResult for the model
//   isModelFile(path, text)        → whether a file is an MJCF or URDF model
//   exportScene(model)             → the converted scene as *.scene.json text
//   compareWithMujoco(parse, steps) → MuJoCo's run next to ours (the inspector's "MuJoCo" section)
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { Codes, formatNumber, inspectParsed, type Diagnostic, type InspectOptions, type InspectResult } from '../engine';
import { firstOutOfRange } from './sceneRanges';
import { convertModel } from './convert';
import { resolveFiles, type FileAccess } from './files';
import { nodeFileAccess } from './nodeFiles';
import { buildElementMap } from './map';
import { compileModel, loadMujoco, MujocoCrash, release, snapshotModel, stateOf } from './mujoco';
import { checkLimits, checkNumbers } from './precheck';
import { XmlSourceMap } from './sourcemap';
import type { ImportedModel, ModelParseResult } from './model';
import type { ImportedScene } from './types';
import { attr, parseXml, type XmlElement } from './xml';

export type { FileAccess, FileStat } from './files';
export { nodeFileAccess, nodeFileAccessAsync, readRegularFile, readRegularFileSync, UnreadableFile } from './nodeFiles';
export { isModelFile, modelFormatOf, MODEL_HEAD_CHARS } from './kind';
export type { ImportedBody, ImportedScene } from './types';
export type { ImportedModel, ModelParseResult } from './model';
export { exportErrors, exportScene } from './export';
export { compareWithMujoco, type CompareResult, type EqualityComparison } from './compare';

export interface LoadOptions {
  /** Start from this <key> (by name) instead of qpos0 / zero velocity; an unknown name is an error (CL609). */
  keyframe?: string;
  /**
   * Without `keyframe`: start from the <key> of this name when the model has one, else from qpos0
   * (no diagnostic). The extension's `constraintLens.import.keyframe` setting.
   */
  defaultKeyframe?: string;
  /** How to read <include> and asset files; default: node:fs, limited to the model's own folder. */
  files?: FileAccess;
}

/** The workspace of a model opened from the CLI: the current folder if the model is inside it, else the model's folder. */
export function cliWorkspace(path: string): string {
  const cwd = process.cwd();
  const rel = relative(cwd, resolve(path));
  return !rel.startsWith('..') && !isAbsolute(rel) ? cwd : dirname(resolve(path));
}

/** Read, compile and convert an MJCF or URDF model. Never throws: problems are diagnostics on the XML. */
export async function loadModel(path: string, text: string, opts: LoadOptions = {}): Promise<ModelParseResult> {
  const src = typeof text === 'string' ? text : '';
  const doc = parseXml(src);
  const fail = (sm: XmlSourceMap, diagnostics: Diagnostic[]): ModelParseResult => ({ scene: undefined, diagnostics, sourceMap: sm, hasErrors: diagnostics.some((d) => d.severity === 'error') });
  if (doc.errors.length || !doc.root) {
    const sm = new XmlSourceMap(src, doc.root);
    const errs = doc.errors.length ? doc.errors : [{ message: 'The file is empty: a model has a <mujoco> or <robot> root element.', offset: 0 }];
    return fail(sm, errs.map((e) => ({ severity: 'error', code: Codes.xmlSyntax, message: `Malformed XML: ${e.message}`, range: sm.index.range(e.offset, Math.min(src.length, e.offset + 1)) })));
  }
  const root = doc.root;
  const format = root.name === 'mujoco' ? 'mjcf' : root.name === 'robot' ? 'urdf' : undefined;
  if (!format) {
    const sm = new XmlSourceMap(src, root);
    return fail(sm, [{ severity: 'error', code: Codes.notAModel, message: `<${root.name}> is not a model: MuJoCo models have a <mujoco> root element, URDF robots a <robot> root element.`, range: sm.elementRange(root) }]);
  }
  try {
    return await load(path, src, root, format, opts);
  } catch (e) {
    const sm = new XmlSourceMap(src, root);
    return fail(sm, [{ severity: 'error', code: Codes.internalError, message: `Internal error while importing the model: ${e instanceof Error ? e.message : String(e)}. This is a bug in Constraint Lens; please report it with the model file.`, range: sm.elementRange(root) }]);
  }
}

async function load(path: string, src: string, root: XmlElement, format: 'mjcf' | 'urdf', opts: LoadOptions): Promise<ModelParseResult> {
  const access = opts.files ?? nodeFileAccess(dirname(resolve(path)));
  const files = await resolveFiles(path, root, src, access, format === 'urdf');
  const pre = new XmlSourceMap(src, root, files.sources);
  const diagnostics: Diagnostic[] = files.problems.map((p) => pre.toDiagnostic({ severity: 'error', code: p.code ?? Codes.fileRefused, message: p.message, element: p.element }));
  const result = (sm: XmlSourceMap, scene?: ImportedScene, model?: ImportedModel): ModelParseResult => {
    diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
    const out: ModelParseResult = { scene, diagnostics, sourceMap: sm, hasErrors: diagnostics.some((d) => d.severity === 'error'), model };
    if (model) out.notSimulated = model.converted.notSimulated;
    return out;
  };
  if (files.problems.some((p) => p.fatal)) return result(pre);
  // What would crash MuJoCo or make the import unbounded, and every number where it is written.
  const prechecked = [...checkLimits(root, format), ...checkNumbers(root)];
  diagnostics.push(...prechecked.map((i) => pre.toDiagnostic(i)));
  if (prechecked.some((i) => i.severity === 'error')) return result(pre);

  let rt;
  try {
    rt = await loadMujoco();
  } catch (e) {
    diagnostics.push({ severity: 'error', code: Codes.mujocoUnavailable, message: e instanceof Error ? e.message : String(e), range: pre.elementRange(root) });
    return result(pre);
  }
  const mainName = basename(path);
  const vfs = new Map(files.vfs);
  vfs.set(mainName, new TextEncoder().encode(src));
  const vfsFiles = [...vfs].map(([name, data]) => ({ name, data }));
  let compiled = compileModel(rt, mainName, vfsFiles);
  // A crash on an instance that compiled other models before may come from their leftovers (memory
  // grown and fragmented): the model gets one more try on a fresh instance.
  if ('crashed' in compiled && compiled.crashed && rt.uses > 1) {
    rt = await loadMujoco();
    compiled = compileModel(rt, mainName, vfsFiles);
  }
  if ('error' in compiled) {
    diagnostics.push(compiled.crashed ? crashDiagnostic(pre, root, compiled.error) : mujocoDiagnostic(pre, root, compiled.error));
    return result(pre);
  }
  const runtime = rt;
  try {
    const m = snapshotModel(rt, compiled.model);
    let qpos = m.qpos0, qvel = new Array<number>(m.nv).fill(0);
    let ctrl: number[] | undefined, act: number[] | undefined;
    const map = buildElementMap(root, m, format === 'urdf');
    let keyframe = opts.keyframe;
    if (keyframe === undefined && opts.defaultKeyframe && m.keys.some((key) => key.name === opts.defaultKeyframe)) keyframe = opts.defaultKeyframe;
    if (keyframe !== undefined) {
      const k = m.keys.findIndex((key) => key.name === keyframe);
      if (k < 0) {
        const known = m.keys.map((key) => key.name).filter(Boolean);
        const keyframeEl = root.children.find((e) => e.name === 'keyframe');
        diagnostics.push({
          severity: 'error',
          code: Codes.unknownKeyframe,
          message: `No <key> named ${JSON.stringify(keyframe)}${known.length ? ` (keys: ${known.join(', ')})` : ' (the model has no named keys)'}; the initial state is qpos0.`,
          range: pre.elementRange(keyframeEl ?? root),
        });
      } else {
        qpos = m.keys[k].qpos;
        qvel = m.keys[k].qvel;
        ctrl = m.drives.keyCtrl[k];
        act = m.drives.keyAct[k];
      }
    }
    const state = stateOf(rt, compiled.model, qpos, qvel);
    if (ctrl) state.ctrl = ctrl;
    if (act?.length) state.act = act;
    const name = attr(root, format === 'mjcf' ? 'model' : 'name') || m.name || basename(path);
    const converted = convertModel(m, state, map, name);
    const sm = new XmlSourceMap(src, root, files.sources, converted.bodyElements, converted.constraintElements, map.worldbody);
    diagnostics.push(...converted.issues.map((i) => sm.toDiagnostic(i)));
    const used = keyframe !== undefined && m.keys.some((key) => key.name === keyframe) ? keyframe : undefined;
    const nonFinite = firstNonFinite(converted.scene);
    if (nonFinite) {
      diagnostics.push({ severity: 'error', code: Codes.badNumber, message: `MuJoCo's compiled model gives a non-finite value at ${nonFinite}: the model is not converted.`, range: sm.elementRange(root) });
      return result(sm);
    }
    const far = firstOutOfRange(converted.scene);
    if (far) {
      diagnostics.push({ severity: 'error', code: Codes.badNumber, message: `MuJoCo's compiled model gives ${far.at} = ${formatNumber(far.value)}, beyond the range the engine accepts (|x| ≤ ${formatNumber(far.max)}${far.at.endsWith('mass') ? ' kg' : ' m'}): the model is not converted. Check the sizes and densities that give it.`, range: sm.elementRange(root) });
      return result(sm);
    }
    const model: ImportedModel = { path, format, compiled: m, state, keyframe: used, converted, map, vfs, mainName, wasmLoadMs: runtime.loadMs };
    return result(sm, converted.scene, model);
  } catch (e) {
    if (!(e instanceof MujocoCrash)) throw e;
    diagnostics.push(crashDiagnostic(pre, root, e.message));
    return result(pre);
  } finally {
    if (!runtime.retired) release(compiled.model);
  }
}

/** MuJoCo's WebAssembly stopped on this model (the instance is retired: the next model gets a fresh one). */
function crashDiagnostic(sm: XmlSourceMap, root: XmlElement, error: string): Diagnostic {
  return {
    severity: 'error',
    code: Codes.mujocoCrashed,
    message: `MuJoCo's WebAssembly crashed on this model (${error}). The instance was discarded; other models are not affected.`,
    range: sm.elementRange(root),
  };
}

/** The path of the first number of `scene` that is not finite ("bodies[2].position[1]"), or undefined. */
function firstNonFinite(scene: ImportedScene): string | undefined {
  const walk = (v: unknown, at: string): string | undefined => {
    if (typeof v === 'number') return Number.isFinite(v) ? undefined : at;
    if (Array.isArray(v) || ArrayBuffer.isView(v)) {
      const a = v as ArrayLike<unknown>;
      for (let i = 0; i < a.length; i++) {
        const r = walk(a[i], `${at}[${i}]`);
        if (r) return r;
      }
      return undefined;
    }
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const r = walk(x, at ? `${at}.${k}` : k);
        if (r) return r;
      }
    }
    return undefined;
  };
  return walk(scene, '');
}

/** MuJoCo's compile error on the element it names ("Element 'joint', line 4" / "Element name 'a', id 1, line 1"). */
function mujocoDiagnostic(sm: XmlSourceMap, root: XmlElement, error: string): Diagnostic {
  const lineMatch = /line (\d+)/.exec(error);
  const tag = /Element '([^']+)'/.exec(error)?.[1];
  const named = /Element name '([^']*)'/.exec(error)?.[1];
  let range = sm.elementRange(root);
  if (lineMatch) {
    const line = Number(lineMatch[1]) - 1;
    const start = sm.index.lineStart(line), end = line + 1 < sm.index.lineCount ? sm.index.lineStart(line + 1) : sm.index.text.length;
    const candidates: XmlElement[] = [];
    const walk = (e: XmlElement) => {
      if (e.source === 0 && e.start >= start && e.start < end) candidates.push(e);
      e.children.forEach(walk);
    };
    walk(root);
    const hit = candidates.find((e) => (tag && e.name === tag) || (named && attr(e, 'name') === named)) ?? candidates[0];
    range = hit ? sm.elementRange(hit) : sm.index.range(start, end);
  } else if (named) {
    // No line (e.g. URDF): the element with that name.
    let hit: XmlElement | undefined;
    const walk = (e: XmlElement) => {
      if (!hit && e.source === 0 && attr(e, 'name') === named) hit = e;
      e.children.forEach(walk);
    };
    walk(root);
    if (hit) range = sm.elementRange(hit);
  }
  const message = error.replace(/\s*\n\s*/g, ' ').replace(/\s+$/, '');
  return { severity: 'error', code: Codes.mujocoError, message: `MuJoCo: ${message}`, range };
}

/** loadModel, then the engine's analysis of step 0 (the same InspectResult a scene gets). */
export async function inspectModel(path: string, text: string, opts: LoadOptions & InspectOptions = {}): Promise<Omit<InspectResult, 'parse'> & { parse: ModelParseResult }> {
  const parse = await loadModel(path, text, opts);
  const r = inspectParsed(text, parse, opts);
  // The engine's quick fixes edit JSON scene files: never offer them on XML.
  for (const d of r.diagnostics) delete d.fixes;
  return { ...r, parse };
}
