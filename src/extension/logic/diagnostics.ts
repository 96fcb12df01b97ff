// Engine diagnostics → a plain shape mirroring vscode.Diagnostic (converted in ../diagnostics.ts),
// and the index from a shown diagnostic back to the engine's fixes. Pure: no vscode.
import { Codes } from '../../engine';
import type { Diagnostic, Fix, Range, Severity } from '../../engine';

/** vscode.DiagnosticSeverity values. */
export const PlainSeverity = { Error: 0, Warning: 1, Information: 2, Hint: 3 } as const;
export type PlainSeverity = (typeof PlainSeverity)[keyof typeof PlainSeverity];

/** vscode.DiagnosticTag values. */
export const PlainTag = { Unnecessary: 1, Deprecated: 2 } as const;
export type PlainTag = (typeof PlainTag)[keyof typeof PlainTag];

export interface PlainDiagnostic {
  range: Range;
  message: string;
  severity: PlainSeverity;
  code: string;
  source: string;
  related: { message: string; range: Range }[];
  tags: PlainTag[];
}

export const DIAGNOSTIC_SOURCE = 'Constraint Lens';

/** Whether VS Code's JSON language service reports the document's syntax errors itself. */
export interface ProblemsContext {
  /** The document is JSON/JSONC and `json.validate.enable` is on (the default). */
  jsonServiceReportsSyntax: boolean;
}

const JSON_SERVICE: ProblemsContext = { jsonServiceReportsSyntax: true };

/**
 * A JSON syntax error (CL001 from the JSON parser) that VS Code's JSON language service reports
 * in the Problems panel too. CL001s without a parser error (e.g. nesting too deep to read) are
 * the extension's own and stay.
 */
function isJsonServiceSyntaxError(d: Pick<Diagnostic, 'code' | 'data'>): boolean {
  return d.code === Codes.jsonSyntax && typeof d.data?.parseError === 'string';
}

/**
 * The diagnostics the extension publishes in the Problems panel: all of the scene's (analysis
 * and run), without the syntax errors VS Code's JSON service already reports there. The one list
 * behind the DiagnosticCollection, the inspector's Problems card and every problem count.
 */
export function publishedDiagnostics(all: readonly Diagnostic[], ctx: ProblemsContext = JSON_SERVICE): Diagnostic[] {
  return ctx.jsonServiceReportsSyntax ? all.filter((d) => !isJsonServiceSyntaxError(d)) : [...all];
}

/** The syntax errors left out of the Problems panel by `publishedDiagnostics` (VS Code's JSON service shows them). */
export function jsonServiceSyntaxErrors(all: readonly Diagnostic[], ctx: ProblemsContext = JSON_SERVICE): Diagnostic[] {
  return ctx.jsonServiceReportsSyntax ? all.filter(isJsonServiceSyntaxError) : [];
}

function toPlainSeverity(s: Severity): PlainSeverity {
  switch (s) {
    case 'error':
      return PlainSeverity.Error;
    case 'warning':
      return PlainSeverity.Warning;
    case 'information':
      return PlainSeverity.Information;
    case 'hint':
      return PlainSeverity.Hint;
    default:
      return PlainSeverity.Warning;
  }
}

/** Codes whose range is dead text (faded by the editor). */
const UNNECESSARY = new Set<string>([Codes.redundantConstraint, Codes.unknownField, Codes.duplicateKey]);

const isPos = (p: unknown): p is { line: number; character: number } =>
  typeof p === 'object' && p !== null && Number.isInteger((p as { line: number }).line) && Number.isInteger((p as { character: number }).character);

/** A well-formed, non-negative, ordered range (the engine's range, repaired if it is not). */
export function sanitizeRange(r: Range | undefined): Range {
  if (!r || !isPos(r.start) || !isPos(r.end)) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const s = { line: Math.max(0, r.start.line), character: Math.max(0, r.start.character) };
  const e = { line: Math.max(0, r.end.line), character: Math.max(0, r.end.character) };
  if (e.line < s.line || (e.line === s.line && e.character < s.character)) return { start: e, end: s };
  return { start: s, end: e };
}

export function toPlainDiagnostic(d: Diagnostic): PlainDiagnostic {
  return {
    range: sanitizeRange(d.range),
    message: d.message,
    severity: toPlainSeverity(d.severity),
    code: d.code,
    source: DIAGNOSTIC_SOURCE,
    related: (d.related ?? []).map((r) => ({ message: r.message, range: sanitizeRange(r.range) })),
    tags: UNNECESSARY.has(d.code) ? [PlainTag.Unnecessary] : [],
  };
}

/** Key of a diagnostic by code and range (the message is not part of it: it may be reworded). */
export function fixKey(code: string, r: Range): string {
  return `${code}@${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

/**
 * The fixes of the diagnostics published for one document version. A code action request for
 * another version finds nothing (its edits could land at the wrong offsets).
 */
export class FixIndex {
  private readonly byKey = new Map<string, Fix[]>();

  constructor(
    readonly version: number,
    diagnostics: readonly Diagnostic[],
  ) {
    for (const d of diagnostics) {
      if (!d.fixes?.length) continue;
      const k = fixKey(d.code, sanitizeRange(d.range));
      const list = this.byKey.get(k) ?? [];
      for (const f of d.fixes) if (isUsableFix(f) && !list.some((g) => sameFix(g, f))) list.push(f);
      if (list.length) this.byKey.set(k, list);
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  /** Fixes for the diagnostic with this code and range, shown at `version`. */
  lookup(version: number, code: string, range: Range): Fix[] {
    if (version !== this.version) return [];
    return this.byKey.get(fixKey(code, range)) ?? [];
  }
}

function isUsableFix(f: Fix): boolean {
  return typeof f.title === 'string' && Array.isArray(f.edits) && f.edits.length > 0 && f.edits.every((e) => typeof e.newText === 'string' && e.range !== undefined);
}

function sameFix(a: Fix, b: Fix): boolean {
  return a.title === b.title && JSON.stringify(a.edits) === JSON.stringify(b.edits);
}

/** A diagnostic code as vscode reports it back (`string | number | { value }`), as a string. */
export function codeOf(code: string | number | { value: string | number } | undefined): string | undefined {
  if (code === undefined) return undefined;
  if (typeof code === 'object') return String(code.value);
  return String(code);
}
