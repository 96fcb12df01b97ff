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

export function toVsDiagnostic(p: PlainDiagnostic, uri: vscode.Uri): vscode.Diagnostic {
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
          this.included.publish(e.state.key, e.state.uri, []);
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
    const shown = publishedFor(s);
    const diags = shown.map((d) => toVsDiagnostic(toPlainDiagnostic(d), s.uri));
    this.collection.set(s.uri, diags);
    this.published.set(s.key, { at: performance.now(), count: diags.length });
    this.included.publish(s.key, s.uri, shown);
  }

  /** Copies of an imported model's diagnostics in the included files they are about (`data.file`). */
  private readonly included = this._register(new IncludedFilesPublisher());
}

/**
 * A diagnostic of an imported model about an element of an included file sits on the <include> line
 * of the model file and carries `data.file` = { path, range } (import/sourcemap.ts `decorate`). When
 * that file is in the workspace, a copy is shown there too, in a collection of its own (so that the
 * file's own analysis, if it is opened as a model, does not overwrite it), per model that includes it.
 */
class IncludedFilesPublisher extends Disposable {
  private readonly collection = this._register(vscode.languages.createDiagnosticCollection('constraint-lens-included'));
  /** target file → model key → its copies there. */
  private readonly byTarget = new Map<string, { uri: vscode.Uri; from: Map<string, vscode.Diagnostic[]> }>();

  publish(modelKey: string, modelUri: vscode.Uri, shown: readonly Diagnostic[]): void {
    const next = new Map<string, { uri: vscode.Uri; diags: vscode.Diagnostic[] }>();
    for (const d of shown) {
      const file = d.data?.file as { path?: unknown; range?: Diagnostic['range'] } | undefined;
      if (!file || typeof file.path !== 'string' || !file.range) continue;
      const uri = vscode.Uri.file(file.path);
      if (!vscode.workspace.getWorkspaceFolder(uri)) continue;
      const copy = toVsDiagnostic(toPlainDiagnostic({ ...d, range: file.range, related: undefined }), uri);
      copy.relatedInformation = [new vscode.DiagnosticRelatedInformation(new vscode.Location(modelUri, toVsRange(d.range)), `reported for ${modelUri.path.split('/').pop()}`)];
      const entry = next.get(uri.toString()) ?? { uri, diags: [] };
      entry.diags.push(copy);
      next.set(uri.toString(), entry);
    }
    const touched = new Set<string>(next.keys());
    for (const [key, t] of this.byTarget) if (t.from.delete(modelKey)) touched.add(key);
    for (const [key, e] of next) {
      const t = this.byTarget.get(key) ?? { uri: e.uri, from: new Map<string, vscode.Diagnostic[]>() };
      t.from.set(modelKey, e.diags);
      this.byTarget.set(key, t);
    }
    for (const key of touched) {
      const t = this.byTarget.get(key);
      if (!t) continue;
      const all = [...t.from.values()].flat();
      if (all.length) this.collection.set(t.uri, all);
      else {
        this.collection.delete(t.uri);
        this.byTarget.delete(key);
      }
    }
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
