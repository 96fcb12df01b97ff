// The inspector a robotics engineer keeps open, in the real VS Code: one κ for one step in the
// status bar and CodeLens at steps before and after the chain's blow-up (the number the panel's
// header and history chart print: src/shared/stepKappa.ts), Play's speed from the panel, and Pause
// landing on the step the panel showed (a panel a second behind the run on a loaded host).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { inspectScene, Simulation } from '../../../src/engine';
import { CommandIds } from '../../../src/extension/commandIds';
import { formatCond, RUN_EXACT_COND_MAX_ROWS } from '../../../src/shared';
import { activateExtension, LensApi, openScene, waitFor } from './util';

/** The status text of step k (k ≥ 1) of a run of `text`, as the extension's runs record it. */
function expectedStatus(text: string, steps: number, ks: readonly number[]): Map<number, string> {
  const r = inspectScene(text);
  assert.ok(r.parse.scene && r.snapshot);
  const rows = r.snapshot.rank.rows;
  const sim = new Simulation(r.parse.scene, r.parse.sourceMap, { stepExactCondMaxRows: RUN_EXACT_COND_MAX_ROWS });
  sim.step(steps);
  const out = new Map<number, string>();
  for (const k of ks) {
    const rec = sim.records[Math.min(k, sim.currentStep) - 1];
    out.set(k, `κ ${formatCond(rec.cond.A, { estimated: rec.condEstimated, rows })} · rank ${rec.rank}/${rows} · step ${rec.step}`);
  }
  return out;
}

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return lenses.map((l) => l.command?.title ?? '');
}

export default function register(): void {
  suite('the inspector a robotics engineer keeps open', () => {
    let api: LensApi;
    suiteSetup(async () => {
      api = await activateExtension();
    });

    test('one κ for one step: status bar and CodeLens at steps 100 and 840 and after the chain’s blow-up', async function () {
      this.timeout(120_000);
      const { uri, doc } = await openScene('chain.scene.json');
      const key = uri.toString();
      await api.whenInspected(key);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await api.whenIdle(key);
      await vscode.commands.executeCommand(CommandIds.runSteps, uri, 1240);
      await api.whenIdle(key);
      const last = api.currentStep(key);
      assert.ok(last > 1000 && last < 1240, `the chain blew up and the run stopped (step ${last})`);
      const want = expectedStatus(doc.getText(), 1240, [100, 840, last]);
      for (const [k, status] of want) {
        assert.doesNotMatch(status, /≈/, 'a 30-row chain: κ exact in every view');
        await vscode.commands.executeCommand(CommandIds.goToStep, uri, k);
        await vscode.window.showTextDocument(doc, { preview: false });
        await waitFor(`status "${status}" (have "${api.statusText()}")`, () => api.statusText().endsWith(status), 10_000);
        await waitFor(`a CodeLens with "${status}"`, async () => (await lensTitles(uri)).some((t) => t.startsWith(status)), 10_000);
      }
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await api.whenIdle(key);
    });

    test('Play at the panel’s speed, Pause lands on the step the panel showed', async function () {
      this.timeout(60_000);
      const { uri, doc } = await openScene('play.scene.json');
      const key = uri.toString();
      await api.whenInspected(key);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await api.whenIdle(key);
      await vscode.commands.executeCommand(CommandIds.openInspector, uri);
      await waitFor('the inspector', () => api.panelFor(key) !== undefined, 10_000);
      assert.ok(await api.receiveFromWebview(key, { type: 'playSpeed', speed: 'max' }), 'the speed message is accepted');
      try {
        assert.ok(await api.receiveFromWebview(key, { type: 'command', command: 'playPause' }));
        await waitFor('Play took 60 steps', () => api.currentStep(key) >= 60, 30_000);
        // A panel a few dozen steps behind the run presses Pause on the step it shows.
        const seen = Math.max(1, api.currentStep(key) - 40);
        assert.ok(await api.receiveFromWebview(key, { type: 'command', command: 'playPause', step: seen }));
        await api.whenIdle(key);
        assert.strictEqual(api.isRunning(key), false);
        await vscode.window.showTextDocument(doc, { preview: false });
        await waitFor(`status on step ${seen} (have "${api.statusText()}")`, () => api.statusText().endsWith(` · step ${seen}`), 10_000);
      } finally {
        // The speed is the scene's until changed: later tests of this scene play at the setting's rate.
        await api.receiveFromWebview(key, { type: 'playSpeed', speed: 'setting' });
        await vscode.commands.executeCommand(CommandIds.reset, uri);
        await api.whenIdle(key);
      }
    });
  });
}
