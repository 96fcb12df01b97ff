// A scene's SourceMap built only when something asks for a range it was not sent. A scene analysed
// in the worker comes back as plain data (its scene and diagnostics); its SourceMap (functions over
// the JSON tree) cannot cross the thread boundary, and parsing the whole text again in the
// extension host only to have one cost 30–60 ms of the host's thread per keystroke on a 100-body
// scene (profiled in the typing e2e test). The worker sends the ranges the views ask for after
// every analysis (the root's for the CodeLens; each body's and constraint's for the tree's icons,
// the inspector's reveal and the cursor's selection); anything else parses the text, once.
// Pure: no vscode.
import { parseScene } from '../../engine';
import type { JsonPath, Range, SourceMap } from '../../engine';

/** Where one item of the file's `bodies` or `constraints` array is. */
interface ItemSeed {
  /** Its index in the file's array. */
  index: number;
  range: Range;
  offset: number;
  length: number;
}

/** What the worker sends of a scene's SourceMap. */
export interface SourceMapSeed {
  /** `sourceMap.rangeOf([])`: where the CodeLens goes. */
  rootRange: Range;
  /** The `bodies` and `constraints` arrays (`nodeSpan`) and their items the parser kept. */
  groups?: Partial<Record<SeedGroup, { offset: number; length: number; items: ItemSeed[] }>>;
}

type SeedGroup = 'bodies' | 'constraints';
const GROUPS: readonly SeedGroup[] = ['bodies', 'constraints'];

/** The seed of `sm` for the items of `scene` (what the worker sends). */
export function sourceMapSeed(sm: SourceMap, scene: { bodies: readonly { index: number }[]; constraints: readonly { index: number }[] } | undefined): SourceMapSeed {
  const seed: SourceMapSeed = { rootRange: sm.rangeOf([]) };
  if (!scene) return seed;
  seed.groups = {};
  for (const g of GROUPS) {
    const all = sm.nodeSpan([g]);
    if (!all) continue;
    const items: ItemSeed[] = [];
    for (const it of scene[g]) {
      const span = sm.nodeSpan([g, it.index]);
      if (span) items.push({ index: it.index, range: sm.rangeOf([g, it.index]), offset: span.offset, length: span.length });
    }
    seed.groups[g] = { offset: all.offset, length: all.length, items };
  }
  return seed;
}

/**
 * A SourceMap of `text` answering the seeded paths from `seed` and everything else from
 * `parse(text)` (parsed on first need, once; the engine's parser by default: the same map as
 * `parseScene(text).sourceMap`).
 */
export function lazySourceMap(text: string, seed: SourceMapSeed, parse: (text: string) => SourceMap = (t) => parseScene(t).sourceMap): SourceMap {
  let real: SourceMap | undefined;
  const map = (): SourceMap => (real ??= parse(text));
  let items: Map<string, ItemSeed> | undefined;
  /** The seeded item at `path` = [group, index], if any. */
  const item = (path: JsonPath): ItemSeed | undefined => {
    if (path.length !== 2 || typeof path[1] !== 'number') return undefined;
    if (!items) {
      items = new Map();
      for (const g of GROUPS) for (const it of seed.groups?.[g]?.items ?? []) items.set(`${g}/${it.index}`, it);
    }
    return items.get(`${String(path[0])}/${path[1]}`);
  };
  const group = (path: JsonPath) => (path.length === 1 && (path[0] === 'bodies' || path[0] === 'constraints') ? seed.groups?.[path[0]] : undefined);
  return {
    rangeOf: (path: JsonPath) => {
      if (!Array.isArray(path)) return map().rangeOf(path);
      if (path.length === 0) return copyRange(seed.rootRange);
      const it = item(path);
      return it ? copyRange(it.range) : map().rangeOf(path);
    },
    keyRangeOf: (path: JsonPath) => map().keyRangeOf(path),
    positionAt: (offset: number) => map().positionAt(offset),
    nodeSpan: (path: JsonPath) => {
      if (!Array.isArray(path)) return map().nodeSpan(path);
      const span = item(path) ?? group(path);
      return span ? { offset: span.offset, length: span.length } : map().nodeSpan(path);
    },
    text,
  };
}

const copyRange = (r: Range): Range => ({ start: { ...r.start }, end: { ...r.end } });
