// MuJoCo as the solver in the real extension host: Run with MuJoCo on the gear blow-up (its
// WebAssembly in a worker thread) plays it to the blow-up, and the culprit's line — the joint of the
// DOF MuJoCo flagged — carries CL701 in the Problems panel, naming the step; with the setting
// `constraintLens.import.solver` = "mujoco", Run N Steps on a model runs MuJoCo too. The run's
// read-only inspector is left open for the suite's final screenshot.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import type { MujocoRunResult } from '../../../src/extension/mujocoRunner';
import { activateExtension, codeOf, openScene, sleep, waitFor } from './util';

const MUJOCO_SOURCE = 'Constraint Lens (MuJoCo)';

const lineOf = (doc: vscode.TextDocument, needle: string): number => {
  for (let i = 0; i < doc.lineCount; i++) if (doc.lineAt(i).text.includes(needle)) return i;
  assert.fail(`no line with ${needle}`);
};

const blowUps = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === MUJOCO_SOURCE && codeOf(d) === 'CL701-mujoco-blow-up');

export default function register(): void {
  suite('MuJoCo as the solver', () => {
    suiteSetup(async () => {
      await activateExtension();
    });

    suiteTeardown(async () => {
      await vscode.workspace.getConfiguration('constraintLens').update('import.solver', undefined, vscode.ConfigurationTarget.Workspace);
    });

    test('Run with MuJoCo plays the gear chain to its blow-up; CL701 is on the culprit joint’s line in the Problems panel', async () => {
      const { uri, doc } = await openScene('gear-blowup.xml');
      const r = await vscode.commands.executeCommand<MujocoRunResult | undefined>(CommandIds.runWithMujoco, uri, 300);
      assert.ok(r, 'the run returned');
      assert.ok(r.steps > 0 && r.steps < 300, `MuJoCo stopped at the non-finite step (ran ${r.steps})`);
      await waitFor('CL701 in the Problems panel', () => blowUps(uri).length > 0, 5000);
      const [d] = blowUps(uri);
      assert.strictEqual(d.range.start.line, lineOf(doc, '<joint name="j1"'), `on the joint of the bad DOF: ${d.message}`);
      assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
      assert.match(d.message, /step \d+/);
      assert.match(d.message, /joint j1/);
      // the run's read-only inspector is open beside the model
      const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label));
      await waitFor(`the MuJoCo inspector's tab (tabs: ${tabs().join(', ')})`, () => tabs().includes('MuJoCo: gear-blowup.xml'), 5000);
    });

    test('with constraintLens.import.solver = mujoco, Run N Steps on a model runs MuJoCo', async () => {
      const { uri, doc } = await openScene('four-bar.xml');
      await vscode.workspace.getConfiguration('constraintLens').update('import.solver', 'mujoco', vscode.ConfigurationTarget.Workspace);
      await waitFor('the setting', () => vscode.workspace.getConfiguration('constraintLens').get('import.solver') === 'mujoco', 2000);
      const r = await vscode.commands.executeCommand<MujocoRunResult | number | undefined>(CommandIds.runSteps, uri, 20);
      assert.ok(typeof r === 'object' && r !== null, `a MuJoCo result, got ${String(r)}`);
      assert.strictEqual(r.steps, 20);
      // MuJoCo's own system of the four-bar has the planar loop's redundant row, named on the <connect> line
      const mine = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === MUJOCO_SOURCE && codeOf(d) === 'CL301-redundant-constraint');
      await waitFor('MuJoCo’s CL301 in the Problems panel', () => mine().length > 0, 5000);
      assert.strictEqual(mine()[0].range.start.line, lineOf(doc, '<connect'));
      // back on the gear chain for the suite's final screenshot: its MuJoCo inspector
      await vscode.commands.executeCommand(CommandIds.runWithMujoco, (await openScene('gear-blowup.xml')).uri, 300);
      // not an assertion: time for the inspector to draw before the suite's final screenshot
      await sleep(4000);
    });
  });
}
