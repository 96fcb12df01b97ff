// Which documents the extension analyses, and how it activates for them: scenes, URDF files and
// MJCF models (.xml with a <mujoco> root, decided from the first MiB, whatever precedes the root), never other
// XML; a model's analysis carries no JSON quick fixes; the activation events and the .urdf language
// association in package.json.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectScene } from '../../src/engine';
import { exportStem, exportedSceneName, fileKindOf, isModelKind, isModelPath, mayBeAnalysed, MODEL_HEAD_CHARS, withoutFixes } from '../../src/extension/logic/fileKind';
import { isModelFile, modelFormatOf } from '../../src/import/kind';

const ROOT = join(__dirname, '..', '..');
const file = (path: string) => ({ scheme: 'file', path });

test('kinds: *.scene.json, *.urdf and an .xml with a <mujoco> root; other files and schemes are left alone', () => {
  const never = () => assert.fail('the text of a scene or a URDF is never read');
  assert.equal(fileKindOf(file('/w/a.scene.json'), never), 'scene');
  assert.equal(fileKindOf(file('/w/A.SCENE.JSON'), never), 'scene');
  assert.equal(fileKindOf(file('/w/arm.urdf'), never), 'urdf');
  assert.equal(fileKindOf(file('/w/arm.URDF'), never), 'urdf');
  assert.equal(fileKindOf(file('/w/four-bar.xml'), () => '<mujoco model="x">\n</mujoco>'), 'mjcf');
  assert.equal(fileKindOf(file('/w/pom.xml'), () => '<?xml version="1.0"?>\n<project></project>'), undefined);
  assert.equal(fileKindOf(file('/w/robot.xml'), () => '<robot name="r"/>'), undefined, 'a URDF robot in an .xml is not read as a model');
  assert.equal(fileKindOf(file('/w/a.json'), never), undefined);
  assert.equal(fileKindOf(file('/w/a.txt'), never), undefined);
  assert.equal(fileKindOf({ scheme: 'git', path: '/w/a.scene.json' }, never), undefined, 'diff/SCM views are not analysed');
  assert.equal(fileKindOf({ scheme: 'git', path: '/w/m.xml' }, never), undefined);
  assert.equal(fileKindOf({ scheme: 'untitled', path: 'Untitled-1.xml' }, () => '<mujoco/>'), 'mjcf');
});

test('the <mujoco> root is found after a BOM, the XML declaration, comments, processing instructions and a doctype of any length within the first MiB', () => {
  const cases: [string, boolean][] = [
    ['<mujoco>', true],
    ['\ufeff<mujoco model="m">', true],
    ['<?xml version="1.0" encoding="utf-8"?>\n<!-- a model -->\n<mujoco model="m">', true],
    ['<!DOCTYPE mujoco>\n<!--\n multi-line\n comment --><mujoco/>', true],
    ['  \n\t<mujoco\n  model="m">', true],
    ['<mujocoextra>', false],
    ['<mujoco-like/>', false],
    ['<worldbody/>', false],
    ['<!-- <mujoco> in a comment --><project/>', false],
    ['text before <mujoco>', false],
    [`<!--${' licence text, 5 KB of it. '.repeat(200)}-->\n<mujoco model="m">`, true],
    ['<!DOCTYPE mujoco [\n  <!ENTITY x "a > b">\n  <!ELEMENT mujoco ANY>\n]>\n<mujoco/>', true],
    ['<?xml version="1.0"?><?xml-stylesheet href="a.xsl"?>\ufeff<mujoco/>', false],
    ['<?xml version="1.0"?>\n<?xml-stylesheet href="a.xsl"?>\n<!-- c -->\n<mujoco/>', true],
    ['<!-- unterminated <mujoco>', false],
    [`<!--${' '.repeat(MODEL_HEAD_CHARS)}--><mujoco>`, false],
    ['', false],
  ];
  for (const [text, model] of cases) {
    assert.equal(isModelFile('/w/m.xml', text), model, JSON.stringify(text.slice(0, 60)));
    assert.equal(fileKindOf(file('/w/m.xml'), () => text) === 'mjcf', model);
  }
  assert.equal(modelFormatOf('/w/r.urdf', ''), 'urdf', 'every .urdf is a model (its errors are diagnostics)');
  assert.equal(modelFormatOf('/w/m.xml', '<mujoco/>'), 'mjcf');
});

test('URIs that may be analysed before their text is read; model paths; export names', () => {
  assert.equal(mayBeAnalysed(file('/w/a.scene.json')), true);
  assert.equal(mayBeAnalysed(file('/w/a.urdf')), true);
  assert.equal(mayBeAnalysed(file('/w/a.xml')), true, 'decided by its root element once read');
  assert.equal(mayBeAnalysed(file('/w/a.json')), false);
  assert.equal(mayBeAnalysed({ scheme: 'git', path: '/w/a.urdf' }), false);
  assert.equal(isModelPath('/w/a.urdf'), true);
  assert.equal(isModelPath('/w/a.XML'), true);
  assert.equal(isModelPath('/w/a.scene.json'), false);
  assert.equal(isModelKind('mjcf'), true);
  assert.equal(isModelKind('urdf'), true);
  assert.equal(isModelKind('scene'), false);
  assert.equal(isModelKind(undefined), false);
  assert.equal(exportedSceneName('four-bar.xml'), 'four-bar.scene.json');
  assert.equal(exportedSceneName('arm.URDF'), 'arm.scene.json');
  assert.equal(exportStem('four-bar.xml'), 'four-bar');
  assert.equal(exportStem('arm.urdf'), 'arm');
  assert.equal(exportStem('pendulum.scene.json'), 'pendulum');
});

test('a model analysis keeps no quick fix: the engine fixes edit JSON, never XML', () => {
  // A redundant constraint and a non-unit quaternion: both come with JSON edits.
  const text = readFileSync(join(ROOT, 'examples', 'redundant-rods.scene.json'), 'utf8');
  const r = inspectScene(text);
  assert.ok(r.diagnostics.some((d) => d.fixes && d.fixes.length > 0), 'the scene has fixes to remove');
  const stripped = withoutFixes(r);
  assert.ok(stripped.diagnostics.every((d) => d.fixes === undefined));
  assert.ok(stripped.parse.diagnostics.every((d) => d.fixes === undefined));
  assert.ok((stripped.snapshot?.diagnostics ?? []).every((d) => d.fixes === undefined));
  assert.deepEqual(stripped.diagnostics.map((d) => [d.code, d.message, d.range]), r.diagnostics.map((d) => [d.code, d.message, d.range]), 'same diagnostics otherwise');
  assert.equal(stripped.parse.scene, r.parse.scene);
  assert.equal(stripped.parse.sourceMap, r.parse.sourceMap);
  assert.ok(r.diagnostics.some((d) => d.fixes && d.fixes.length > 0), 'the input is not modified');
});

test('activation: workspaces with a URDF, XML documents (root checked after activation), never every file', () => {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    activationEvents: string[];
    contributes: { languages: { id: string; extensions?: string[] }[]; configuration: { properties: Record<string, { type: string; default: unknown }> } };
  };
  const ev = pkg.activationEvents;
  assert.ok(ev.includes('workspaceContains:**/*.scene.json'));
  assert.ok(ev.includes('workspaceContains:**/*.urdf'));
  assert.ok(ev.includes('onLanguage:xml'), 'an opened XML document activates the extension, which then reads its root element');
  assert.ok(!ev.includes('*') && !ev.includes('onStartupFinished'), 'no activation without a reason');
  assert.ok(!ev.some((e) => /workspaceContains:.*\*\.xml$/.test(e)), 'a workspace with XML files (Maven, Android, …) does not activate it');
  // .urdf files open as XML (highlighting, and onLanguage:xml).
  assert.ok(pkg.contributes.languages.some((l) => l.id === 'xml' && l.extensions?.includes('.urdf')));
  const kf = pkg.contributes.configuration.properties['constraintLens.import.keyframe'];
  assert.deepEqual([kf.type, kf.default], ['string', '']);
});
