// Which documents the extension analyses, and how. Pure: no vscode (util.ts applies it to
// documents), unit-tested in test/unit/extension-filekind.test.ts.
//   *.scene.json                      → 'scene' (the engine's scene parser)
//   *.urdf                            → 'urdf'  (src/import: MuJoCo's URDF compiler)
//   *.xml with a <mujoco> root element → 'mjcf'  (src/import: MuJoCo's MJCF compiler)
// Every other file, other XML included, is left alone: no analysis, no diagnostics, no MuJoCo.
// Only the first MODEL_HEAD_CHARS characters of an .xml document are read to decide (the scan stops at its first element).
import type { InspectResult } from '../../engine';
import { MODEL_HEAD_CHARS, modelFormatOf } from '../../import/kind';
import { isAnalysableScheme, isSceneFileName } from './format';

export type FileKind = 'scene' | 'mjcf' | 'urdf';

export { MODEL_HEAD_CHARS };

/** True for the kinds the importer reads (MJCF and URDF models). */
export const isModelKind = (k: FileKind | undefined): k is 'mjcf' | 'urdf' => k === 'mjcf' || k === 'urdf';

/**
 * The kind of a document, or undefined when the extension leaves it alone. `head` gives the start
 * of the text (at least MODEL_HEAD_CHARS characters when the document is that long); it is called
 * only for .xml files, so a scene or a URDF never costs a read.
 */
export function fileKindOf(uri: { scheme: string; path: string }, head: () => string): FileKind | undefined {
  if (!isAnalysableScheme(uri.scheme)) return undefined;
  if (isSceneFileName(uri.path)) return 'scene';
  if (/\.urdf$/i.test(uri.path)) return 'urdf';
  if (!/\.xml$/i.test(uri.path)) return undefined;
  return modelFormatOf(uri.path, head());
}

/**
 * What a URI can be without reading it: a scene, a URDF, or an .xml that may be an MJCF model
 * (decided once its text is read). Commands use it to refuse other files early.
 */
export function mayBeAnalysed(uri: { scheme: string; path: string }): boolean {
  return isAnalysableScheme(uri.scheme) && (isSceneFileName(uri.path) || /\.(urdf|xml)$/i.test(uri.path));
}

/** True when a path names a model file kind the importer may read (.urdf, .xml): never sent to the worker, never JSON. */
export const isModelPath = (path: string): boolean => /\.(urdf|xml)$/i.test(path);

/**
 * The file name of the scene written by Export as Scene: `arm.urdf` → `arm.scene.json`,
 * `four-bar.xml` → `four-bar.scene.json`.
 */
export function exportedSceneName(fileName: string): string {
  return fileName.replace(/\.(xml|urdf)$/i, '') + '.scene.json';
}

/** The stem of reports and step-data exports: `x.scene.json`, `x.xml`, `x.urdf` → `x`. */
export function exportStem(fileName: string): string {
  return fileName.replace(/(\.scene\.json|\.xml|\.urdf)$/i, '');
}

/**
 * A model's analysis without quick fixes: the engine's fixes are edits of JSON scene text and never
 * apply to XML (the code action provider is registered for *.scene.json only, too).
 */
export function withoutFixes(r: InspectResult): InspectResult {
  const strip = (ds: InspectResult['diagnostics']) => ds.map((d) => (d.fixes ? (({ fixes: _fixes, ...rest }) => rest)(d) : d));
  const diagnostics = strip(r.diagnostics);
  const parse = { ...r.parse, diagnostics: strip(r.parse.diagnostics) };
  return { ...r, parse, diagnostics, ...(r.snapshot ? { snapshot: { ...r.snapshot, diagnostics } } : {}) };
}
