// The input limits checked while reading a scene (src/engine/core/inputLimits.ts): the text length before
// anything is parsed, the number of bodies and constraints (by a streaming count for large texts,
// so a huge scene is refused without building its syntax tree), and `solver.steps`.
import { visit, type Node } from 'jsonc-parser';
import { Codes } from '../core/codes';
import { formatCount, type Limits, raiseHint } from '../core/inputLimits';
import type { Diagnostic, Range } from '../types';

/**
 * Texts longer than this are counted by streaming before their syntax tree is built (only when the
 * text limit was raised past it: the default text limit is the same, and a tree of that size is bounded).
 */
export const PRESCAN_CHARS = 8_000_000;

/** Range of the first line of `text` (at most 200 characters of it): where a file-wide diagnostic goes. */
export function firstLineRange(text: string): Range {
  let end = 0;
  while (end < text.length && end < 200 && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
  return { start: { line: 0, character: 0 }, end: { line: 0, character: Math.max(end, Math.min(1, text.length)) } };
}

/** CL007 when the text is longer than the limit (nothing of it is parsed then). */
export function textLimitDiagnostic(text: string, limits: Limits): Diagnostic | undefined {
  if (text.length <= limits.text) return undefined;
  return {
    severity: 'error',
    code: Codes.fileTooLarge,
    message: `The scene is ${formatCount(text.length)} characters long, above the limit of ${formatCount(limits.text)}: it is not read. Split the scene, or ${raiseHint('text')}.`,
    range: firstLineRange(text),
    data: { limit: 'text', value: text.length, max: limits.text },
  };
}

export type CountedKey = 'bodies' | 'constraints';

/** CL008/CL009 on the first item past the limit. */
export function countLimitDiagnostic(key: CountedKey, count: number | undefined, limits: Limits, range: Range): Diagnostic {
  const max = limits[key];
  const what = key === 'bodies' ? 'bodies' : 'constraints';
  return {
    severity: 'error',
    code: key === 'bodies' ? Codes.tooManyBodies : Codes.tooManyConstraints,
    message: `The scene has ${count === undefined ? `more ${what} than the limit of ${formatCount(max)}` : `${formatCount(count)} ${what}, above the limit of ${formatCount(max)}`} (this is the first one past it): the scene is not analysed. Split the scene, or ${raiseHint(key)}.`,
    range,
    data: { limit: key, value: count ?? max + 1, max },
  };
}

/** The top-level arrays `bodies` and `constraints` as parsed: CL008/CL009 when one is longer than its limit. */
export function treeCountDiagnostics(root: Node | undefined, limits: Limits, rangeOf: (n: Node) => Range): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (!root || root.type !== 'object') return out;
  for (const key of ['bodies', 'constraints'] as const) {
    // the last duplicate key wins, as in the parser
    const prop = [...(root.children ?? [])].reverse().find((p) => p.type === 'property' && p.children?.[0]?.value === key);
    const arr = prop?.children?.[1];
    const items = arr?.type === 'array' ? (arr.children ?? []) : [];
    if (items.length > limits[key]) out.push(countLimitDiagnostic(key, items.length, limits, rangeOf(items[limits[key]])));
  }
  return out;
}

const STOP = new Error('limit reached');

/**
 * Counts the items of the top-level `bodies` and `constraints` arrays by streaming through the text
 * (memory O(nesting depth)) and stops at the first item past a limit: CL008/CL009 on it. Used before the syntax
 * tree is built for texts over PRESCAN_CHARS.
 */
export function streamCountDiagnostics(text: string, limits: Limits): Diagnostic[] {
  const counts: Record<CountedKey, number> = { bodies: 0, constraints: 0 };
  const first: Partial<Record<CountedKey, { start: { line: number; character: number }; depth: number; end?: { line: number; character: number } }>> = {};
  let depth = 0;
  let top: string | undefined;
  let inArray: CountedKey | undefined; // the counted array open at depth 2
  const item = (line: number, character: number, container: boolean) => {
    if (depth !== 2 || !inArray) return;
    const k = inArray;
    counts[k]++;
    if (counts[k] === limits[k] + 1) first[k] = { start: { line, character }, depth: container ? 3 : 2 };
  };
  const closeAt = (line: number, character: number) => {
    for (const k of ['bodies', 'constraints'] as const) {
      const f = first[k];
      if (f && !f.end && depth === f.depth) {
        f.end = { line, character };
        throw STOP; // one item past a limit is enough: the rest is not read
      }
    }
  };
  const open = (kind: 'object' | 'array') => (offset: number, length: number, line: number, character: number) => {
    if (depth === 1 && kind === 'array' && (top === 'bodies' || top === 'constraints')) inArray = top;
    else item(line, character, true);
    depth++;
  };
  const close = (offset: number, length: number, line: number, character: number) => {
    closeAt(line, character + length);
    depth--;
    if (depth === 1) inArray = undefined;
  };
  try {
    visit(
      text,
      {
        onObjectBegin: open('object'),
        onArrayBegin: open('array'),
        onObjectEnd: close,
        onArrayEnd: close,
        onObjectProperty: (property) => {
          if (depth === 1) top = property;
        },
        onLiteralValue: (_v, _offset, length, line, character) => {
          item(line, character, false);
          const k = inArray;
          const f = k && first[k];
          if (f && !f.end && f.depth === 2 && depth === 2) {
            f.end = { line, character: character + length };
            throw STOP;
          }
        },
      },
      { allowTrailingComma: true, disallowComments: false },
    );
  } catch (e) {
    if (e !== STOP) return []; // absurd nesting: the parser reports it
  }
  const out: Diagnostic[] = [];
  for (const k of ['bodies', 'constraints'] as const) {
    const f = first[k];
    if (f) out.push(countLimitDiagnostic(k, undefined, limits, { start: f.start, end: f.end ?? f.start }));
  }
  return out;
}

/** CL010 (a warning) when `solver.steps` is above the limit; the caller clamps the steps to it. */
export function stepsLimitDiagnostic(steps: number, limits: Limits, range: Range, asked?: string): Diagnostic | undefined {
  if (!(steps > limits.steps)) return undefined;
  const what = asked ?? `\`solver.steps\` = ${formatCount(steps)}`;
  return {
    severity: 'warning',
    code: Codes.tooManySteps,
    message: `${what} is above the limit of ${formatCount(limits.steps)} steps per run: a run stops at step ${formatCount(limits.steps)}. Use fewer steps, or ${raiseHint('steps')}.`,
    range,
    data: { limit: 'steps', value: steps, max: limits.steps },
  };
}
