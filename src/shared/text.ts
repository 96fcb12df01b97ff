// Untrusted text (names from scene files, file paths) made safe to print: control characters and
// bidirectional overrides become visible escapes, so a scene cannot clear the terminal, retitle
// the window or reorder what is displayed. Pure: no vscode, no DOM, no Node APIs.

/** C0 and C1 controls (ESC, BEL, CSI …), DEL, bidi embeddings/overrides/isolates and marks, line/paragraph separators. */
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/gu;

const escapeOf = (ch: string): string => {
  const c = ch.codePointAt(0)!;
  return c < 0x100 ? `\\x${c.toString(16).toUpperCase().padStart(2, '0')}` : `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
};

/**
 * `s` with every control character (tab and, unless `keepNewlines`, newline included) and every
 * bidi control replaced by a visible escape: ESC → `\x1B`, U+202E → `\u202E`. Printable text,
 * non-Latin scripts and emoji included, is unchanged.
 */
export function safeText(s: string, opts: { keepNewlines?: boolean } = {}): string {
  return s.replace(UNSAFE, (ch) => (ch === '\n' && opts.keepNewlines ? ch : escapeOf(ch)));
}
