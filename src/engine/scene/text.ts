// Text helpers for the scene parser: offsets ↔ positions, the SourceMap, text edits for quick
// fixes, and an edit distance for "did you mean" suggestions. Nothing here throws.
import type { Node } from 'jsonc-parser';
import { segmentOf } from '../core/offsets';
import type { Position, Range, TextEdit } from '../types';
import type { JsonPath, SourceMap } from './spec';

/** Line starts of a text; lines end at `\n`, `\r\n` or `\r` (as in VS Code and LSP). */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 13 /* \r */) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.starts.push(i + 1);
      } else if (c === 10 /* \n */) {
        this.starts.push(i + 1);
      }
    }
  }

  positionAt(offset: number): Position {
    const o = Number.isFinite(offset) ? Math.max(0, Math.min(Math.floor(offset), this.text.length)) : 0;
    const lo = segmentOf(this.starts, o, this.starts.length);
    // An offset between \r and \n is the end of its line (before the \r).
    const between = o > 0 && this.text.charCodeAt(o) === 10 && this.text.charCodeAt(o - 1) === 13;
    return { line: lo, character: o - this.starts[lo] - (between ? 1 : 0) };
  }

  offsetAt(p: Position): number {
    if (p.line < 0) return 0;
    if (p.line >= this.starts.length) return this.text.length;
    let end = p.line + 1 < this.starts.length ? this.starts[p.line + 1] : this.text.length;
    if (end > this.starts[p.line] && this.text.charCodeAt(end - 1) === 10) end--;
    if (end > this.starts[p.line] && this.text.charCodeAt(end - 1) === 13) end--;
    return Math.min(this.starts[p.line] + Math.max(0, p.character), end);
  }

  /** Range of [offset, offset + length), clamped to the text. A negative length extends to the end. */
  range(offset: number, length: number): Range {
    const start = Math.max(0, Math.min(offset, this.text.length));
    const end = length < 0 ? this.text.length : Math.max(start, Math.min(offset + length, this.text.length));
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  nodeRange(node: Node): Range {
    return this.range(node.offset, node.length);
  }

  get lineCount(): number {
    return this.starts.length;
  }
}

/** Length of a node, with a node left open by a syntax error (length −1) running to the end of the text. */
function nodeEnd(node: Node, textLength: number): number {
  return node.length < 0 ? textLength : Math.min(node.offset + node.length, textLength);
}

/**
 * The value node of property `key` in `obj`, or its property node. With duplicate keys the last one
 * wins, as in `JSON.parse` and the parser.
 */
export function findProperty(obj: Node, key: string): Node | undefined {
  if (obj.type !== 'object' || !obj.children) return undefined;
  for (let i = obj.children.length - 1; i >= 0; i--) {
    const p = obj.children[i];
    if (p.type === 'property' && p.children && p.children[0]?.value === key) return p;
  }
  return undefined;
}

/** The node at `path` (object keys: last duplicate wins); `undefined` when it does not exist. */
function findNode(root: Node | undefined, path: JsonPath): Node | undefined {
  let node = root;
  for (const seg of path) {
    if (!node) return undefined;
    if (typeof seg === 'number') {
      if (node.type !== 'array' || !node.children || !Number.isInteger(seg) || seg < 0) return undefined;
      node = node.children[seg];
    } else {
      const p = findProperty(node, seg);
      node = p?.children?.[1];
    }
  }
  return node;
}

export function createSourceMap(root: Node | undefined, index: LineIndex): SourceMap {
  const firstChar = (): Range => index.range(0, Math.min(1, index.text.length));
  const nearest = (path: JsonPath): Node | undefined => {
    for (let n = path.length; n >= 0; n--) {
      const node = findNode(root, path.slice(0, n));
      if (node) return node;
    }
    return undefined;
  };
  const rangeOf = (path: JsonPath): Range => {
    const node = Array.isArray(path) ? nearest(path) : undefined;
    return node ? index.nodeRange(node) : firstChar();
  };
  const keyRangeOf = (path: JsonPath): Range => {
    if (Array.isArray(path) && path.length > 0) {
      const last = path[path.length - 1];
      const parent = findNode(root, path.slice(0, -1));
      if (typeof last === 'string' && parent) {
        const key = findProperty(parent, last)?.children?.[0];
        if (key) return index.nodeRange(key);
      }
    }
    return rangeOf(path);
  };
  const positionAt = (offset: number): Position => index.positionAt(offset);
  const nodeSpan = (path: JsonPath): { offset: number; length: number } | undefined => {
    const node = Array.isArray(path) ? findNode(root, path) : undefined;
    return node ? { offset: node.offset, length: nodeEnd(node, index.text.length) - node.offset } : undefined;
  };
  return { rangeOf, keyRangeOf, positionAt, nodeSpan, text: index.text };
}

/**
 * The source map of a text with no JSON tree: every range is the text's first character (or the empty
 * range at 0:0 for an empty text). For scenes built in code rather than parsed, and for results of a
 * parse that failed, so that a `SourceMap` is always present.
 */
export function emptySourceMap(text = ''): SourceMap {
  return createSourceMap(undefined, new LineIndex(text));
}

/** Replace the text of a node. */
export function replaceNodeEdit(index: LineIndex, node: Node, newText: string): TextEdit {
  return { range: index.range(node.offset, nodeEnd(node, index.text.length) - node.offset), newText };
}

/**
 * The edit removing a property node (key and value, with one separating comma): exactly the edit
 * jsonc-parser's `modify(text, path, undefined, {})` computes (test/unit/scene-parse.test.ts checks
 * that they agree), but taken from the node itself: `modify` re-parses the whole document on each
 * call (quadratic with many unknown fields) and with duplicate keys always finds the first one.
 * No formatting is applied: it would reflow one-line objects (the usual style of bodies).
 */
export function removePropertyEdit(index: LineIndex, prop: Node): TextEdit | undefined {
  const text = index.text;
  const parent = prop.parent;
  if (!parent || !parent.children) return undefined;
  const i = parent.children.indexOf(prop);
  if (i < 0) return undefined;
  let begin: number;
  let stop = nodeEnd(prop, text.length);
  if (i > 0) {
    // Remove the comma after the previous property.
    begin = nodeEnd(parent.children[i - 1], text.length);
  } else {
    begin = parent.offset + 1;
    // Remove the comma after this property.
    if (parent.children.length > 1) stop = parent.children[1].offset;
  }
  if (stop < begin) return undefined;
  return { range: index.range(begin, stop - begin), newText: '' };
}

/** Apply non-overlapping edits (for tests and tools). */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const idx = new LineIndex(text);
  const spans = edits
    .map((e) => ({ start: idx.offsetAt(e.range.start), end: idx.offsetAt(e.range.end), text: e.newText }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + s.text + out.slice(s.end);
  return out;
}

/** Optimal-string-alignment edit distance (insert, delete, substitute, swap adjacent). */
function editDistance(a: string, b: string): number {
  const n = a.length;
  const m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  if (Math.abs(n - m) > 32) return Math.abs(n - m);
  let prev2 = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1);
      cur[j] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[m];
}

/**
 * Candidates closest to `word` (case-insensitive distance, then exact distance), at most `max`,
 * keeping only those within `maxDistance`.
 */
export function closest(word: string, candidates: Iterable<string>, maxDistance: number, max = 3): string[] {
  const lw = word.toLowerCase();
  const scored: { c: string; d: number; e: number }[] = [];
  for (const c of new Set(candidates)) {
    if (c === word) continue;
    const d = editDistance(lw, c.toLowerCase());
    if (d <= maxDistance) scored.push({ c, d, e: editDistance(word, c) });
  }
  scored.sort((x, y) => x.d - y.d || x.e - y.e || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0));
  return scored.slice(0, max).map((s) => s.c);
}
