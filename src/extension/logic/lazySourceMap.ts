// A scene's SourceMap built only when something asks for a range. A scene analysed in the worker
// comes back as plain data (its scene and diagnostics); its SourceMap (functions over the JSON tree)
// cannot cross the thread boundary, and parsing the whole text again in the extension host only
// to have one cost 30–60 ms of the host's thread per keystroke on a 100-body scene (profiled in the
// typing e2e test). Most keystrokes need no range at all (the diagnostics carry theirs); the
// CodeLens needs only the root's, which the worker sends. Pure: no vscode.
import { parseScene } from '../../engine';
import type { JsonPath, Range, SourceMap } from '../../engine';

/** What the worker sends of a scene's parse besides its scene and diagnostics. */
export interface SourceMapSeed {
  /** `sourceMap.rangeOf([])`: where the CodeLens goes. */
  rootRange: Range;
}

/**
 * A SourceMap of `text` whose first call of anything but `rangeOf([])` parses the text (once) with
 * `parse` (the engine's parser by default: the same map as `parseScene(text).sourceMap`).
 */
export function lazySourceMap(text: string, seed: SourceMapSeed, parse: (text: string) => SourceMap = (t) => parseScene(t).sourceMap): SourceMap {
  let real: SourceMap | undefined;
  const map = (): SourceMap => (real ??= parse(text));
  return {
    rangeOf: (path: JsonPath) => (Array.isArray(path) && path.length === 0 && !real ? copy(seed.rootRange) : map().rangeOf(path)),
    keyRangeOf: (path: JsonPath) => map().keyRangeOf(path),
    positionAt: (offset: number) => map().positionAt(offset),
    nodeSpan: (path: JsonPath) => map().nodeSpan(path),
    text,
  };
}

const copy = (r: Range): Range => ({ start: { ...r.start }, end: { ...r.end } });
