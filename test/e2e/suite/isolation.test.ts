// MuJoCo isolated in the real extension host: a model that crashes MuJoCo's WebAssembly (a 3 GB
// arena it cannot allocate, past every precheck) gets CL612 on its file, and a good model opened
// next in the same window compiles on a fresh instance: its own diagnostics, no error, the numbers
// of the four-bar (rank 17 of 18 rows), and it steps.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import { activateExtension, analysed, codeOf, describeDiagnostics, LENS_SOURCE, LensApi, openScene } from './util';

export default function register(): void {
  suite('MuJoCo isolation', () => {
    let api: LensApi;

    suiteSetup(async () => {
      api = await activateExtension();
    });

    suiteTeardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('a model that crashes MuJoCo, then a good model in the same window: CL612 on the first, the second imports without errors', async () => {
      const bad = await openScene('crash-memory.xml');
      const badDiagnostics = (await analysed(api, bad.uri)).filter((d) => d.source === LENS_SOURCE);
      const crashed = badDiagnostics.filter((d) => codeOf(d) === 'CL612-mujoco-crashed');
      assert.strictEqual(crashed.length, 1, describeDiagnostics(bad.uri));
      assert.strictEqual(crashed[0].severity, vscode.DiagnosticSeverity.Error);
      assert.match(crashed[0].message, /discarded; other models are not affected/);
      assert.strictEqual(api.inspect(bad.uri.toString())?.snapshot, undefined, 'nothing analysed from the crashed model');

      const good = await openScene('after-crash.xml');
      const key = good.uri.toString();
      const ours = (await analysed(api, good.uri)).filter((d) => d.source === LENS_SOURCE);
      const errors = ours.filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
      assert.deepStrictEqual(errors.map((d) => `${codeOf(d)} ${d.message}`), [], describeDiagnostics(good.uri));
      assert.ok(ours.some((d) => codeOf(d) === 'CL301-redundant-constraint'), `the four-bar's own finding: ${describeDiagnostics(good.uri)}`);
      const r = api.inspect(key);
      assert.strictEqual(r?.snapshot?.rank.rows, 18);
      assert.strictEqual(r?.snapshot?.rank.J, 17);
      await vscode.commands.executeCommand(CommandIds.reset, good.uri);
      await vscode.commands.executeCommand(CommandIds.step, good.uri);
      assert.strictEqual(api.currentStep(key), 1);
      await vscode.commands.executeCommand(CommandIds.reset, good.uri);
    });
  });
}
