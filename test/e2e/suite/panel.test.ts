// The inspector panel opens for a scene and its webview talks to the host.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, LensApi, openScene, waitFor } from './util';

export default function register(): void {
  suite('inspector panel', () => {
    let api: LensApi;

    suiteSetup(async () => {
      api = await activateExtension();
    });

    suiteTeardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('openInspector opens a webview panel and the webview posts "ready"', async () => {
      const { uri } = await openScene('valid.scene.json');
      const key = uri.toString();
      await vscode.commands.executeCommand('constraintLens.openInspector', uri);
      await waitFor('a panel for valid.scene.json', () => api.panelFor(key), 10_000);
      const tabs = (): vscode.Tab[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs);
      // the tab model is updated from the workbench asynchronously
      await waitFor(
        `a webview tab (tabs: ${tabs().map((t) => t.label).join(', ')})`,
        () => tabs().some((t) => t.input instanceof vscode.TabInputWebview),
        10_000,
      );
      const p = await waitFor(
        `the webview to answer (panel: ${JSON.stringify(api.panelFor(key))})`,
        () => {
          const q = api.panelFor(key);
          return q && q.lastMessageFromWebview !== undefined && q.postedToWebview > 0 ? q : undefined;
        },
        30_000,
        100,
      );
      // the host posts nothing before the webview's "ready": postedToWebview > 0 means it said so
      assert.ok(p.postedTypes.includes('model'), `the host posted the model (posted: ${p.postedTypes.join(', ')})`);
      assert.ok(p.visible, 'the panel is visible');
    });

  });
}
