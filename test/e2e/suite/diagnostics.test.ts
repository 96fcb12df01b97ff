// Diagnostics of the broken and redundant fixtures, with their exact ranges.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, codeOf, describeDiagnostics, diagnosticsWithCode, fmtRange, openScene, rangeOfText, waitFor } from './util';

export default function register(): void {
  suite('diagnostics', () => {
    suiteSetup(async () => {
      await activateExtension();
    });

    test('unknown body (CL201) on the offending value', async () => {
      const { uri, doc } = await openScene('broken.scene.json');
      const [d] = await waitFor(`CL201 on broken.scene.json (have ${describeDiagnostics(uri)})`, () => {
        const ds = diagnosticsWithCode(uri, 'CL201');
        return ds.length ? ds : undefined;
      }, 10_000);
      const expected = rangeOfText(doc, '"Body_Bx"');
      assert.strictEqual(fmtRange(d.range), fmtRange(expected), `CL201 range: ${d.message}`);
      assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
      assert.match(d.message, /Body_Bx/);
    });

    test('non-positive mass (CL103) on the mass value', async () => {
      const { uri, doc } = await openScene('broken.scene.json');
      const [d] = await waitFor(`CL103 (have ${describeDiagnostics(uri)})`, () => {
        const ds = diagnosticsWithCode(uri, 'CL103');
        return ds.length ? ds : undefined;
      }, 10_000);
      assert.strictEqual(fmtRange(d.range), fmtRange(rangeOfText(doc, '-1.5')));
      assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
    });

    test('non-unit quaternion (CL105) on the orientation', async () => {
      const { uri, doc } = await openScene('broken.scene.json');
      const [d] = await waitFor(`CL105 (have ${describeDiagnostics(uri)})`, () => {
        const ds = diagnosticsWithCode(uri, 'CL105');
        return ds.length ? ds : undefined;
      }, 10_000);
      assert.strictEqual(fmtRange(d.range), fmtRange(rangeOfText(doc, '[0, 0, 0, 2]')));
    });

    test('every diagnostic has a stable code and a source', async () => {
      const { uri } = await openScene('broken.scene.json');
      await waitFor('diagnostics', () => vscode.languages.getDiagnostics(uri).length > 0, 10_000);
      for (const d of vscode.languages.getDiagnostics(uri)) {
        assert.match(codeOf(d), /^CL\d{3}-[a-z-]+$/, `code of "${d.message}"`);
        assert.ok(d.source, `source of "${d.message}"`);
      }
    });

    test('redundant constraint (CL301) on the second rod', async () => {
      const { uri, doc } = await openScene('redundant.scene.json');
      const [d] = await waitFor(`CL301 on redundant.scene.json (have ${describeDiagnostics(uri)})`, () => {
        const ds = diagnosticsWithCode(uri, 'CL301');
        return ds.length ? ds : undefined;
      }, 15_000);
      const copyLine = rangeOfText(doc, '"rod_copy"').start.line;
      assert.strictEqual(d.range.start.line, copyLine, `CL301 should point at the rod_copy constraint, got ${fmtRange(d.range)}: ${d.message}`);
      assert.match(d.message, /rod_copy/);
    });

    test('a valid scene has no errors', async () => {
      const { uri } = await openScene('valid.scene.json');
      // give the (debounced) analysis time to publish anything it would
      await new Promise((r) => setTimeout(r, 1000));
      const errors = vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
      assert.deepStrictEqual(errors.map((d) => `${codeOf(d)} ${d.message}`), []);
    });
  });
}
