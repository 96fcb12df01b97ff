// Quick fixes from the engine's fixes, applied through the code action provider.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, applyCodeAction, codeOf, describeDiagnostics, diagnosticsWithCode, LensApi, openScene, revert, waitFor } from './util';

async function actionsAt(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  const all = (await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>('vscode.executeCodeActionProvider', uri, range)) ?? [];
  // a provider may return plain Commands too (their `command` is a string); keep the CodeActions
  return all.filter((a): a is vscode.CodeAction => typeof (a as vscode.Command).command !== 'string');
}

/** Diagnostics of `code` for the document's current version. */
async function current(api: LensApi, uri: vscode.Uri, code: string): Promise<vscode.Diagnostic[]> {
  await api.whenInspected(uri.toString());
  return diagnosticsWithCode(uri, code);
}

function lineWith(text: string, ...needles: string[]): string {
  const line = text.split('\n').find((l) => needles.every((n) => l.includes(n)));
  assert.ok(line, `a line with ${needles.join(' and ')}`);
  return line;
}

function orientationOfBodyB(text: string): number[] {
  const line = lineWith(text, '"Body_B"', '"orientation"');
  const m = /"orientation"\s*:\s*\[([^\]]*)\]/.exec(line);
  assert.ok(m, `orientation array in: ${line}`);
  return m[1].split(',').map((s) => Number(s.trim()));
}

export default function register(): void {
  suite('quick fixes', () => {
    let api: LensApi;
    let doc: vscode.TextDocument;
    let uri: vscode.Uri;

    suiteSetup(async () => {
      api = await activateExtension();
      ({ doc, uri } = await openScene('quickfix.scene.json'));
    });

    suiteTeardown(async () => {
      if (doc) await revert(doc);
    });

    test('"Rename to …" fixes an unknown body and the diagnostic goes away', async () => {
      const [d] = await waitFor(`CL201 (have ${describeDiagnostics(uri)})`, async () => {
        const ds = await current(api, uri, 'CL201');
        return ds.length ? ds : undefined;
      }, 10_000);
      const actions = await actionsAt(uri, d.range);
      const rename = actions.find((a) => /^Rename to/i.test(a.title) && a.title.includes('Body_B'));
      assert.ok(rename, `no "Rename to … Body_B" among: ${actions.map((a) => a.title).join(' | ')}`);
      assert.ok(rename.kind && vscode.CodeActionKind.QuickFix.contains(rename.kind), `kind ${rename.kind?.value}`);
      // (vscode.executeCodeActionProvider does not carry `diagnostics` back; check it when present)
      if (rename.diagnostics?.length) assert.ok(rename.diagnostics.some((x) => codeOf(x) === codeOf(d)), 'the action names the diagnostic it fixes');
      await applyCodeAction(rename);
      assert.match(lineWith(doc.getText(), '"name": "rod"'), /"bodyB":\s*"Body_B"/);
      await waitFor(`CL201 to disappear (have ${describeDiagnostics(uri)})`, async () => (await current(api, uri, 'CL201')).length === 0, 3000);
    });

    test('"Normalise quaternion" makes the orientation unit length and the warning goes away', async () => {
      assert.deepStrictEqual(orientationOfBodyB(doc.getText()), [0, 0, 0, 2]);
      const [d] = await waitFor(`CL105 (have ${describeDiagnostics(uri)})`, async () => {
        const ds = await current(api, uri, 'CL105');
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
      await waitFor(`CL105 to disappear (have ${describeDiagnostics(uri)})`, async () => (await current(api, uri, 'CL105')).length === 0, 3000);
    });
  });
}
