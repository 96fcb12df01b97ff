// Untrusted model files: <include> only from the workspace folder (no escape by "..", absolute paths,
// links or URLs; cycles and missing files diagnosed), malformed XML and non-models as diagnostics with
// ranges, never exceptions; which files are models at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Codes } from '../../src/engine';
import { isModelFile, loadModel, nodeFileAccess, type FileAccess } from '../../src/import/index';
import { parseXml, XML_LIMITS } from '../../src/import/xml';
import { checkMassProperties, FIXTURES, importFixture, lineOf, mujocoReference } from './import-helpers';

test('an include inside the workspace is read; diagnostics of included elements land on the <include> with file and line', async () => {
  const r = await importFixture('include-ok.xml');
  const ref = await mujocoReference('include-ok.xml');
  checkMassProperties(r.snapshot!, ref);
  const includeLine = lineOf(r.text, '<include');
  assert.equal(r.parse.sourceMap.rangeOf(['bodies', 0]).start.line, includeLine);
  assert.equal(r.parse.sourceMap.rangeOf(['constraints', 0, 'name']).start.line, includeLine, 'no name span inside another file');
  // the included joint's limits are converted (the velocity formulation solves them); a note about an
  // included element, when there is one, lands on the <include> and says the file and line
  assert.ok(r.parse.scene!.constraints.some((c) => c.limits), 'the included joint keeps its limits');
  const note = r.diagnostics.find((d) => d.code === Codes.notSimulated);
  if (note?.related?.length) assert.equal(note.related[0].range.start.line, includeLine);
});

/** File access that records every path it is asked for. */
function spyAccess(root: string): FileAccess & { asked: string[] } {
  const base = nodeFileAccess(root);
  const asked: string[] = [];
  return { ...base, asked, readFile: (p) => (asked.push(p), base.readFile(p)) };
}

test('security: <include file="../../etc/passwd"> is refused on its line and never read', async () => {
  const path = join(FIXTURES, 'include-escape.xml');
  const text = readFileSync(path, 'utf8');
  const access = spyAccess(FIXTURES);
  const r = await loadModel(path, text, { files: access });
  assert.equal(r.scene, undefined);
  assert.equal(r.diagnostics.length, 1);
  const d = r.diagnostics[0];
  assert.equal(d.code, Codes.fileRefused);
  assert.equal(d.severity, 'error');
  assert.equal(d.range.start.line, lineOf(text, '<include'));
  assert.match(d.message, /"\.\.\/\.\.\/etc\/passwd" is outside the workspace folder/);
  assert.deepEqual(access.asked, [], 'nothing was read');
});

test('security: absolute paths, URLs, links out of the workspace, missing files and include cycles are refused', async () => {
  const ws = mkdtempSync(join(tmpdir(), 'cl-import-ws-'));
  const outside = mkdtempSync(join(tmpdir(), 'cl-import-out-'));
  writeFileSync(join(outside, 'secret.xml'), '<mujoco><worldbody><body name="s"><freejoint/><geom size="0.1"/></body></worldbody></mujoco>');
  mkdirSync(join(ws, 'sub'));
  symlinkSync(join(outside, 'secret.xml'), join(ws, 'sub', 'link.xml'));
  writeFileSync(join(ws, 'a.xml'), '<mujoco><include file="b.xml"/></mujoco>');
  writeFileSync(join(ws, 'b.xml'), '<mujoco><include file="a.xml"/></mujoco>');
  const cases: [string, RegExp][] = [
    [join(outside, 'secret.xml'), /is outside the workspace folder/],
    ['https://example.com/model.xml', /is a URL/],
    ['sub/link.xml', /is a link to .*secret\.xml, outside the workspace folder/],
    ['nope.xml', /was not found/],
    ['a.xml', /includes itself \(m\.xml → a\.xml → b\.xml → a\.xml\)/],
  ];
  for (const [file, message] of cases) {
    const text = `<mujoco>\n  <include file="${file}"/>\n</mujoco>`;
    const access = spyAccess(ws);
    const r = await loadModel(join(ws, 'm.xml'), text, { files: access });
    const d = r.diagnostics.find((x) => x.code === Codes.fileRefused);
    assert.ok(d, file);
    assert.match(d.message, message);
    assert.equal(d.range.start.line, 1, `${file}: on the <include> line`);
    assert.ok(access.asked.every((p) => p.startsWith(ws)), `${file}: read only inside the workspace: ${access.asked}`);
  }
});

test('malformed XML is a diagnostic at the offending position, never an exception', async () => {
  const cases: [string, number][] = [
    ['<mujoco>\n  <worldbody>\n    <body>\n  </worldbody>\n</mujoco>', 3],
    ['<mujoco>\n  <worldbody attr="1" attr="2"/>\n</mujoco>', 1],
    ['<mujoco>\n  <option timestep="0.01>\n</mujoco>', 2],
    ['<mujoco>&undefined;</mujoco>', 0],
    ['', 0],
    ['\u0000\u0001', 0],
  ];
  for (const [text, line] of cases) {
    const r = await loadModel('/virtual/m.xml', text, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });
    assert.equal(r.scene, undefined, JSON.stringify(text));
    assert.ok(r.hasErrors);
    assert.equal(r.diagnostics[0].code, Codes.xmlSyntax, JSON.stringify(text));
    assert.equal(r.diagnostics[0].range.start.line, line, JSON.stringify(text));
  }
  const notModel = await loadModel('/virtual/m.xml', '<?xml version="1.0"?>\n<svg width="1"/>');
  assert.equal(notModel.diagnostics[0].code, Codes.notAModel);
  assert.equal(notModel.diagnostics[0].range.start.line, 1);
  // MuJoCo's own errors land on the element they name.
  const bad = '<mujoco>\n  <worldbody>\n    <body name="b">\n      <joint type="spin"/>\n      <geom size="0.1"/>\n    </body>\n  </worldbody>\n</mujoco>';
  const m = await loadModel('/virtual/m.xml', bad, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });
  assert.equal(m.diagnostics[0].code, Codes.mujocoError);
  assert.equal(m.diagnostics[0].range.start.line, 3);
  assert.match(m.diagnostics[0].message, /invalid keyword: 'spin'/);
});

test('bounded: deep nesting and huge files stop with a diagnostic', () => {
  const deep = '<mujoco>' + '<a>'.repeat(XML_LIMITS.maxDepth + 5) + '</a>'.repeat(XML_LIMITS.maxDepth + 5) + '</mujoco>';
  const d = parseXml(deep);
  assert.match(d.errors[0].message, /nested more than 1000 deep/);
  const big = parseXml(' '.repeat(XML_LIMITS.maxChars + 1));
  assert.match(big.errors[0].message, /larger than/);
});

test('which files are models: .urdf, and .xml with a <mujoco> root; other XML is left alone', () => {
  assert.ok(isModelFile('robot.urdf', '<robot/>'));
  assert.ok(isModelFile('a/b/model.XML', '<?xml version="1.0"?>\n<!-- hi -->\n<mujoco model="x">'));
  assert.ok(isModelFile('m.xml', '\ufeff<mujoco>'));
  assert.ok(!isModelFile('pom.xml', '<project/>'));
  assert.ok(!isModelFile('m.xml', '<mujocox/>'));
  assert.ok(!isModelFile('m.scene.json', '{}'));
});

test('mesh assets are read from the workspace (meshdir) and give MuJoCo\'s mass; a missing mesh is refused on its element', async () => {
  const r = await importFixture('mesh.xml');
  const body = r.parse.scene!.bodies[0];
  assert.ok(Math.abs(body.mass - 1000 * (0.1 ** 3 / 6)) < 1e-6, `tetrahedron mass ${body.mass}`);
  // the mesh collides as its convex hull: MuJoCo's hull of the tetrahedron, its four corners
  const hull = body.shapes[0];
  assert.ok(hull.type === 'convex' && hull.vertices.length === 4, JSON.stringify(hull));
  const text = r.text.replace('tet.obj', 'gone.obj');
  const m = await loadModel(join(FIXTURES, 'mesh.xml'), text, { files: nodeFileAccess(FIXTURES) });
  const d = m.diagnostics.find((x) => x.code === Codes.fileRefused)!;
  assert.equal(d.range.start.line, lineOf(text, '<mesh'));
  assert.match(d.message, /Asset file \(mesh file\) "assets\/gone\.obj" was not found/);
});
