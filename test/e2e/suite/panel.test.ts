// The inspector panel opens for a scene and its webview talks to the host.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import { activateExtension, LensApi, openScene, rangeOfText, sleep, waitFor, wsUri } from './util';

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

    test('one selection: the cursor on a constraint or a body makes the host send select; a reveal from the panel selects in the tree and is not echoed', async () => {
      const { uri, doc, editor } = await openScene('valid.scene.json');
      const key = uri.toString();
      await vscode.commands.executeCommand(CommandIds.openInspector, uri);
      await waitFor('the inspector of valid.scene.json to say ready', () => api.panelFor(key)?.lastMessageFromWebview !== undefined, 30_000, 100);
      await api.whenInspected(key);
      const selects = (): number => (api.panelFor(key)?.postedTypes ?? []).filter((t) => t === 'select').length;
      const put = async (text: string): Promise<void> => {
        const shown = await vscode.window.showTextDocument(doc, { viewColumn: editor.viewColumn, preserveFocus: false });
        const at = rangeOfText(doc, text).start.translate(0, 1);
        shown.selection = new vscode.Selection(at, at);
      };
      // The cursor on the rod's type: after the debounce the panel is asked to select the rod.
      await put('"type": "distance"');
      await waitFor(`select {constraint: rod} (last: ${JSON.stringify(api.panelFor(key)?.lastSelect)})`, () => api.panelFor(key)?.lastSelect?.constraint === 'rod', 5000);
      const n = selects();
      // Moving inside the same constraint sends nothing more; onto a body, that body.
      await put('"length": 2.0');
      await sleep(600);
      assert.strictEqual(selects(), n, 'the same constraint is not selected again');
      await put('"mass": 5.0');
      await waitFor('select {body: Body_B}', () => api.panelFor(key)?.lastSelect?.body === 'Body_B', 5000);
      // Between items (the solver settings): nothing.
      const m = selects();
      await put('"dt": 0.01');
      await sleep(600);
      assert.strictEqual(selects(), m);

      // The panel reveals Body_A (a click in its 3D view): the editor shows it, the Explorer tree
      // selects it (its view made visible first: a hidden view is never opened), and the cursor
      // landing on it is not sent back as a select.
      await vscode.commands.executeCommand('constraintLens.sceneTree.focus');
      await vscode.window.showTextDocument(doc, { viewColumn: editor.viewColumn, preserveFocus: false });
      await sleep(300);
      const before = selects();
      assert.strictEqual(await api.receiveFromWebview(key, { type: 'reveal', bodyIndex: 0 }), true);
      await waitFor(`the tree to select Body_A (selection: ${JSON.stringify(api.treeSelection())})`, () => api.treeSelection().includes('body:Body_A'), 5000);
      await waitFor('the editor to show Body_A', () => vscode.window.activeTextEditor?.document.getText(new vscode.Range(vscode.window.activeTextEditor.selection.start, vscode.window.activeTextEditor.selection.end)).includes('Body_A'), 5000);
      await sleep(600);
      assert.strictEqual(selects(), before, 'no select echoed back for the revealed body');
      assert.strictEqual(await api.receiveFromWebview(key, { type: 'reveal', constraintIndex: 0 }), true);
      await waitFor(`the tree to select rod (selection: ${JSON.stringify(api.treeSelection())})`, () => api.treeSelection().includes('constraint:rod'), 5000);
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
