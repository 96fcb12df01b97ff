// Editing a scene updates its diagnostics while typing (no save).
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, describeDiagnostics, diagnosticsWithCode, openScene, rangeOfText, revert, sleep, waitFor } from './util';

export default function register(): void {
  suite('live update', () => {
    let doc: vscode.TextDocument;
    let uri: vscode.Uri;

    suiteSetup(async () => {
      await activateExtension();
      ({ doc, uri } = await openScene('live.scene.json'));
    });

    suiteTeardown(async () => {
      if (doc) await revert(doc);
    });

    test('an edit that breaks a reference shows CL201 within 2 s, and fixing it clears it', async () => {
      await sleep(500); // let the first analysis land
      assert.deepStrictEqual(diagnosticsWithCode(uri, 'CL201').map((d) => d.message), [], 'no CL201 before the edit');
      const target = rangeOfText(doc, '"Payload"', 1); // the constraint's bodyB
      const edit = new vscode.WorkspaceEdit();
      edit.replace(uri, target, '"Payloda"');
      const t0 = Date.now();
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.ok(doc.isDirty);
      const [d] = await waitFor(`CL201 after the edit (have ${describeDiagnostics(uri)})`, () => {
        const ds = diagnosticsWithCode(uri, 'CL201');
        return ds.length ? ds : undefined;
      }, 2000, 25);
      const ms = Date.now() - t0;
      assert.ok(ms <= 2000, `took ${ms} ms`);
      assert.strictEqual(d.range.start.line, target.start.line);
      assert.match(d.message, /Payloda/);

      const back = new vscode.WorkspaceEdit();
      back.replace(uri, rangeOfText(doc, '"Payloda"'), '"Payload"');
      assert.ok(await vscode.workspace.applyEdit(back));
      await waitFor(`CL201 to clear (have ${describeDiagnostics(uri)})`, () => diagnosticsWithCode(uri, 'CL201').length === 0, 2000, 25);
    });
  });
}
