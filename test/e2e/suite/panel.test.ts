// The inspector panel opens for a scene and its webview talks to the host.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import { activateExtension, LensApi, openScene, waitFor, wsUri } from './util';

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
      await vscode.commands.executeCommand(CommandIds.openInspector, uri);
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

    test("the panel's Step button runs the Step command on the panel's scene", async () => {
      const { uri } = await openScene('valid.scene.json');
      const key = uri.toString();
      await vscode.commands.executeCommand(CommandIds.openInspector, uri);
      await waitFor('the inspector of valid.scene.json to say ready', () => api.panelFor(key)?.lastMessageFromWebview !== undefined, 30_000, 100);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await api.whenIdle(key);
      assert.strictEqual(api.currentStep(key), 0);

      await vscode.commands.executeCommand(CommandIds.step, uri);
      assert.strictEqual(api.currentStep(key), 1, 'the Step command took one step');

      // Another scene's editor has focus: the button still steps the panel's own scene.
      const otherUri = wsUri('redundant.scene.json');
      const other = otherUri.toString();
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(otherUri), { viewColumn: vscode.ViewColumn.One, preview: false });
      await api.whenInspected(other);
      const otherBefore = api.currentStep(other);
      const posted = api.panelFor(key)?.postedToWebview ?? 0;

      assert.strictEqual(await api.receiveFromWebview(key, { type: 'command', command: 'step' }), true, 'the panel received the message');
      assert.strictEqual(api.currentStep(key), 2, 'the button took one step, like the command');
      assert.strictEqual(api.records(key), 2);
      assert.strictEqual(api.currentStep(other), otherBefore, 'the focused editor’s scene did not move');
      await waitFor('the host to post the new step to the panel', () => (api.panelFor(key)?.postedToWebview ?? 0) > posted, 10_000);

      // A command the panel has no button for is refused (validated like any webview message).
      assert.strictEqual(await api.receiveFromWebview(key, { type: 'command', command: CommandIds.exportReport }), true);
      assert.strictEqual(api.currentStep(key), 2);

      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await api.whenIdle(key);
      assert.strictEqual(api.currentStep(key), 0, 'Reset from the command resets the scene the button stepped');
    });
  });
}
