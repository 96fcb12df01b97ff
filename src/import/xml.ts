// XML with source positions (saxes): an element tree whose elements and attribute values carry
// offsets into the text, so every diagnostic of an imported model lands on its element. Never
// throws: malformed XML yields the partial tree and positioned errors. No DTD, no entity
// expansion beyond XML's five, no external resources (saxes reads nothing by itself).
import { SaxesParser } from 'saxes';

export interface XmlAttr {
  name: string;
  /** The unescaped value. */
  value: string;
  /** Offset of the attribute name. */
  nameStart: number;
  /** Offsets of the raw value, without its quotes. */
  valueStart: number;
  valueEnd: number;
}

export interface XmlElement {
  name: string;
  attrs: Map<string, XmlAttr>;
  children: XmlElement[];
  parent: XmlElement | undefined;
  /** Offset of '<', end of the name, end of the start tag (after '>'), end of the element. */
  start: number;
  nameEnd: number;
  openEnd: number;
  end: number;
  /** Which source this element comes from (0: the model file; others: included files, see files.ts). */
  source: number;
}

export interface XmlError {
  message: string;
  offset: number;
}

export interface XmlDocument {
  root: XmlElement | undefined;
  errors: XmlError[];
}

/** Limits that keep an untrusted file bounded in time and memory. */
export const XML_LIMITS = { maxChars: 32 * 1024 * 1024, maxElements: 500_000, maxDepth: 1000 };

/** Parse `text` into an element tree (source index `source`). */
export function parseXml(text: string, source = 0): XmlDocument {
  const errors: XmlError[] = [];
  if (text.length > XML_LIMITS.maxChars) {
    return { root: undefined, errors: [{ message: `The file is larger than ${XML_LIMITS.maxChars / 1024 / 1024} MiB.`, offset: 0 }] };
  }
  text = blankForeignDeclaration(text);
  const parser = new SaxesParser({ position: true });
  let root: XmlElement | undefined;
  let current: XmlElement | undefined;
  let pending: XmlElement | undefined;
  let count = 0;
  let depth = 0;
  let stopped = false;
  let lastPos = 0;
  const stop = (message: string) => {
    if (!stopped) errors.push({ message, offset: parser.position });
    stopped = true;
  };

  parser.on('opentagstart', (tag) => {
    if (stopped) return;
    const at = text.lastIndexOf('<' + tag.name, parser.position);
    const start = at >= 0 ? at : Math.max(0, parser.position - tag.name.length - 2);
    pending = {
      name: tag.name,
      attrs: new Map(),
      children: [],
      parent: current,
      start,
      nameEnd: start + 1 + tag.name.length,
      openEnd: parser.position,
      end: parser.position,
      source,
    };
    lastPos = pending.nameEnd;
  });
  parser.on('attribute', (a) => {
    if (stopped || !pending) return;
    const pos = parser.position;
    const quote = text[pos - 1];
    const valueEnd = pos - 1;
    const valueStart = quote === '"' || quote === "'" ? text.lastIndexOf(quote, valueEnd - 1) + 1 : valueEnd;
    const nameStart = Math.max(lastPos, text.lastIndexOf(a.name, valueStart));
    // A repeated attribute is an error (reported by saxes); the first one wins, as in MuJoCo's parser.
    if (!pending.attrs.has(a.name)) pending.attrs.set(a.name, { name: a.name, value: a.value, nameStart, valueStart, valueEnd });
    lastPos = pos;
  });
  parser.on('opentag', () => {
    if (stopped || !pending) return;
    const el = pending;
    pending = undefined;
    el.openEnd = parser.position;
    el.end = parser.position;
    if (++count > XML_LIMITS.maxElements) return stop(`More than ${XML_LIMITS.maxElements} elements: the file is too large to import.`);
    if (current) current.children.push(el);
    else if (!root) root = el;
    current = el;
    if (++depth > XML_LIMITS.maxDepth) stop(`Elements are nested more than ${XML_LIMITS.maxDepth} deep.`);
  });
  parser.on('closetag', () => {
    if (stopped || !current) return;
    current.end = parser.position;
    current = current.parent;
    depth--;
  });
  parser.on('error', (e) => {
    if (stopped) return;
    // saxes prefixes "line:column: "; the offset says where.
    errors.push({ message: e.message.replace(/^\d+:\d+:\s*/, ''), offset: Math.min(parser.position, text.length) });
    if (errors.length >= 20) stopped = true;
  });
  try {
    parser.write(text).close();
  } catch (e) {
    errors.push({ message: e instanceof Error ? e.message.replace(/^\d+:\d+:\s*/, '') : String(e), offset: Math.min(parser.position, text.length) });
  }
  // Unclosed elements end at the end of the text.
  for (let e = current; e; e = e.parent) e.end = Math.max(e.end, text.length);
  return { root, errors };
}

/** The value of an attribute, or undefined. */
export const attr = (el: XmlElement, name: string): string | undefined => el.attrs.get(name)?.value;

/** Direct children with the given name(s). */
export const childrenNamed = (el: XmlElement, ...names: string[]): XmlElement[] => el.children.filter((c) => names.includes(c.name));

/** Every element below `el` in document order (pre-order), `el` excluded. */
export function* descendants(el: XmlElement): Generator<XmlElement> {
  const stack = [...el.children].reverse();
  while (stack.length) {
    const e = stack.pop()!;
    yield e;
    for (let k = e.children.length - 1; k >= 0; k--) stack.push(e.children[k]);
  }
}

/** Offsets → 0-based line/character positions (UTF-16 columns, as VS Code counts them). */
export class LineIndex {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.starts.push(i + 1);
      else if (c === 13 && text.charCodeAt(i + 1) !== 10) this.starts.push(i + 1);
    }
  }
  position(offset: number): { line: number; character: number } {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0, hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }
  range(start: number, end: number): { start: { line: number; character: number }; end: { line: number; character: number } } {
    return { start: this.position(start), end: this.position(Math.max(start, end)) };
  }
  /** Offset of the start of a 0-based line (clamped). */
  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line, this.starts.length - 1))];
  }
  get lineCount(): number {
    return this.starts.length;
  }
}

/**
 * MuJoCo's XML reader (tinyxml2) accepts any version in the XML declaration (`<?xml version="0.0"?>`
 * in some public models); saxes refuses all but 1.x. Such a declaration is replaced by spaces of the
 * same length, so that every offset stays where it was.
 */
function blankForeignDeclaration(text: string): string {
  const m = /^(\uFEFF)?<\?xml\b[^>]*?\bversion\s*=\s*(["'])([^"']*)\2[^>]*?\?>/.exec(text);
  if (!m || /^1\.[0-9]+$/.test(m[3])) return text;
  const start = m[1] ? 1 : 0;
  return text.slice(0, start) + ' '.repeat(m[0].length - start) + text.slice(m[0].length);
}
