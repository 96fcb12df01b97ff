// The inspector's page as VS Code's webview gets it. The panel's first script (dist/panel.js) and
// its style sheet are inlined in the HTML: a webview's resources are fetched through its service
// worker and the workbench (and, in a remote window, the server), a round trip each that the page
// waits for before its script can run; inlined, the page starts as soon as VS Code has made the
// frame. The deferred bundle (the 3D view and the charts) still loads from dist/ after the first
// paint. Read once per extension session; a file that cannot be read is linked as before.
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { renderPanelHtml } from '../panelHtml';
import { makeNonce } from './util';

/** The inlined assets per extension directory (read on the first panel). */
const assets = new Map<string, { js: string; css: string } | undefined>();

function inlineAssets(ext: vscode.Uri): { js: string; css: string } | undefined {
  if (ext.scheme !== 'file') return undefined;
  if (!assets.has(ext.fsPath)) {
    try {
      const read = (f: string): string => fs.readFileSync(vscode.Uri.joinPath(ext, 'dist', f).fsPath, 'utf8');
      assets.set(ext.fsPath, { js: read('panel.js'), css: read('webview.css') });
    } catch {
      assets.set(ext.fsPath, undefined);
    }
  }
  return assets.get(ext.fsPath);
}

/** The inspector page for `webview`: dist/panel.js and dist/webview.css inlined, dist/panel-deferred.js by URL. */
export function inspectorPageHtml(webview: vscode.Webview, ext: vscode.Uri, title: string): string {
  const uri = (f: string): string => webview.asWebviewUri(vscode.Uri.joinPath(ext, 'dist', f)).toString();
  const inline = inlineAssets(ext);
  return renderPanelHtml({
    cspSource: webview.cspSource,
    nonce: makeNonce(),
    // dist/panel.js loads dist/panel-deferred.js from next to it, or from data-deferred when inlined (webview/load.ts)
    scriptUri: uri('panel.js'),
    styleUri: uri('webview.css'),
    deferredUri: uri('panel-deferred.js'),
    ...(inline ? { inlineScript: inline.js, inlineStyle: inline.css } : {}),
    title,
  });
}
