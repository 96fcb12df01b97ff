// One truth across the views, in the real VS Code: the status bar and CodeLens show the current
// step's κ (step 0 named), the Problems panel has VS Code's JSON syntax error but no duplicate
// CL001, and "Remove redundant constraint" leaves its neighbours' text exactly as it was.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { inspectScene, Simulation } from '../../../src/engine';
import { CommandIds } from '../../../src/extension/commandIds';
import { formatCond } from '../../../src/shared';
import { activateExtension, analysed, applyCodeAction, codeOf, describeDiagnostics, LENS_SOURCE, LensApi, openScene, revert, waitFor } from './util';

/** `κ … · rank r/m · step k` for step k of the document's scene, computed here by the engine. */
function expectedStatus(text: string, k: number): string {
  const r = inspectScene(text);
  assert.ok(r.parse.scene && r.snapshot, 'the fixture is analysed');
  const rows = r.snapshot.rank.rows;
  if (k === 0) return `κ ${formatCond(r.snapshot.cond.A, { estimated: r.snapshot.condEstimated, rows })} · rank ${r.snapshot.rank.J}/${rows} · step 0`;
  const sim = new Simulation(r.parse.scene, r.parse.sourceMap);
  const rec = sim.step(k)[k - 1];
  return `κ ${formatCond(rec.cond.A, { estimated: rec.condEstimated, rows })} · rank ${rec.rank}/${rows} · step ${k}`;
}

async function lensTitles(uri: vscode.Uri): Promise<string[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
  return lenses.map((l) => l.command?.title ?? '');
}

export default function register(): void {
  suite('one truth across the views', () => {
    let api: LensApi;
    suiteSetup(async () => {
      api = await activateExtension();
    });

    test('status bar and CodeLens: step 0 named, Step ×3 shows step 3’s κ, Go to Step and Reset follow', async () => {
      const { uri, doc } = await openScene('pendulum.scene.json');
      const key = uri.toString();
      await api.whenInspected(key);
      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await api.whenIdle(key);
      const text = doc.getText();
      const step0 = expectedStatus(text, 0);
      const step3 = expectedStatus(text, 3);
      assert.notStrictEqual(step3.replace(/ · step \d+$/, ''), step0.replace(/ · step \d+$/, ''), 'the fixture’s κ changes within 3 steps');

      await waitFor(`status "${step0}" (have "${api.statusText()}")`, () => api.statusText().endsWith(step0), 5000);
      for (let i = 0; i < 3; i++) await vscode.commands.executeCommand(CommandIds.step, uri);
      assert.strictEqual(api.currentStep(key), 3);
      await waitFor(`status "${step3}" (have "${api.statusText()}")`, () => api.statusText().endsWith(step3), 5000);
      await waitFor(`a CodeLens with "${step3}"`, async () => (await lensTitles(uri)).some((t) => t.startsWith(step3)), 5000);

      // Go to Step 1 (the inspector opens beside; the editor keeps focus): the views show step 1.
      const step1 = expectedStatus(text, 1);
      await vscode.commands.executeCommand(CommandIds.goToStep, uri, 1);
      await vscode.window.showTextDocument(doc, { preview: false });
      await waitFor(`status "${step1}" (have "${api.statusText()}")`, () => api.statusText().endsWith(step1), 5000);

      await vscode.commands.executeCommand(CommandIds.reset, uri);
      await api.whenIdle(key);
      await waitFor(`status "${step0}" after Reset (have "${api.statusText()}")`, () => api.statusText().endsWith(step0), 5000);
      await waitFor(`a CodeLens with "${step0}"`, async () => (await lensTitles(uri)).some((t) => t.startsWith(step0)), 5000);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    test('a syntax error: VS Code’s JSON error is in the Problems panel, no CL001 from Constraint Lens', async () => {
      const { uri, doc } = await openScene('syntax.scene.json');
      assert.strictEqual(doc.languageId, 'jsonc');
      const ours = await analysed(api, uri);
      const result = api.inspect(uri.toString());
      const cl001 = result?.diagnostics.find((d) => d.code.startsWith('CL001'));
      assert.ok(cl001, 'the engine finds the syntax error (the CLI and the panel list it)');
      const line = cl001.range.start.line;
      const json = await waitFor(
        `VS Code's JSON error on line ${line + 1} (have ${describeDiagnostics(uri)})`,
        () => {
          const others = vscode.languages.getDiagnostics(uri).filter((d) => d.source !== LENS_SOURCE && d.severity === vscode.DiagnosticSeverity.Error && d.range.start.line === line);
          return others.length ? others : undefined;
        },
        20_000,
        100,
      );
      assert.ok(json.length >= 1);
      const lens = vscode.languages.getDiagnostics(uri).filter((d) => d.source === LENS_SOURCE);
      assert.deepStrictEqual(lens.filter((d) => codeOf(d).startsWith('CL001')).map((d) => d.message), [], 'no duplicate CL001');
      assert.ok(ours.every((d) => !codeOf(d).startsWith('CL001')));
    });

    test('"Remove redundant constraint" removes the copy’s line only: the neighbours keep their formatting and comments', async () => {
      const { uri, doc } = await openScene('layout.scene.json');
      try {
        const before = doc.getText();
        const [d] = await waitFor(`CL301 (have ${describeDiagnostics(uri)})`, async () => {
          await api.whenInspected(uri.toString());
          const ds = vscode.languages.getDiagnostics(uri).filter((x) => codeOf(x).startsWith('CL301'));
          return ds.length ? ds : undefined;
        }, 15_000);
        const all = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, d.range)) ?? [];
        const fix = all.find((a): a is vscode.CodeAction => typeof (a as vscode.Command).command !== 'string' && /^Remove redundant constraint/.test(a.title));
        assert.ok(fix, `no "Remove redundant constraint" among: ${all.map((a) => a.title).join(' | ')}`);
        await applyCodeAction(fix);
        const eol = doc.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n';
        const copyLine = before.split(eol).find((l) => l.includes('"rod_copy"'));
        assert.ok(copyLine);
        assert.strictEqual(doc.getText(), before.replace(copyLine + eol, ''), 'exactly the copy’s line is gone');
        await waitFor(`CL301 to disappear (have ${describeDiagnostics(uri)})`, async () => {
          await api.whenInspected(uri.toString());
          return vscode.languages.getDiagnostics(uri).every((x) => !codeOf(x).startsWith('CL301'));
        }, 5000);
      } finally {
        await revert(doc);
      }
    });
  });
}
