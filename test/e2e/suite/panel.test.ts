// The inspector panel opens for a scene and its webview talks to the host.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, LensApi, openScene, waitFor } from './util';

export default function register(): void {
  suite('inspector panel', () => {
    let api: LensApi;

    suiteSetup(async () => {
      api = await activateExtension();
      assert.ok(api && typeof api.panelFor === 'function', 'activate() must return the test API with panelFor(uri)');
    });

    suiteTeardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('openInspector opens a webview panel and the webview posts "ready"', async () => {
      const { uri } = await openScene('valid.scene.json');
      await vscode.commands.executeCommand('constraintLens.openInspector', uri);
      const panel = await waitFor('a panel for valid.scene.json', () => api.panelFor!(uri.toString()), 10_000);
      const webviewTab = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => t.input instanceof vscode.TabInputWebview);
      assert.ok(webviewTab, 'a webview tab is open');
      await waitFor(
        `the webview to answer (postedToWebview=${panel.postedToWebview}, last=${JSON.stringify(panel.lastMessageFromWebview)})`,
        () => {
          const p = api.panelFor!(uri.toString());
          return p && p.lastMessageFromWebview?.type === 'ready' ? p : undefined;
        },
        30_000,
        100,
      );
      assert.ok(api.panelFor!(uri.toString())!.postedToWebview > 0, 'the host posted the model to the webview');
    });
  });
}
