// Opening the inspector on a model no one has analysed yet (Gymnasium's ant, open-ant.xml: a copy of
// test/fixtures/import/public/ant/ant.xml, MIT, its LICENSE there; MuJoCo's WebAssembly,
// the conversion and the analysis), from the command to the panel, its `ready`, the model posted and
// the webview's ack of it (the model applied: the first paint's work done). The panel is created
// before the analysis ends, so the webview loads its script while the host analyses; the times are
// logged for the closing note (never asserted: the machine is shared).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import { activateExtension, waitFor, wsUri, type LensApi } from './util';

export default function register(): void {
  suite('Opening the inspector', () => {
    let api: LensApi;
    suiteSetup(async () => {
      api = await activateExtension();
    });

    test('the panel opens while the model is analysed; command → panel → ready → model → applied (logged)', async () => {
      const uri = wsUri('open-ant.xml');
      const key = uri.toString();
      assert.strictEqual(api.inspect(key), undefined, 'not analysed yet');
      const t0 = Date.now();
      const marks: Record<string, number> = {};
      let analysedBeforePanel: boolean | undefined;
      const poll = setInterval(() => {
        const p = api.panelFor(key);
        const now = Date.now() - t0;
        if (p && marks.panel === undefined) {
          marks.panel = now;
          analysedBeforePanel = api.inspect(key) !== undefined;
        }
        if (api.inspect(key) && marks.analysed === undefined) marks.analysed = now;
        if (p?.lastMessageFromWebview && marks.ready === undefined) marks.ready = now;
        if (p?.postedTypes.includes('model') && marks.model === undefined) marks.model = now;
        if (marks.model !== undefined && p?.lastMessageFromWebview?.type === 'ack' && marks.applied === undefined) marks.applied = now;
      }, 5);
      try {
        const r = await vscode.commands.executeCommand<string | undefined>(CommandIds.openInspector, uri);
        marks.command = Date.now() - t0;
        assert.strictEqual(r, key);
        assert.ok(api.inspect(key), 'the command resolves with the model analysed');
        await waitFor('the model applied by the webview', () => marks.applied !== undefined, 60_000, 20);
      } finally {
        clearInterval(poll);
      }
      console.log(`[cl-e2e] open-time ant: ${JSON.stringify(marks)} (ms after the command; analysed before the panel: ${analysedBeforePanel})`);
      // Where the panel's start-up goes: the host made the panel → the page started loading (VS
      // Code's webview frame) → the panel's script ran (its fetch and parse) → `ready` posted →
      // received by the host (the workbench relays it).
      const su = api.panelFor(key)?.startup;
      assert.ok(su, 'the webview reported its start-up times with ready');
      console.log(`[cl-e2e] open-time ant, panel start-up (ms): frame ${su.navigationStart - su.createdAt}, script ${su.scriptStart - su.navigationStart}, boot ${su.readyAt - su.scriptStart}, ready relayed ${su.receivedAt - su.readyAt}; created → ready received ${su.receivedAt - su.createdAt}`);
      assert.strictEqual(analysedBeforePanel, false, `the panel is created before the analysis ends: ${JSON.stringify(marks)}`);
    });

    test('a second inspector in the same window: its start-up (logged)', async () => {
      // The first webview of a window also starts VS Code's webview machinery: this one shows what
      // every later panel costs.
      const uri = wsUri('pendulum.scene.json');
      const key = uri.toString();
      await vscode.commands.executeCommand(CommandIds.openInspector, uri);
      const su = await waitFor('the second inspector to say ready', () => api.panelFor(key)?.startup, 60_000, 20);
      console.log(`[cl-e2e] open-time second panel (pendulum), start-up (ms): frame ${su.navigationStart - su.createdAt}, script ${su.scriptStart - su.navigationStart}, boot ${su.readyAt - su.scriptStart}, ready relayed ${su.receivedAt - su.readyAt}; created → ready received ${su.receivedAt - su.createdAt}`);
    });
  });
}
