// Small helpers shared by the extension modules.
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { isAnalysableScheme, isSceneFileName } from './logic/format';
import type { Range as EngineRange } from '../engine';
import { errorMessage } from './logic/errors';
import { fileNameOf, keyOf } from './logic/uri';

/** True for documents the extension analyses: `*.scene.json` outside diff/SCM views. */
export function isSceneUri(uri: vscode.Uri): boolean {
  return isAnalysableScheme(uri.scheme) && isSceneFileName(uri.path);
}

export function isSceneDocument(doc: vscode.TextDocument): boolean {
  return isSceneUri(doc.uri);
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

/** Runs `fn`, logging and swallowing any exception (nothing may throw out of the extension host). */
export function guard<T>(log: vscode.LogOutputChannel, where: string, fn: () => T): T | undefined {
  try {
    return fn();
  } catch (e) {
    log.error(`${where}: ${errorMessage(e)}`);
    return undefined;
  }
}

export async function guardAsync<T>(log: vscode.LogOutputChannel, where: string, fn: () => Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    log.error(`${where}: ${errorMessage(e)}`);
    return undefined;
  }
}

/** A random nonce for the webview's CSP. */
export function makeNonce(): string {
  return randomBytes(18).toString('base64url');
}

/** Yield to the event loop (lets the extension host process other work between chunks). */
export const yieldToEventLoop = (): Promise<void> => new Promise((res) => setImmediate(res));
