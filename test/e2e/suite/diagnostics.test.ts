// Diagnostics of the broken and redundant fixtures, with their exact ranges.
import * as assert from 'assert';
import * as vscode from 'vscode';
import { activateExtension, analysed, codeOf, describeDiagnostics, diagnosticsWithCode, fmtRange, LENS_SOURCE, LensApi, openScene, rangeOfText, sleep, waitFor } from './util';

async function theOne(api: LensApi, uri: vscode.Uri, code: string, timeout = 10_000): Promise<vscode.Diagnostic> {
  await api.whenInspected(uri.toString());
  const ds = await waitFor(`${code} on ${uri.path.split('/').pop()} (have ${describeDiagnostics(uri)})`, () => {
    const found = diagnosticsWithCode(uri, code);
    return found.length ? found : undefined;
  }, timeout);
  assert.strictEqual(ds.length, 1, `exactly one ${code}: ${describeDiagnostics(uri)}`);
  return ds[0];
}

export default function register(): void {
  suite('diagnostics', () => {
    let api: LensApi;
    suiteSetup(async () => {
      api = await activateExtension();
    });

    test('unknown body (CL201) on the offending value', async () => {
      const { uri, doc } = await openScene('broken.scene.json');
      const d = await theOne(api, uri, 'CL201');
      assert.strictEqual(codeOf(d), 'CL201-unknown-body');
      assert.strictEqual(fmtRange(d.range), fmtRange(rangeOfText(doc, '"Body_Bx"')), `CL201 range: ${d.message}`);
      assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
      assert.strictEqual(d.source, LENS_SOURCE);
      assert.match(d.message, /Body_Bx/);
    });

    test('non-positive mass (CL103) on the mass value', async () => {
      const { uri, doc } = await openScene('broken.scene.json');
      const d = await theOne(api, uri, 'CL103');
      assert.strictEqual(codeOf(d), 'CL103-non-positive-mass');
      assert.strictEqual(fmtRange(d.range), fmtRange(rangeOfText(doc, '-1.5')));
      assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Error);
    });

    test('non-unit quaternion (CL105) on the orientation', async () => {
      const { uri, doc } = await openScene('broken.scene.json');
      const d = await theOne(api, uri, 'CL105');
      assert.strictEqual(fmtRange(d.range), fmtRange(rangeOfText(doc, '[0, 0, 0, 2]')));
    });

    test('every Constraint Lens diagnostic has a stable code', async () => {
      const { uri } = await openScene('broken.scene.json');
      const ours = (await analysed(api, uri)).filter((d) => d.source === LENS_SOURCE);
      assert.ok(ours.length >= 3, describeDiagnostics(uri));
      for (const d of ours) assert.match(codeOf(d), /^CL\d{3}-[a-z-]+$/, `code of "${d.message}"`);
    });

    test('redundant constraint (CL301) on the second rod', async () => {
      const { uri, doc } = await openScene('redundant.scene.json');
      const d = await theOne(api, uri, 'CL301', 15_000);
      assert.strictEqual(codeOf(d), 'CL301-redundant-constraint');
      const copyLine = rangeOfText(doc, '"rod_copy"').start.line;
      assert.strictEqual(d.range.start.line, copyLine, `CL301 should point at the rod_copy constraint, got ${fmtRange(d.range)}: ${d.message}`);
      assert.match(d.message, /rod_copy/);
    });

    test('a valid scene has no Constraint Lens errors', async () => {
      const { uri } = await openScene('valid.scene.json');
      const errors = (await analysed(api, uri)).filter((d) => d.source === LENS_SOURCE && d.severity === vscode.DiagnosticSeverity.Error);
      assert.deepStrictEqual(errors.map((d) => `${codeOf(d)} ${d.message}`), []);
    });

    test('scene files are JSON with comments: no error from any other provider (e.g. "Comments are not permitted")', async () => {
      const { uri, doc } = await openScene('valid.scene.json');
      await analysed(api, uri);
      await sleep(1500); // VS Code's JSON language server answers asynchronously
      const others = vscode.languages.getDiagnostics(uri).filter((d) => d.source !== LENS_SOURCE && d.severity === vscode.DiagnosticSeverity.Error);
      assert.deepStrictEqual(others.map((d) => `[${d.source}] ${codeOf(d)} ${d.message}`), [], `language id: ${doc.languageId}`);
    });
  });
}
