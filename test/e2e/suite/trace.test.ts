// Trace files of other solvers open in the inspector as a read-only custom editor: a `.npz` opened
// from the Explorer (vscode.open, as a click does) shows the trace's steps, Go to Step moves it, an
// Axion HDF5 log loads h5wasm on demand, and a file with a key missing shows its diagnostic.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds, ViewIds } from '../../../src/extension/commandIds';
import { activateExtension, LensApi, waitFor, wsUri } from './util';

export default function register(): void {
  suite('trace editor', () => {
    let api: LensApi;

    suiteSetup(async () => {
      api = await activateExtension();
    });

    teardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    const tabs = (): vscode.Tab[] => vscode.window.tabGroups.all.flatMap((g) => g.tabs);

    test('a .npz opened from the Explorer shows the inspector with the trace; Go to Step moves it', async () => {
      const uri = wsUri('traces/roundtrip.npz');
      const key = uri.toString();
      await vscode.commands.executeCommand('vscode.open', uri);
      await waitFor(
        `a trace editor tab (tabs: ${tabs().map((t) => t.label).join(', ')})`,
        () => tabs().some((t) => t.input instanceof vscode.TabInputCustom && t.input.viewType === ViewIds.traceInspector && t.input.uri.toString() === key),
        10_000,
      );
      const p = await waitFor(`the trace's model posted (${JSON.stringify(api.traceEditor(key))})`, () => {
        const q = api.traceEditor(key);
        return q?.fed && q.postedTypes.includes('model') ? q : undefined;
      }, 30_000, 100);
      assert.strictEqual(p.format, 'npz');
      assert.strictEqual(p.steps, 4);
      assert.deepStrictEqual(p.diagnostics, []);
      // numpy: step 0 of the writer's round trip is the rod alone, κ = 1
      assert.deepStrictEqual(p.model?.rows, ['rod']);
      assert.ok(Math.abs((p.model?.cond ?? NaN) - 1) < 1e-12, `κ ${p.model?.cond}`);
      assert.strictEqual(p.model?.traceSteps, 4);
      // the panel's timeline asks for a step as it does for a scene's run
      assert.ok(api.traceReceiveFromWebview(key, { type: 'requestSnapshot', step: 1 }));
      await waitFor('the snapshot of step 1', () => api.traceEditor(key)?.lastSnapshotStep === 1, 10_000);
      // Go to Step with the trace in front
      const shown = await vscode.commands.executeCommand<number | undefined>(CommandIds.goToStep, undefined, 3);
      assert.strictEqual(shown, 3);
      await waitFor('the snapshot of step 3', () => api.traceEditor(key)?.lastSnapshotStep === 3, 10_000);
    });

    test("an Axion HDF5 log is read (h5wasm loaded on demand) with its Newton iterations' steps", async () => {
      const uri = wsUri('traces/axion-newton.h5');
      const key = uri.toString();
      await vscode.commands.executeCommand('vscode.openWith', uri, ViewIds.traceInspector);
      const p = await waitFor(`the Axion trace's model (${JSON.stringify(api.traceEditor(key))})`, () => {
        const q = api.traceEditor(key);
        return q?.postedTypes.includes('model') ? q : undefined;
      }, 30_000, 100);
      assert.strictEqual(p.format, 'axion');
      assert.strictEqual(p.steps, 2);
      assert.strictEqual(p.model?.rows.length, 6);
    });

    test('a trace with a key missing shows its CL802 diagnostic in the editor instead of failing', async () => {
      const uri = wsUri('traces/missing-mass.npz');
      const key = uri.toString();
      await vscode.commands.executeCommand('vscode.open', uri);
      const p = await waitFor(`the error posted (${JSON.stringify(api.traceEditor(key))})`, () => {
        const q = api.traceEditor(key);
        return q?.postedTypes.includes('error') ? q : undefined;
      }, 30_000, 100);
      assert.ok(!p.postedTypes.includes('model'), p.postedTypes.join(', '));
      assert.ok(p.diagnostics.some((d) => d.startsWith('CL802')), JSON.stringify(p.diagnostics));
      assert.strictEqual(p.model, undefined);
    });
  });
}
