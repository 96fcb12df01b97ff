// Helpers for the e2e suite (runs inside the real VS Code extension host).
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { ConstraintLensApi } from '../../../src/extension/api';

export const EXTENSION_ID = 'constraint-lens.constraint-lens';

/** The extension's test API, returned by activate() (type only: erased from the bundle). */
export type LensApi = ConstraintLensApi;

export async function activateExtension(): Promise<LensApi> {
  const ext = vscode.extensions.getExtension<LensApi>(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not installed`);
  const api = await ext.activate();
  assert.ok(ext.isActive, 'extension did not activate');
  assert.ok(api && typeof api.whenInspected === 'function', 'activate() must return the ConstraintLensApi');
  return api;
}

export function wsUri(name: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder open');
  return vscode.Uri.joinPath(folder.uri, name);
}

export async function openScene(name: string): Promise<{ uri: vscode.Uri; doc: vscode.TextDocument; editor: vscode.TextEditor }> {
  const uri = wsUri(name);
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc, { preview: false });
  return { uri, doc, editor };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until it returns a truthy value; fails with `what` (and the last value) after `timeout` ms. */
export async function waitFor<T>(what: string, fn: () => T | undefined | false | Promise<T | undefined | false>, timeout = 5000, interval = 50): Promise<T> {
  const deadline = Date.now() + timeout;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
      last = v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) assert.fail(`timed out after ${timeout} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await sleep(interval);
  }
}

/** A diagnostic's code as a string (VS Code allows `{ value, target }`). */
export function codeOf(d: vscode.Diagnostic): string {
  const c = d.code;
  if (c === undefined) return '';
  if (typeof c === 'object') return String(c.value);
  return String(c);
}

/** The extension's own diagnostics (other providers, e.g. VS Code's JSON service, excluded). */
export const LENS_SOURCE = 'Constraint Lens';

/** Waits until the extension has analysed the document's current version; returns its diagnostics. */
export async function analysed(api: LensApi, uri: vscode.Uri): Promise<vscode.Diagnostic[]> {
  await api.whenInspected(uri.toString());
  // the collection is updated right after the analysis: give the event loop a turn
  await sleep(20);
  return vscode.languages.getDiagnostics(uri);
}

export function diagnosticsWithCode(uri: vscode.Uri, prefix: string): vscode.Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).filter((d) => codeOf(d).startsWith(prefix));
}

export function describeDiagnostics(uri: vscode.Uri): string {
  return JSON.stringify(
    vscode.languages.getDiagnostics(uri).map((d) => `${codeOf(d)} ${fmtRange(d.range)} ${d.message}`),
    null,
    1,
  );
}

export function fmtRange(r: vscode.Range): string {
  return `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`;
}

/** The range of the `occurrence`-th (0-based) occurrence of `text` in the document. */
export function rangeOfText(doc: vscode.TextDocument, text: string, occurrence = 0): vscode.Range {
  const src = doc.getText();
  let at = -1;
  for (let i = 0; i <= occurrence; i++) {
    at = src.indexOf(text, at + 1);
    assert.ok(at >= 0, `"${text}" (occurrence ${occurrence}) not found in ${doc.uri.path}`);
  }
  return new vscode.Range(doc.positionAt(at), doc.positionAt(at + text.length));
}

/** Applies a code action the way the editor does: its edit, then its command. */
export async function applyCodeAction(action: vscode.CodeAction): Promise<void> {
  if (action.edit) assert.ok(await vscode.workspace.applyEdit(action.edit), `applyEdit failed for "${action.title}"`);
  if (action.command) await vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}

/** Puts the document back to its text on disk (the workspace is a throw-away copy, but tests stay independent). */
export async function revert(doc: vscode.TextDocument): Promise<void> {
  if (!doc.isDirty) return;
  await vscode.window.showTextDocument(doc);
  await vscode.commands.executeCommand('workbench.action.files.revert');
}

/** Prefix of a line that asks the harness for a screenshot (= SHOT_MARK in test/e2e/lib/browser.mjs). */
const SHOT_MARK = '[cl-e2e-shot] ';

/**
 * A screenshot of the workbench now, to test-results/e2e/NAME.png (the harness takes it while the
 * extension host still runs: the suite's final screenshot comes after it stopped, when VS Code has
 * dropped every diagnostic it set). The harness hears the line through the workbench's log, so this
 * waits a moment for the picture; not an assertion.
 */
export async function harnessScreenshot(name: string): Promise<void> {
  console.log(`${SHOT_MARK}${name}`);
  await sleep(2500);
}
