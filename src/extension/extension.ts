// Entry point of the VS Code extension (bundled to dist/extension.js). Thin: all state lives in
// the Ctx, which owns every disposable; activation does no solver work.
import type * as vscode from 'vscode';
import type { ConstraintLensApi } from './api';
import { Ctx } from './ctx';

let ctx: Ctx | undefined;

export function activate(context: vscode.ExtensionContext): ConstraintLensApi {
  ctx = new Ctx(context);
  context.subscriptions.push(ctx);
  return ctx.api();
}

export function deactivate(): void {
  ctx?.dispose();
  ctx = undefined;
}
