// MJCF and URDF models in the real extension host: the four-bar MJCF gets the engine's diagnostics on
// its XML (the redundant row on the <connect> line), no JSON quick fixes, Step, the inspector with the
// MuJoCo section after Compare with MuJoCo, CodeLens, Run, the tree and Export Report, Export as Scene
// (never overwriting), Choose Keyframe; a URDF with a mimic and an MJCF with an <include> read through
// the workspace; other XML left alone.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { CommandIds } from '../../../src/extension/commandIds';
import type { MujocoSection } from '../../../src/protocol';
import { activateExtension, analysed, codeOf, describeDiagnostics, LENS_SOURCE, LensApi, openScene, revert, sleep, waitFor, wsUri } from './util';

const lineOf = (doc: vscode.TextDocument, needle: string): number => {
  for (let i = 0; i < doc.lineCount; i++) if (doc.lineAt(i).text.includes(needle)) return i;
  assert.fail(`no line with ${needle}`);
};

export default function register(): void {
  suite('MJCF and URDF models', () => {
    let api: LensApi;

    suiteSetup(async () => {
      api = await activateExtension();
    });

    suiteTeardown(async () => {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('four-bar.xml: the redundant row is reported on the <connect> line, with the rows it depends on', async () => {
      const { uri, doc } = await openScene('four-bar.xml');
      const all = await analysed(api, uri);
      const ours = all.filter((d) => d.source === LENS_SOURCE);
      const red = ours.filter((d) => codeOf(d) === 'CL301-redundant-constraint');
      assert.strictEqual(red.length, 1, describeDiagnostics(uri));
      assert.strictEqual(red[0].range.start.line, lineOf(doc, '<connect'), 'on the <connect> element');
      assert.match(red[0].message, /close/);
      assert.ok((red[0].relatedInformation ?? []).length > 0, 'related: the rows it depends on');
      assert.ok(ours.every((d) => codeOf(d) !== 'CL601-xml-syntax'));
      const r = api.inspect(uri.toString());
      assert.strictEqual(r?.snapshot?.rank.rows, 18);
      assert.strictEqual(r?.snapshot?.rank.J, 17);
    });

    test('no quick fix from Constraint Lens on XML (its fixes edit JSON)', async () => {
      const { uri, doc } = await openScene('four-bar.xml');
      await analysed(api, uri);
      const line = lineOf(doc, '<connect');
      const actions = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, doc.lineAt(line).range)) ?? [];
      const ours = actions.filter((a) => 'diagnostics' in a && (a.diagnostics ?? []).some((d) => d.source === LENS_SOURCE));
      assert.deepStrictEqual(ours.map((a) => a.title), []);
    });

    test('Step and the status bar work on a model', async () => {
      const { uri } = await openScene('four-bar.xml');
      const key = uri.toString();
      await analysed(api, uri);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await vscode.commands.executeCommand(CommandIds.step, uri);
      await vscode.commands.executeCommand(CommandIds.step, uri);
      assert.strictEqual(api.currentStep(key), 2);
      await waitFor(`the status bar (${api.statusText()})`, () => /κ .* · rank 17\/18/.test(api.statusText()), 10_000);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
    });

    test('the inspector opens for a model and shows the MuJoCo section after Compare with MuJoCo', async () => {
      const { uri } = await openScene('four-bar.xml');
      const key = uri.toString();
      await analysed(api, uri);
      assert.strictEqual(api.mujocoSection(key)?.status, 'idle');
      await vscode.commands.executeCommand(CommandIds.openInspector, uri);
      await waitFor('the inspector of four-bar.xml to say ready', () => api.panelFor(key)?.lastMessageFromWebview !== undefined, 30_000, 100);
      await waitFor('the model posted', () => api.panelFor(key)?.postedTypes.includes('model'), 10_000);
      const section = await vscode.commands.executeCommand<MujocoSection | undefined>(CommandIds.compareWithMujoco, uri);
      assert.strictEqual(section?.status, 'done', JSON.stringify(section?.error));
      const c = section.comparison!;
      assert.strictEqual(c.equalities.length, 1);
      const e = c.equalities[0];
      assert.deepStrictEqual([e.name, e.type, e.constraint], ['close', 'connect', 'close']);
      assert.strictEqual(e.mujocoForce.length, 3);
      assert.strictEqual(e.violation.mujoco.length, c.steps + 1);
      assert.ok((e.violation.oursMax ?? 1) < 1e-9 && (e.violation.mujocoMax ?? 0) > 1e-6, 'the exact solve holds the loop, MuJoCo\'s soft connect sags');
      await waitFor('the section posted to the panel', () => api.panelFor(key)?.postedTypes.includes('mujoco'), 10_000);
      assert.strictEqual(api.mujocoSection(key)?.status, 'done');
      // An edit makes the comparison stale: back to idle.
      const edit = new vscode.WorkspaceEdit();
      const doc = await vscode.workspace.openTextDocument(uri);
      edit.insert(uri, doc.lineAt(1).range.end, ' ');
      await vscode.workspace.applyEdit(edit);
      await api.whenInspected(key);
      await waitFor('the section idle after the edit', () => api.mujocoSection(key)?.status === 'idle', 10_000);
      await revert(doc);
    });

    test('Compare with MuJoCo on a model without equalities compares the runs in joint space', async () => {
      const { uri } = await openScene('swing-rail.xml');
      const key = uri.toString();
      await analysed(api, uri);
      await vscode.commands.executeCommand(CommandIds.openInspector, uri);
      await waitFor('the model posted', () => api.panelFor(key)?.postedTypes.includes('model'), 30_000, 100);
      const section = await vscode.commands.executeCommand<MujocoSection | undefined>(CommandIds.compareWithMujoco, uri);
      assert.strictEqual(section?.status, 'done', JSON.stringify(section?.error));
      const c = section.comparison!;
      assert.strictEqual(c.equalities.length, 0);
      const t = c.trajectory!;
      assert.deepStrictEqual(t.joints.map((j) => [j.name, j.type, j.constraint]), [['swing', 'hinge', 'swing'], ['rail', 'slide', 'rail']]);
      const [swing, rail] = t.joints;
      assert.strictEqual(swing.ours.q.length, t.samples.length);
      assert.ok((swing.dq.max ?? 1) < 1e-2 && (swing.dq.max ?? 0) > 0, `over the scene's second the pendulum within 1e-2 rad of MuJoCo's (${swing.dq.max})`);
      assert.ok((rail.dq.max ?? 1) < 1e-9, `the rail as MuJoCo's to round-off (${rail.dq.max})`);
      assert.deepStrictEqual(t.bodies.map((b) => b.name).sort(), ['arm', 'block']);
      await waitFor('the section posted to the panel', () => api.panelFor(key)?.postedTypes.includes('mujoco'), 10_000);
    });

    test('CodeLens, Run, the tree (a reveal from the inspector) and Export Report work on a model', async () => {
      const { uri } = await openScene('four-bar.xml');
      const key = uri.toString();
      await analysed(api, uri);
      const lenses = ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? []).map((l) => l.command?.title ?? '');
      assert.ok(lenses.some((t) => /rank 17\/18/.test(t)), `the κ/rank lens: ${JSON.stringify(lenses)}`);
      assert.ok(lenses.some((t) => /Run/.test(t)), `a Run lens: ${JSON.stringify(lenses)}`);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await vscode.commands.executeCommand(CommandIds.runSteps, uri, 20);
      await api.whenIdle(key);
      assert.strictEqual(api.currentStep(key), 20);
      // The inspector (open from the test above) reveals the connect: the tree selects it, the editor shows its element.
      await vscode.commands.executeCommand(CommandIds.openInspector, uri);
      await waitFor('the inspector of four-bar.xml', () => api.panelFor(key)?.postedTypes.includes('model'), 30_000, 100);
      const close = api.inspect(key)!.snapshot!.constraints.findIndex((c) => c.name === 'close');
      // The tree's view made visible first (a hidden view is never opened), the model's editor shown.
      await vscode.commands.executeCommand('constraintLens.sceneTree.focus');
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One, preview: false });
      await sleep(300);
      assert.strictEqual(await api.receiveFromWebview(key, { type: 'reveal', constraintIndex: close }), true);
      await waitFor(`the tree to select close (${JSON.stringify(api.treeSelection())})`, () => api.treeSelection().includes('constraint:close'), 5000);
      await waitFor('the editor on the <connect> line', () => vscode.window.activeTextEditor?.document.uri.toString() === key && vscode.window.activeTextEditor.selection.start.line === lineOf(doc, '<connect'), 5000);
      const target = wsUri('four-bar.report.html');
      await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
      assert.strictEqual(await vscode.commands.executeCommand<string | undefined>(CommandIds.exportReport, uri, target), target.toString());
      const html = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      assert.match(html, /^<!DOCTYPE html>/i);
      assert.match(html, /four-bar\.xml/);
      await vscode.workspace.fs.delete(target);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
    });

    test('Export as Scene writes the converted scene and never overwrites without consent', async () => {
      const { uri } = await openScene('four-bar.xml');
      await analysed(api, uri);
      const target = wsUri('four-bar.exported.scene.json');
      await vscode.workspace.fs.delete(target).then(undefined, () => undefined);
      const written = await vscode.commands.executeCommand<string | undefined>(CommandIds.exportScene, uri, target);
      assert.strictEqual(written, target.toString());
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(target));
      assert.match(text, /^\/\/ Converted from four-bar\.xml by Constraint Lens\./);
      // The exported scene is a scene: the extension analyses it with no diagnostic but the redundancy.
      const diags = (await analysed(api, target)).filter((d) => d.source === LENS_SOURCE);
      assert.deepStrictEqual(diags.map(codeOf), ['CL301-redundant-constraint'], describeDiagnostics(target));
      await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('// mine\n{}'));
      assert.strictEqual(await vscode.commands.executeCommand(CommandIds.exportScene, uri, target), undefined, 'an existing file is not replaced');
      assert.strictEqual(new TextDecoder().decode(await vscode.workspace.fs.readFile(target)), '// mine\n{}');
      assert.strictEqual(await vscode.commands.executeCommand(CommandIds.exportScene, uri, target, { overwrite: true }), target.toString());
      await vscode.workspace.fs.delete(target);
    });

    test('Choose Keyframe re-analyses the model from the key; qpos0 again', async () => {
      const { uri } = await openScene('joint-equality.xml');
      const key = uri.toString();
      await analysed(api, uri);
      const gear = () => api.inspect(key)?.snapshot?.constraints.find((c) => c.name === 'gear')?.violation ?? NaN;
      assert.ok(Math.abs(gear() - 0.05) < 1e-12, `at qpos0 the gear's offset is violated by 0.05 (${gear()})`);
      assert.strictEqual(await vscode.commands.executeCommand(CommandIds.chooseKeyframe, uri, 'tilted'), 'tilted');
      assert.deepStrictEqual(api.mujocoSection(key)?.keyframes, ['rest', 'tilted']);
      assert.strictEqual(api.mujocoSection(key)?.keyframe, 'tilted');
      assert.ok(Math.abs(gear() - 0.05) > 0.1, `from the key the gear starts violated differently (${gear()})`);
      assert.strictEqual(await vscode.commands.executeCommand(CommandIds.chooseKeyframe, uri, null), 'qpos0');
      assert.ok(Math.abs(gear() - 0.05) < 1e-12);
    });

    test('a URDF with a mimic, and an MJCF whose <include> is read from the workspace', async () => {
      const urdf = (await openScene('arm-gripper.urdf')).uri;
      const diags = (await analysed(api, urdf)).filter((d) => d.source === LENS_SOURCE);
      assert.ok(!diags.some((d) => d.severity === vscode.DiagnosticSeverity.Error), describeDiagnostics(urdf));
      const r = api.inspect(urdf.toString());
      assert.ok(r?.parse.scene?.constraints.some((c) => c.type === 'coupler'), 'the mimic is a coupler');
      const inc = (await openScene('include-ok.xml')).uri;
      const d2 = (await analysed(api, inc)).filter((d) => d.source === LENS_SOURCE);
      assert.ok(!d2.some((d) => codeOf(d).startsWith('CL603')), `the include is read: ${describeDiagnostics(inc)}`);
      assert.ok((api.inspect(inc.toString())?.parse.scene?.bodies.length ?? 0) > 0, 'the included body is there');
    });

    test('other XML is left alone: no analysis, no diagnostics', async () => {
      const { uri } = await openScene('not-a-model.xml');
      await sleep(1500);
      assert.strictEqual(api.inspect(uri.toString()), undefined);
      assert.deepStrictEqual(vscode.languages.getDiagnostics(uri).filter((d) => d.source === LENS_SOURCE), []);
      assert.strictEqual(api.mujocoSection(uri.toString()), undefined);
    });
  });
}
