// The engine's SourceMap (JSON paths into a scene) over an imported XML model: a scene body or
// constraint maps to the start tag of the element it came from (<body>, <link>, <joint>, <connect>,
// <weld>, <mimic>, …), its `name` to the name attribute's value and its `type` to the tag name, so
// the engine's own diagnostics (redundancy, conditioning, drift) land on the XML. Elements that came
// from an included file map to the <include> element of the model file, and the engine's diagnostics
// about them name the file and line (`decorate`).
import type { JsonPath, Range, SourceMap } from '../engine';
import type { SourceFile } from './files';
import type { Issue } from './types';
import type { Diagnostic } from '../engine';
import { LineIndex, type XmlElement } from './xml';

export class XmlSourceMap implements SourceMap {
  readonly index: LineIndex;

  constructor(
    text: string,
    readonly root: XmlElement | undefined,
    readonly sources: readonly SourceFile[] = [],
    readonly bodyElements: readonly (XmlElement | undefined)[] = [],
    readonly constraintElements: readonly (XmlElement | undefined)[] = [],
    readonly modelWide?: XmlElement,
  ) {
    this.index = new LineIndex(text);
  }

  /** The element of the model file that stands for `el` (itself, or the <include> that brought it). */
  anchor(el: XmlElement | undefined): XmlElement | undefined {
    if (!el) return this.root;
    return el.source === 0 ? el : (this.sources[el.source]?.via ?? this.root);
  }

  /** The start tag of an element (of the model file). */
  elementRange(el: XmlElement | undefined): Range {
    const a = this.anchor(el);
    return a ? this.index.range(a.start, a.openEnd) : this.index.range(0, 0);
  }

  private elementAt(path: JsonPath): XmlElement | undefined {
    const [kind, i] = path;
    if (kind === 'bodies' && typeof i === 'number') return this.bodyElements[i];
    if (kind === 'constraints' && typeof i === 'number') return this.constraintElements[i];
    return undefined;
  }

  nodeSpan(path: JsonPath): { offset: number; length: number } | undefined {
    const el = this.elementAt(path);
    if (!el || el.source !== 0 || path.length !== 3) return undefined;
    if (path[2] === 'name') {
      const a = el.attrs.get('name');
      return a ? { offset: a.valueStart, length: a.valueEnd - a.valueStart } : undefined;
    }
    if (path[2] === 'type') return { offset: el.start + 1, length: el.nameEnd - el.start - 1 };
    return undefined;
  }

  rangeOf(path: JsonPath): Range {
    const span = this.nodeSpan(path);
    if (span) return this.index.range(span.offset, span.offset + span.length);
    const el = this.elementAt(path);
    if (el) return this.elementRange(el);
    if (path.length > 0 && (path[0] === 'constraints' || path[0] === 'world' || path[0] === 'bodies')) return this.elementRange(this.modelWide ?? this.root);
    return this.elementRange(this.root);
  }

  keyRangeOf(path: JsonPath): Range {
    return this.rangeOf(path);
  }

  positionAt(offset: number): { line: number; character: number } {
    return this.index.position(offset);
  }

  private readonly sourceIndex = new Map<number, LineIndex>();

  /** " (in file.xml, line N)" for an element of an included file, else "". */
  where(el: XmlElement | undefined): string {
    if (!el || el.source === 0 || !this.sources[el.source]) return '';
    const src = this.sources[el.source];
    let idx = this.sourceIndex.get(el.source);
    if (!idx) this.sourceIndex.set(el.source, (idx = new LineIndex(src.text)));
    const name = src.path.split(/[\\/]/).pop();
    return ` (in ${name}, line ${idx.position(el.start).line + 1})`;
  }

  /**
   * An engine diagnostic (analysis, run) whose constraint or body comes from an included file: the
   * file and line in the message, and `data.file` = { path, range } in that file, so that an editor
   * can show it there too (the diagnostic itself stays on the <include> of the model file).
   */
  decorate(d: Diagnostic): void {
    const data = d.data as Record<string, unknown> | undefined;
    if (!data || data.file !== undefined) return;
    const ci = data.constraintIndex, bi = data.bodyIndex;
    const el = typeof ci === 'number' ? this.constraintElements[ci] : typeof bi === 'number' ? this.bodyElements[bi] : undefined;
    const src = el && el.source !== 0 ? this.sources[el.source] : undefined;
    if (!el || !src) return;
    d.message += this.where(el);
    const idx = this.sourceIndex.get(el.source) ?? new LineIndex(src.text);
    this.sourceIndex.set(el.source, idx);
    data.file = { path: src.path, range: idx.range(el.start, el.openEnd) };
  }

  /** An importer issue as a Diagnostic on its element. */
  toDiagnostic(issue: Issue): Diagnostic {
    const a = issue.attr !== undefined && issue.element?.source === 0 ? issue.element.attrs.get(issue.attr) : undefined;
    const range = a ? this.index.range(a.valueStart, a.valueEnd) : this.elementRange(issue.element);
    const d: Diagnostic = { severity: issue.severity, code: issue.code, message: issue.message + this.where(issue.element), range };
    const related = (issue.related ?? []).filter((r) => r.element).map((r) => ({ message: r.message + this.where(r.element), range: this.elementRange(r.element) }));
    if (related.length) d.related = related;
    if (issue.data) d.data = issue.data;
    return d;
  }
}
