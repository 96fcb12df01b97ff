// Small helpers shared by the extension modules.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Range as EngineRange } from '../engine';
import { errorMessage } from './logic/errors';
import { fileKindOf, MODEL_HEAD_CHARS, mayBeAnalysed, type FileKind } from './logic/fileKind';
import { fileNameOf, keyOf } from './logic/uri';

/**
 * True for URIs that may be documents the extension analyses (outside diff/SCM views): a
 * `*.scene.json`, a `*.urdf`, or an `*.xml` (an MJCF model when its root element is <mujoco>,
 * which only its text can tell: see `isSceneDocument`).
 */
export function isSceneUri(uri: vscode.Uri): boolean {
  return mayBeAnalysed(uri);
}

/** The kind of a document (logic/fileKind.ts); an .xml is read only up to its first 4096 characters. */
export function fileKindOfDocument(doc: vscode.TextDocument): FileKind | undefined {
  return fileKindOf(doc.uri, () => doc.getText(new vscode.Range(new vscode.Position(0, 0), doc.positionAt(MODEL_HEAD_CHARS))));
}

/** True for documents the extension analyses: scenes, URDF files and MJCF models (not other XML). */
export function isSceneDocument(doc: vscode.TextDocument): boolean {
  return fileKindOfDocument(doc) !== undefined;
}

export { fileNameOf, keyOf };

/** A URI given as a string by a caller (a URI string, or a plain file path). */
export function parseUriArg(s: string): vscode.Uri {
  if (/^[a-zA-Z][\w+.-]+:/.test(s) && !/^[a-zA-Z]:[\\/]/.test(s)) return vscode.Uri.parse(s, true);
  return vscode.Uri.file(s);
}

export function toVsRange(r: EngineRange): vscode.Range {
  return new vscode.Range(r.start.line, r.start.character, r.end.line, r.end.character);
}

export { errorMessage };

/** A random nonce for the webview's CSP. */
export function makeNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** Yield to the event loop (lets the extension host process other work between chunks). */
export const yieldToEventLoop = (): Promise<void> => new Promise((res) => setImmediate(res));
