// Publishes the engine's diagnostics (one DiagnosticCollection) and offers their fixes as quick
// fixes. What is published (`publishedFor`) is also what the inspector lists and every problem
// count counts: JSON syntax errors are left to VS Code's JSON language service, which reports
// them already (the CLI and the panel still list them). A shown vscode.Diagnostic is mapped back to the engine's fixes by code + range in the
// FixIndex of the document version the diagnostics were computed for.
import * as vscode from 'vscode';
import type { Diagnostic, Fix } from '../engine';
import {
  DIAGNOSTIC_SOURCE,
  PlainTag,
  codeOf,
  jsonServiceSyntaxErrors,
  publishedDiagnostics,
  toPlainDiagnostic,
  type PlainDiagnostic,
  type ProblemsContext,
} from './logic/diagnostics';
import { Disposable } from './dispose';
import type { SceneManager, SceneState } from './scenes';
import { toVsRange } from './util';

const SEVERITY: Record<number, vscode.DiagnosticSeverity> = {
  0: vscode.DiagnosticSeverity.Error,
  1: vscode.DiagnosticSeverity.Warning,
  2: vscode.DiagnosticSeverity.Information,
  3: vscode.DiagnosticSeverity.Hint,
};

function toVsDiagnostic(p: PlainDiagnostic, uri: vscode.Uri): vscode.Diagnostic {
  const d = new vscode.Diagnostic(toVsRange(p.range), p.message, SEVERITY[p.severity] ?? vscode.DiagnosticSeverity.Warning);
  d.source = p.source;
  d.code = p.code;
  if (p.related.length) d.relatedInformation = p.related.map((r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(uri, toVsRange(r.range)), r.message));
  if (p.tags.length) d.tags = p.tags.map((t) => (t === PlainTag.Unnecessary ? vscode.DiagnosticTag.Unnecessary : vscode.DiagnosticTag.Deprecated));
  return d;
}

/**
 * Whether VS Code's JSON language service reports this scene's syntax errors: its document is
 * JSON or JSON with comments (*.scene.json is jsonc) and `json.validate.enable` is not off.
 */
function problemsContextFor(uri: vscode.Uri): ProblemsContext {
  const key = uri.toString();
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  const isJson = doc === undefined || doc.languageId === 'jsonc' || doc.languageId === 'json';
  // Read once per document and setting change: a resource-scoped getConfiguration costs ~1–5 ms of
  // the host's thread, and this runs on every publish (profiled in the typing e2e test).
  let validates = jsonValidates.get(key);
  if (validates === undefined) {
    validates = vscode.workspace.getConfiguration('json', uri).get<boolean>('validate.enable', true) !== false;
    jsonValidates.set(key, validates);
  }
  return { jsonServiceReportsSyntax: isJson && validates };
}

/** `json.validate.enable` per document URI (cleared when that setting changes: `republishAll`). */
const jsonValidates = new Map<string, boolean>();

/** The scene's diagnostics as the Problems panel shows them (analysis and run; no duplicate syntax errors). */
export function publishedFor(s: SceneState): Diagnostic[] {
  return publishedDiagnostics(s.allDiagnostics(), problemsContextFor(s.uri));
}

/** The scene's syntax errors that VS Code's JSON service reports instead of the extension. */
export function syntaxErrorsFor(s: SceneState): Diagnostic[] {
  return jsonServiceSyntaxErrors(s.allDiagnostics(), problemsContextFor(s.uri));
}

export class DiagnosticsPublisher extends Disposable {
  readonly collection = this._register(vscode.languages.createDiagnosticCollection('constraint-lens'));
  /** When each document's diagnostics were last set (performance.now()), for the test API. */
  readonly published = new Map<string, { at: number; count: number }>();

  constructor(private readonly scenes: SceneManager) {
    super();
    this._register(
      scenes.onDidChange((e) => {
        if (e.kind === 'closed') {
          this.collection.delete(e.state.uri);
          this.published.delete(e.state.key);
          jsonValidates.delete(e.state.key);
        }
        else if (e.kind === 'inspected' || e.diagnosticsChanged || e.kind === 'reset') this.publish(e.state);
      }),
    );
  }

  /** Publish again (a setting that changes what is published changed). */
  republishAll(): void {
    jsonValidates.clear();
    for (const s of this.scenes.all()) if (s.result) this.publish(s);
  }

  publish(s: SceneState): void {
    const diags = publishedFor(s).map((d) => toVsDiagnostic(toPlainDiagnostic(d), s.uri));
    this.collection.set(s.uri, diags);
    this.published.set(s.key, { at: performance.now(), count: diags.length });
  }
}

export class FixProvider implements vscode.CodeActionProvider {
  static readonly metadata: vscode.CodeActionProviderMetadata = { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] };

  constructor(private readonly scenes: SceneManager) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    if (context.only && !context.only.contains(vscode.CodeActionKind.QuickFix) && !vscode.CodeActionKind.QuickFix.contains(context.only)) return [];
    const s = this.scenes.get(doc.uri);
    const index = s?.fixes;
    if (!index) return [];
    const out: vscode.CodeAction[] = [];
    for (const d of context.diagnostics) {
      if (d.source !== DIAGNOSTIC_SOURCE) continue;
      const code = codeOf(d.code);
      if (!code) continue;
      const range = { start: { line: d.range.start.line, character: d.range.start.character }, end: { line: d.range.end.line, character: d.range.end.character } };
      for (const f of index.lookup(doc.version, code, range)) out.push(this.toAction(doc, f, d));
    }
    return out;
  }

  private toAction(doc: vscode.TextDocument, f: Fix, d: vscode.Diagnostic): vscode.CodeAction {
    const a = new vscode.CodeAction(f.title, vscode.CodeActionKind.QuickFix);
    const edit = new vscode.WorkspaceEdit();
    for (const e of f.edits) edit.replace(doc.uri, doc.validateRange(toVsRange(e.range)), e.newText);
    a.edit = edit;
    a.diagnostics = [d];
    a.isPreferred = f.preferred === true;
    return a;
  }
}
