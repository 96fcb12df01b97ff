// Helpers of the inspector panel host (panel.ts): revealing a scene's items in the editor, the
// webview's options.
import * as vscode from 'vscode';
import type { HostMessage } from '../protocol';
import type { SceneItem } from './logic/itemAt';
import type { SceneState } from './scenes';
import { errorMessage, toVsRange } from './util';

/** Reveal a range of a scene in a text editor (not in the inspector's column). */
export async function revealInEditor(uri: vscode.Uri, range: vscode.Range, opts: { preserveFocus?: boolean; avoidColumn?: vscode.ViewColumn } = {}): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const shown = vscode.window.visibleTextEditors.find((e) => e.document === doc);
  let column = shown?.viewColumn;
  if (column === undefined) column = opts.avoidColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Two : vscode.ViewColumn.One;
  const ed = await vscode.window.showTextDocument(doc, { viewColumn: column, preserveFocus: opts.preserveFocus ?? false, selection: doc.validateRange(range) });
  ed.revealRange(ed.selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** Source range of a constraint or body given by its index in the file's arrays. */
export function itemRange(s: SceneState, kind: 'constraint' | 'body', fileIndex: number): vscode.Range | undefined {
  const sm = s.result?.parse.sourceMap;
  if (!sm) return undefined;
  try {
    return toVsRange(sm.rangeOf([kind === 'constraint' ? 'constraints' : 'bodies', fileIndex]));
  } catch {
    return undefined;
  }
}

export const itemKey = (kind: 'body' | 'constraint', name: string | undefined): string => (name === undefined ? '' : `${kind}:${name}`);

/** The body or constraint of a `reveal` message (indices in the file's arrays), if the scene has it. */
export function revealedItem(s: SceneState, constraintIndex: number | undefined, bodyIndex: number | undefined): SceneItem | undefined {
  const scene = s.result?.parse.scene;
  if (!scene) return undefined;
  if (constraintIndex !== undefined) {
    const c = scene.constraints.find((x) => x.index === constraintIndex);
    return c && { kind: 'constraint', name: c.name, fileIndex: c.index };
  }
  const b = bodyIndex !== undefined ? scene.bodies.find((x) => x.index === bodyIndex) : undefined;
  return b && { kind: 'body', name: b.name, fileIndex: b.index };
}

export function webviewOptions(ext: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(ext, 'dist'), vscode.Uri.joinPath(ext, 'media')],
    retainContextWhenHidden: false,
    enableFindWidget: true,
  };
}

export function safeJson(x: unknown): string {
  try {
    return JSON.stringify(x)?.slice(0, 200) ?? String(x);
  } catch {
    return String(x);
  }
}


/** Post to a webview: false when the message was not delivered (the webview is hidden or gone), failures logged. */
export function postToWebview(webview: vscode.Webview, msg: HostMessage, log: Pick<vscode.LogOutputChannel, 'debug' | 'error'>): Promise<boolean> {
  return Promise.resolve(webview.postMessage(msg)).then(
    (ok) => {
      if (!ok) log.debug(`message '${msg.type}' not delivered (webview hidden)`);
      return ok;
    },
    (e: unknown) => {
      log.error(`postMessage failed: ${errorMessage(e)}`);
      return false;
    },
  );
}
