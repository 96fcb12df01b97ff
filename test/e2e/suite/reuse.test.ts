// One inspector followed from model to model (constraintLens.inspector.reuse): Open Inspector on a
// second model shows it in the panel already open, under its title, with its own model and run,
// while the first model's status bar and CodeLens stay its own; Open Inspector to the Side keeps a
// panel of its own; the setting off gives every model a panel. The start-up of a reused panel and
// of a new one are logged for the closing note (never asserted: the machine is shared).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds, ViewIds } from '../../../src/extension/commandIds';
import { activateExtension, harnessScreenshot, LensApi, openScene, waitFor } from './util';

const inspectorTabs = (): vscode.Tab[] =>
  vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith(ViewIds.inspector));

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return lenses.map((l) => l.command?.title ?? '');
}

/** Open the inspector of `name`; resolves when its webview applied the model (acknowledged it), with the times. */
async function openAndPaint(api: LensApi, name: string, command: string = CommandIds.openInspector): Promise<{ uri: vscode.Uri; key: string; applied: number; startup: string }> {
  const { uri } = await openScene(name);
  const key = uri.toString();
  await api.whenInspected(key);
  const t0 = Date.now();
  await vscode.commands.executeCommand(command, uri);
  const applied = await waitFor(
    `${name}'s panel to apply its model (${JSON.stringify(api.panelFor(key)?.postedTypes)})`,
    () => {
      const p = api.panelFor(key);
      return p?.postedTypes.includes('model') && p.lastMessageFromWebview?.type === 'ack' ? Date.now() - t0 : undefined;
    },
    60_000,
    10,
  );
  const su = api.panelFor(key)?.startup;
  assert.ok(su, `${name}: the webview reported its start-up`);
  return { uri, key, applied, startup: `frame ${su.navigationStart - su.createdAt}, script ${su.scriptStart - su.navigationStart}, boot ${su.readyAt - su.scriptStart}, created → ready received ${su.receivedAt - su.createdAt}` };
}

/** The status bar text of a scene, with its editor active. */
async function statusOf(api: LensApi, uri: vscode.Uri): Promise<string> {
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
  return waitFor(`the status bar of ${uri.path}`, () => (/ · step \d+$/.test(api.statusText()) ? api.statusText() : undefined), 10_000);
}

export default function register(): void {
  suite('one inspector reused across models', () => {
    let api: LensApi;
    const config = () => vscode.workspace.getConfiguration('constraintLens');
    suiteSetup(async () => {
      api = await activateExtension();
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });
    suiteTeardown(async () => {
      await config().update('inspector.reuse', undefined, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('a second model opens in the panel already open: its title, model and run; the first keeps its status bar and CodeLens', async function () {
      this.timeout(180_000);
      const a = await openAndPaint(api, 'pendulum.scene.json');
      await vscode.commands.executeCommand(CommandIds.reset, a.uri);
      await vscode.commands.executeCommand(CommandIds.runSteps, a.uri, 25);
      await api.whenIdle(a.key);
      const statusA = await statusOf(api, a.uri);
      assert.match(statusA, / · step 25$/, statusA);
      const b = await openAndPaint(api, 'chain.scene.json');
      await vscode.commands.executeCommand(CommandIds.reset, b.uri);
      await api.whenIdle(b.key);
      await waitFor('one inspector tab, titled for the chain', () => inspectorTabs().length === 1 && inspectorTabs()[0].label === 'Inspect chain.scene.json', 10_000);
      assert.strictEqual(api.panelFor(a.key), undefined, 'the pendulum has no panel now');
      const pb = api.panelFor(b.key);
      assert.ok(pb?.visible, 'the chain is shown');
      assert.strictEqual(pb.solver?.steps, 0, "the chain's own run (reset), not the pendulum's 25 steps");
      // The pendulum keeps its run and its own numbers in every view; the chain has its own.
      assert.strictEqual(api.currentStep(a.key), 25);
      assert.strictEqual(await statusOf(api, a.uri), statusA, "the pendulum's status bar");
      assert.ok((await lensTitles(a.uri)).some((t) => t.startsWith(statusA.replace(/^.*?κ/, 'κ'))), `the pendulum's CodeLens shows "${statusA}": ${(await lensTitles(a.uri)).join(' | ')}`);
      const statusB = await statusOf(api, b.uri);
      assert.notStrictEqual(statusB, statusA);
      assert.match(statusB, / · step 0$/, statusB);
      // a step of the chain reaches its panel, and the pendulum's step count does not move
      await vscode.commands.executeCommand(CommandIds.runSteps, b.uri, 10);
      await api.whenIdle(b.key);
      await waitFor('the chain panel at step 10', () => api.panelFor(b.key)?.solver?.steps === 10, 10_000);
      assert.strictEqual(api.currentStep(a.key), 25);
      await vscode.commands.executeCommand(CommandIds.goToStep, b.uri, 10);
      // the chain's status bar and CodeLens at the step its panel shows
      const statusB10 = await statusOf(api, b.uri);
      assert.match(statusB10, / · step 10$/, statusB10);
      const lensB10 = statusB10.replace(/^.*?κ/, 'κ');
      await waitFor(`the chain's CodeLens "${lensB10}"`, async () => (await lensTitles(b.uri)).some((t) => t.startsWith(lensB10)), 10_000);
      await vscode.commands.executeCommand(CommandIds.openInspector, b.uri); // the panel to the front, beside the pendulum's editor
      await harnessScreenshot('reuse-second-model');
      // the pendulum again: back in the same panel, at its own step
      const a2 = await openAndPaint(api, 'pendulum.scene.json');
      await waitFor('one inspector tab, titled for the pendulum', () => inspectorTabs().length === 1 && inspectorTabs()[0].label === 'Inspect pendulum.scene.json', 10_000);
      assert.strictEqual(api.panelFor(a2.key)?.solver?.steps, 25);
      assert.strictEqual(api.panelFor(b.key), undefined);
      await harnessScreenshot('reuse-back-to-first');
      console.log(`[cl-e2e] reuse, start-up (ms): chain into the pendulum's panel: command → model applied ${b.applied}, ${b.startup}; pendulum again: ${a2.applied}, ${a2.startup}`);
    });

    test('Open Inspector to the Side keeps a panel of its own; with the setting off every model gets one (start-up logged)', async function () {
      this.timeout(180_000);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await openAndPaint(api, 'pendulum.scene.json');
      const side = await openAndPaint(api, 'chain.scene.json', CommandIds.openInspectorToSide);
      await waitFor('two inspector tabs', () => inspectorTabs().length === 2, 10_000);
      // the next model goes into the pendulum's panel, not into the one opened to the side
      const v = await openAndPaint(api, 'valid.scene.json');
      await waitFor('the pendulum tab became the valid scene', () => inspectorTabs().length === 2 && inspectorTabs().some((t) => t.label === 'Inspect valid.scene.json'), 10_000);
      assert.ok(api.panelFor(side.key), 'the panel to the side still shows the chain');
      assert.ok(api.panelFor(v.key));
      await config().update('inspector.reuse', false, vscode.ConfigurationTarget.Global);
      await waitFor('the setting read', () => config().get('inspector.reuse') === false, 5000);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await waitFor('no inspector tab', () => inspectorTabs().length === 0, 10_000);
      const p1 = await openAndPaint(api, 'pendulum.scene.json');
      const p2 = await openAndPaint(api, 'redundant.scene.json');
      await waitFor('two inspector tabs', () => inspectorTabs().length === 2, 10_000);
      assert.ok(api.panelFor(p1.key) && api.panelFor(p2.key), 'both panels open');
      await harnessScreenshot('reuse-off-two-panels');
      console.log(`[cl-e2e] reuse off, a new panel (ms): redundant: command → model applied ${p2.applied}, ${p2.startup}; valid into a reused panel beside: ${v.applied}, ${v.startup}`);
    });

    test('a model into the open panel against a new panel: command → model applied (logged, medians)', async function () {
      this.timeout(240_000);
      const names = ['chain.scene.json', 'valid.scene.json', 'redundant.scene.json'];
      const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      const times: Record<'reused' | 'new', { applied: number[]; ready: number[] }> = { reused: { applied: [], ready: [] }, new: { applied: [], ready: [] } };
      const readyOf = (key: string): number => {
        const su = api.panelFor(key)?.startup;
        return su ? su.receivedAt - su.createdAt : NaN;
      };
      for (const reuse of [true, false]) {
        await config().update('inspector.reuse', reuse, vscode.ConfigurationTarget.Global);
        await waitFor('the setting read', () => config().get('inspector.reuse') === reuse, 5000);
        await vscode.commands.executeCommand('workbench.action.closeAllEditors');
        // a panel open already: the window's first webview is not what is measured
        await openAndPaint(api, 'pendulum.scene.json');
        for (const name of names) {
          const r = await openAndPaint(api, name);
          const t = times[reuse ? 'reused' : 'new'];
          t.applied.push(r.applied);
          t.ready.push(readyOf(r.key));
          // the new panel closes again: every one is the window's second
          if (!reuse) {
            const tab = inspectorTabs().find((x) => x.label === `Inspect ${name}`);
            if (tab) await vscode.window.tabGroups.close(tab);
          }
        }
      }
      for (const [k, t] of Object.entries(times)) assert.strictEqual(t.applied.length, names.length, k);
      console.log(
        `[cl-e2e] open-time, ${names.length} scenes each, medians (ms): into the open panel: command → model applied ${median(times.reused.applied)}, created → ready ${median(times.reused.ready)}; a new panel: ${median(times.new.applied)}, ${median(times.new.ready)} (all: ${JSON.stringify(times)})`,
      );
    });
  });
}
