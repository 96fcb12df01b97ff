// Minimal text edits on a scene file: change only the text that must change, so that the user's
// layout, comments and line endings around it stay as they were (jsonc-parser's `modify` formats
// the whole array it edits).
import { createScanner, SyntaxKind } from 'jsonc-parser';

/** A span of the text: `length` characters from `offset`. */
export interface Span {
  offset: number;
  length: number;
}

/** Replace `length` characters at `offset` by `content`. */
export interface OffsetEdit extends Span {
  content: string;
}

const isHorizontalSpace = (ch: string | undefined): boolean => ch === ' ' || ch === '\t';

/**
 * Start of the line that holds `offset` when only spaces and tabs come before `offset` on it, else −1.
 * Scans back over those spaces only (a scene on one long line has thousands of elements on it).
 */
function blankLineStart(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && isHorizontalSpace(text[i - 1])) i--;
  return i === 0 || text[i - 1] === '\n' ? i : -1;
}

/** The first token from `offset` that is not whitespace, a line break or a comment. */
function nextToken(text: string, offset: number): { kind: SyntaxKind; offset: number } {
  const sc = createScanner(text, false);
  sc.setPosition(offset);
  for (;;) {
    const kind = sc.scan();
    if (kind === SyntaxKind.Trivia || kind === SyntaxKind.LineBreakTrivia || kind === SyntaxKind.LineCommentTrivia || kind === SyntaxKind.BlockCommentTrivia) continue;
    return { kind, offset: sc.getTokenOffset() };
  }
}

/**
 * When the rest of the line from `offset` holds nothing but spaces and comments (a block comment
 * ends on it): where its line break starts (`eol`) and where the next line starts (`next`; both
 * the text's length at its end). Undefined when anything else follows on the line.
 */
function restOfLine(text: string, offset: number): { eol: number; next: number; comment: boolean } | undefined {
  const sc = createScanner(text, false);
  sc.setPosition(offset);
  let comment = false;
  for (;;) {
    const kind = sc.scan();
    const at = sc.getTokenOffset();
    if (kind === SyntaxKind.Trivia) continue;
    if (kind === SyntaxKind.LineCommentTrivia || (kind === SyntaxKind.BlockCommentTrivia && !/[\r\n]/.test(text.slice(at, at + sc.getTokenLength())))) {
      comment = true;
      continue;
    }
    if (kind === SyntaxKind.LineBreakTrivia) return { eol: at, next: at + sc.getTokenLength(), comment };
    if (kind === SyntaxKind.EOF) return { eol: text.length, next: text.length, comment };
    return undefined;
  }
}

/**
 * The edits that remove one element of a JSON array from `text`: the element's own text and
 * exactly one comma next to it (the one after it, else the one before it), nothing else of its
 * neighbours. When the element has its line(s) to itself, those whole lines go (with a comment
 * that trails it on its last line); otherwise only the element, its comma and the spaces between
 * it and the next element. Comments between elements that are not on the element's own lines stay.
 * `element` and `previous` (the element before it, if any) are spans of the array's elements.
 */
export function removeArrayElementEdits(text: string, element: Span, previous?: Span): OffsetEdit[] {
  const s = element.offset;
  const e = element.offset + element.length;
  const ls = blankLineStart(text, s);
  const ownsStart = ls >= 0;
  const after = nextToken(text, e);
  const remove = (from: number, to: number): OffsetEdit => ({ offset: from, length: to - from, content: '' });

  if (after.kind === SyntaxKind.CommaToken) {
    // `el,` — the comma after it goes with it.
    const c = after.offset + 1;
    const rest = restOfLine(text, c);
    if (ownsStart && rest) return [remove(ls, rest.next)];
    if (rest && !rest.comment) {
      // `…, el,⏎`: nothing of the element's left on the line; drop the spaces before it too.
      let from = s;
      while (from > 0 && isHorizontalSpace(text[from - 1])) from--;
      return [remove(from, rest.eol)];
    }
    let to = c;
    while (isHorizontalSpace(text[to])) to++;
    return [remove(s, to)];
  }

  const rest = restOfLine(text, e);
  const ownLines = ownsStart && rest !== undefined;
  if (!previous) {
    // The only element.
    return [ownLines ? remove(ls, rest.next) : remove(s, e)];
  }
  // The last element: the comma before it goes with it.
  const before = nextToken(text, previous.offset + previous.length);
  if (before.kind !== SyntaxKind.CommaToken || before.offset >= s) return [ownLines ? remove(ls, rest.next) : remove(s, e)];
  const p = before.offset;
  const between = text.slice(p + 1, s);
  if (/^\s*$/.test(between)) {
    // `prev,⏎  el⏎]`: from the comma (and the spaces before it) to the end of the element's text
    // (its trailing comment too when the line is its own); the line break before the bracket stays.
    let from = p;
    while (from > previous.offset + previous.length && isHorizontalSpace(text[from - 1])) from--;
    return [remove(from, ownLines ? rest.eol : e)];
  }
  // Comments between the comma and the element stay: two edits.
  return [remove(p, p + 1), ownLines ? remove(ls, rest.next) : remove(s, e)];
}

/** Apply offset edits to a text (non-overlapping edits, any order). */
export function applyOffsetEdits(text: string, edits: readonly OffsetEdit[]): string {
  let out = text;
  for (const ed of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, ed.offset) + ed.content + out.slice(ed.offset + ed.length);
  return out;
}
