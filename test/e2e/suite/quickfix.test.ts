// Quick fixes from the engine's fixes, applied through the code action provider.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, applyCodeAction, describeDiagnostics, diagnosticsWithCode, openScene, revert, waitFor } from './util';

async function actionsAt(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const all = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, range)) ?? [];
  // a provider may return plain Commands too (their `command` is a string); keep the CodeActions
  return all.filter((a): a is vscode.CodeAction => typeof (a as vscode.Command).command !== 'string');
}

function orientationOfBodyB(text: string): number[] {
  const line = text.split('\n').find((l) => l.includes('"Body_B"') && l.includes('"orientation"'));
  assert.ok(line, 'Body_B line with an orientation');
  const m = /"orientation"\s*:\s*\[([^\]]*)\]/.exec(line);
  assert.ok(m, `orientation array in: ${line}`);
  return m[1].split(',').map((s) => Number(s.trim()));
}

export default function register(): void {
  suite('quick fixes', () => {
    let doc: vscode.TextDocument;
    let uri: vscode.Uri;

    suiteSetup(async () => {
      await activateExtension();
      ({ doc, uri } = await openScene('quickfix.scene.json'));
    });

    suiteTeardown(async () => {
      if (doc) await revert(doc);
    });

    test('"Rename to …" fixes an unknown body and the diagnostic goes away', async () => {
      const [d] = await waitFor(`CL201 (have ${describeDiagnostics(uri)})`, () => {
        const ds = diagnosticsWithCode(uri, 'CL201');
        return ds.length ? ds : undefined;
      }, 10_000);
      const actions = await waitFor('code actions on CL201', async () => {
        const a = await actionsAt(uri, d.range);
        return a.length ? a : undefined;
      }, 5000);
      const rename = actions.find((a) => /^Rename to/i.test(a.title) && a.title.includes('Body_B'));
      assert.ok(rename, `no "Rename to … Body_B" among: ${actions.map((a) => a.title).join(' | ')}`);
      assert.ok(!rename.kind || vscode.CodeActionKind.QuickFix.contains(rename.kind), `kind ${rename.kind?.value}`);
      await applyCodeAction(rename);
      assert.match(doc.getText(), /"bodyB":\s*"Body_B"/);
      assert.doesNotMatch(doc.getText(), /Body_Bx/);
      await waitFor(`CL201 to disappear (have ${describeDiagnostics(uri)})`, () => diagnosticsWithCode(uri, 'CL201').length === 0, 3000);
    });

    test('"Normalise quaternion" makes the orientation unit length and the warning goes away', async () => {
      assert.deepStrictEqual(orientationOfBodyB(doc.getText()), [0, 0, 0, 2]);
      const [d] = await waitFor(`CL105 (have ${describeDiagnostics(uri)})`, () => {
        const ds = diagnosticsWithCode(uri, 'CL105');
        return ds.length ? ds : undefined;
      }, 10_000);
      const actions = await actionsAt(uri, d.range);
      const fix = actions.find((a) => /normali[sz]e/i.test(a.title));
      assert.ok(fix, `no "Normalise quaternion" among: ${actions.map((a) => a.title).join(' | ')}`);
      await applyCodeAction(fix);
      const q = orientationOfBodyB(doc.getText());
      assert.strictEqual(q.length, 4);
      assert.ok(Math.abs(Math.hypot(...q) - 1) < 1e-9, `|q| = ${Math.hypot(...q)} for ${q}`);
      assert.deepStrictEqual(q, [0, 0, 0, 1]);
      await waitFor(`CL105 to disappear (have ${describeDiagnostics(uri)})`, () => diagnosticsWithCode(uri, 'CL105').length === 0, 3000);
    });
  });
}
