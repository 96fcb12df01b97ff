// Hostile and unusual model files: none may hang, exhaust or poison the process. Each case is
// written into a temporary workspace, loaded through the importer (or the CLI), and followed by a
// good model (the four-bar fixture) in the same process, which must still convert.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Codes, parseScene, type Diagnostic } from '../../src/engine';
import { exportErrors, exportScene, isModelFile, loadModel, nodeFileAccess, nodeFileAccessAsync } from '../../src/import/index';
import { compileModel, loadMujoco } from '../../src/import/mujoco';
import { MODEL_LIMITS } from '../../src/import/precheck';
import { FILE_LIMITS } from '../../src/import/files';
import { runImportCommand } from '../../src/import/cli';
import { readScene, IoError } from '../../src/cli/io';
import { FIXTURES } from './import-helpers';

const FOUR_BAR = readFileSync(join(FIXTURES, 'four-bar.xml'), 'utf8');

function workspace(files: Record<string, string> = {}): string {
  const ws = mkdtempSync(join(tmpdir(), 'cl-hostile-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(ws, name), text);
  return ws;
}

async function load(ws: string, text: string, name = 'm.xml') {
  return loadModel(join(ws, name), text, { files: nodeFileAccess(ws) });
}

/** The good model after a bad one, in the same process: converted, no error. */
async function goodModelStillLoads(): Promise<void> {
  const ws = workspace();
  const r = await load(ws, FOUR_BAR, 'four-bar.xml');
  assert.ok(r.scene, JSON.stringify(r.diagnostics.map((d) => d.message)));
  assert.equal(r.hasErrors, false);
  assert.equal(r.scene.bodies.length, 3);
}

const only = (ds: Diagnostic[], code: string) => ds.filter((d) => d.code === code);
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));

const mkfifo = (path: string): boolean => {
  try {
    execFileSync('mkfifo', [path]);
    return lstatSync(path).isFIFO();
  } catch {
    return false;
  }
};

test('an include graph that fans out (7 files, each including the next 10 times) stops at the include that crosses the limit', async () => {
  const files: Record<string, string> = {};
  for (let k = 0; k < 7; k++) {
    const body = k === 6 ? '<worldbody><body><freejoint/><geom size="0.1"/></body></worldbody>' : `<include file="f${k + 1}.xml"/>`.repeat(10);
    files[`f${k}.xml`] = `<mujoco>${body}</mujoco>`;
  }
  const ws = workspace(files);
  const text = '<mujoco>\n  <include file="f0.xml"/>\n</mujoco>';
  const r = await load(ws, text);
  assert.equal(r.scene, undefined);
  const d = only(r.diagnostics, Codes.modelLimit);
  assert.equal(d.length, 1, JSON.stringify(r.diagnostics));
  assert.match(d[0].message, /more than 200000 elements|larger than/);
  assert.equal(d[0].range.start.line, 1, 'on the <include>');
  assert.ok(r.diagnostics.length <= 2);
  await goodModelStillLoads();
});

test('a file included many times is read once; the whole-model limits are the documented ones', async () => {
  assert.equal(FILE_LIMITS.maxExpandedElements, 200_000);
  const ws = workspace({ 'part.xml': '<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>' });
  const base = nodeFileAccess(ws);
  const asked: string[] = [];
  const r = await loadModel(join(ws, 'm.xml'), `<mujoco>${'<include file="part.xml"/>'.repeat(5)}</mujoco>`, { files: { ...base, readFile: (p) => (asked.push(p), base.readFile(p)) } });
  assert.equal(asked.length, 1);
  // MuJoCo itself refuses a file included twice: its own error, not a crash.
  assert.deepEqual(r.diagnostics.map((d) => d.code), [Codes.mujocoError]);
  assert.match(r.diagnostics[0].message, /already included/);
});

test('MuJoCo isolated: an instance that crashed is discarded, and the next model compiles on a fresh one', async () => {
  // 200 nested bodies: MuJoCo's XML reader runs out of its WebAssembly stack (compiled directly, past the pre-check).
  // Where exactly it overflows depends on what the instance did before: 200 to 300 levels.
  const nested = (n: number) => `<mujoco><worldbody>${'<body><geom size="0.1"/>'.repeat(n)}${'</body>'.repeat(n)}</worldbody></mujoco>`;
  const deep = nested(200);
  let rt = await loadMujoco();
  let crashed;
  for (const n of [200, 250, 300]) {
    rt = await loadMujoco();
    crashed = compileModel(rt, 'deep.xml', [{ name: 'deep.xml', data: new TextEncoder().encode(nested(n)) }]);
    if ('error' in crashed && crashed.crashed) break;
    if ('model' in crashed) crashed.model.delete();
  }
  assert.ok(crashed && 'error' in crashed && crashed.crashed, JSON.stringify(crashed));
  assert.equal(rt.retired, true);
  const next = await loadMujoco();
  assert.notEqual(next, rt, 'a new instance');
  await goodModelStillLoads();
  // The importer itself never hands such a model to MuJoCo: a CL613 on the first element too deep.
  const ws = workspace();
  const r = await load(ws, deep);
  const d = only(r.diagnostics, Codes.modelLimit);
  assert.equal(d.length, 1);
  assert.match(d[0].message, /nested more than 100 deep/);
  assert.equal(r.scene, undefined);
  await goodModelStillLoads();
});

test('what crashes MuJoCo is refused first: nesting of frames, counts of bodies and equalities, a <replicate> that expands to 10⁹ bodies', async () => {
  const ws = workspace();
  const flat = (n: number, el: (i: number) => string) => Array.from({ length: n }, (_, i) => el(i)).join('');
  const cases: [string, RegExp][] = [
    [`<mujoco><worldbody>${'<frame>'.repeat(150)}<body><freejoint/><geom size="0.1"/></body>${'</frame>'.repeat(150)}</worldbody></mujoco>`, /nested more than 100/],
    [`<mujoco><worldbody>${flat(MODEL_LIMITS.maxBodies + 1, (i) => `<body pos="${i} 0 0"><freejoint/><geom size="0.1"/></body>`)}</worldbody></mujoco>`, /more than 1000 bodies/],
    [`<mujoco><worldbody><body name="a"><freejoint/><geom size="0.1"/></body><body name="b"><freejoint/><geom size="0.1"/></body></worldbody><equality>${flat(MODEL_LIMITS.maxEqualities + 1, () => '<connect body1="a" body2="b" anchor="0 0 0"/>')}</equality></mujoco>`, /more than 2000 equality constraints/],
    ['<mujoco><worldbody><replicate count="1000"><replicate count="1000"><replicate count="1000"><body><freejoint/><geom size="0.1"/></body></replicate></replicate></replicate></worldbody></mujoco>', /<replicate> expands to more than 1000 elements/],
    // within the 1000-body limit, but 8–12 s of import and inspect (a fuzz mutant's count="1000"): refused on the <replicate>
    ['<mujoco><worldbody><geom type="plane" size="5 5 0.1"/>\n<replicate count="300" offset="0.05 0 0"><body pos="0 0 0.5"><freejoint/><geom size="0.02"/></body></replicate></worldbody></mujoco>', /<replicate> expands to more than (250 bodies|1000 elements)/],
  ];
  for (const [text, message] of cases) {
    const r = await load(ws, text);
    const d = only(r.diagnostics, Codes.modelLimit);
    assert.equal(d.length, 1, text.slice(0, 80));
    assert.match(d[0].message, message);
    if (text.includes('count="300"')) assert.equal(d[0].range.start.line, 1, 'on the <replicate>');
    assert.equal(r.scene, undefined);
  }
  await goodModelStillLoads();
});

test('only regular files: a FIFO as include or mesh, and a FIFO as the model itself, are refused at once', async (t) => {
  const ws = workspace({ 'box.stl': 'solid x\nendsolid x\n' });
  if (!mkfifo(join(ws, 'fifo.xml')) || !mkfifo(join(ws, 'fifo.stl'))) return t.skip('no mkfifo here');
  const include = '<mujoco>\n  <include file="fifo.xml"/>\n</mujoco>';
  const mesh = '<mujoco>\n  <asset><mesh name="m" file="fifo.stl"/></asset>\n  <worldbody><body><freejoint/><geom type="mesh" mesh="m"/></body></worldbody>\n</mujoco>';
  for (const access of [nodeFileAccess(ws), nodeFileAccessAsync(ws)]) {
    for (const text of [include, mesh]) {
      const r = await loadModel(join(ws, 'm.xml'), text, { files: access });
      const d = only(r.diagnostics, Codes.fileRefused);
      assert.equal(d.length, 1, JSON.stringify(r.diagnostics));
      assert.match(d[0].message, /not a regular file/);
      assert.equal(d[0].range.start.line, 1);
    }
    // The read itself refuses too (stat and read are separate calls: a swap in between is caught).
    assert.equal(await access.readFile(join(ws, 'fifo.xml')), undefined);
  }
  assert.throws(() => readScene(join(ws, 'fifo.xml')), (e: unknown) => e instanceof IoError && /not a regular file/.test(e.message));
  await goodModelStillLoads();
});

test('every number is checked where it is written: NaN on a plane, a negative timestep and friction, absurd magnitudes', async () => {
  const ws = workspace();
  const text = [
    '<mujoco>',
    '  <option timestep="-0.01"/>',
    '  <worldbody>',
    '    <geom type="plane" size="1 1 1" pos="0 0 nan"/>',
    '    <geom type="plane" size="1 1 1" pos="0 0 9007199254740993e3" friction="-1"/>',
    '    <body pos="inf 0 0"><freejoint/><geom size="0.1" mass="1e13"/></body>',
    '    <body><freejoint/><geom size="0.1"/></body>',
    '  </worldbody>',
    '  <equality><weld body1="world" body2="b" solref="0.02 -1"/></equality>',
    '</mujoco>',
  ].join('\n');
  const r = await load(ws, text);
  assert.equal(r.scene, undefined);
  const ds = only(r.diagnostics, Codes.badNumber);
  const at = (needle: string, attr: string, message: RegExp) => {
    const d = ds.find((x) => x.range.start.line === lineOf(text, needle) && message.test(x.message));
    assert.ok(d, `${needle} ${attr}: ${JSON.stringify(ds.map((x) => x.message))}`);
    const line = text.split('\n')[d.range.start.line];
    assert.equal(line.slice(d.range.start.character - attr.length - 2, d.range.start.character - 2), attr, 'on the attribute value');
    assert.equal(d.severity, 'error');
  };
  at('timestep', 'timestep', /greater than zero/);
  at('nan', 'pos', /NaN/);
  at('9007199254740993e3', 'pos', /beyond the range/);
  at('friction="-1"', 'friction', /cannot be negative/);
  at('pos="inf', 'pos', /infinite/);
  at('mass="1e13"', 'mass', /1e\+?12/);
  at('solref', 'solref', /mixes a positive and a negative/);
  await goodModelStillLoads();
});

test('a URDF with a non-finite origin or a negative mass gets the same diagnostics', async () => {
  const ws = workspace();
  const text = '<robot name="r">\n  <link name="a"><inertial><mass value="-1"/><inertia ixx="1" iyy="1" izz="1" ixy="0" ixz="0" iyz="0"/></inertial></link>\n  <link name="b"/>\n  <joint name="j" type="revolute"><parent link="a"/><child link="b"/><origin xyz="0 nan 0"/></joint>\n</robot>';
  const r = await load(ws, text, 'r.urdf');
  const ds = only(r.diagnostics, Codes.badNumber);
  assert.deepEqual(ds.map((d) => d.range.start.line).sort(), [1, 3]);
});

test('the file kind comes from the first element: a 5 KB licence comment, a DOCTYPE, processing instructions, a BOM', async () => {
  const header = `<!--\n${' Licensed under the Apache License, Version 2.0. '.repeat(100)}\n-->\n`;
  const texts = [header + FOUR_BAR, `\ufeff<?xml version="1.0"?>\n<!DOCTYPE mujoco [ <!ENTITY a "b"> ]>\n${header}${FOUR_BAR}`];
  for (const text of texts) {
    assert.equal(isModelFile('/w/four-bar.xml', text), true);
    const ws = workspace();
    const r = await load(ws, text, 'four-bar.xml');
    assert.ok(!r.diagnostics.some((d) => d.code === Codes.jsonSyntax));
  }
  const ws = workspace({ 'lic.xml': header + FOUR_BAR });
  const out: string[] = [];
  const status = await runImportCommand(['export-scene', join(ws, 'lic.xml')], (s) => out.push(s), (s) => out.push(s));
  assert.equal(status, 0, out.join('\n'));
});

test('compare and export-scene: names with newlines and escapes never reach the terminal raw', async () => {
  // XML cannot hold ESC, but a character reference can hold a newline, and a bidi override is plain text.
  const text = FOUR_BAR.replace('name="close"', 'name="a&#10;FAKE: all good\u202e"').replace('name="crank"', 'name="c&#10;FAKE rank"');
  const ws = workspace({ 'evil.xml': text });
  for (const argv of [['compare', join(ws, 'evil.xml'), '--steps', '2'], ['export-scene', join(ws, 'evil.xml'), '-o', join(ws, 'o.scene.json')]]) {
    const out: string[] = [];
    const status = await runImportCommand(argv, (s) => out.push(s), (s) => out.push(s));
    const all = out.join('\n');
    assert.ok(status === 0 || status === 1, all);
    assert.ok(!all.split('\n').some((l) => l.startsWith('FAKE')), 'no forged line');
    assert.ok(!/\u202e/.test(all));
    if (argv[0] === 'compare') assert.match(all, /a\\x0AFAKE: all good\\u202E/);
  }
});

test('export-scene -o: never overwrites without --force, never follows a link, never overwrites the model', async () => {
  const ws = workspace({ 'four-bar.xml': FOUR_BAR, 'taken.json': 'keep me', 'victim.txt': 'keep me too' });
  symlinkSync(join(ws, 'victim.txt'), join(ws, 'link.json'));
  const run = async (...argv: string[]) => {
    const out: string[] = [];
    const status = await runImportCommand(['export-scene', join(ws, 'four-bar.xml'), ...argv], (s) => out.push(s), (s) => out.push(s));
    return { status, out: out.join('\n') };
  };
  const exists = await run('-o', join(ws, 'taken.json'));
  assert.equal(exists.status, 2);
  assert.match(exists.out, /exists: pass --force/);
  assert.equal(readFileSync(join(ws, 'taken.json'), 'utf8'), 'keep me');
  for (const force of [[], ['--force']]) {
    const link = await run('-o', join(ws, 'link.json'), ...force);
    assert.equal(link.status, 2);
    assert.match(link.out, /symbolic link/);
    assert.equal(readFileSync(join(ws, 'victim.txt'), 'utf8'), 'keep me too');
    const self = await run('-o', join(ws, '.', 'four-bar.xml'), ...force);
    assert.equal(self.status, 2);
    assert.equal(readFileSync(join(ws, 'four-bar.xml'), 'utf8'), FOUR_BAR);
  }
  const forced = await run('-o', join(ws, 'taken.json'), '--force');
  assert.equal(forced.status, 0, forced.out);
  assert.equal(parseScene(readFileSync(join(ws, 'taken.json'), 'utf8')).hasErrors, false);
  const fresh = await run('-o', join(ws, 'sub-new.scene.json'));
  assert.equal(fresh.status, 0, fresh.out);
});

test('Export as Scene reads back without errors for every fixture (the round trip never loses the model)', async () => {
  for (const name of readdirSync(FIXTURES).filter((f) => /\.(xml|urdf)$/.test(f))) {
    const path = join(FIXTURES, name);
    const r = await loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(FIXTURES) });
    if (!r.scene) continue;
    const text = exportScene({ scene: r.scene, path });
    assert.deepEqual(exportErrors(text), [], name);
  }
  // A non-finite number would be written as null: exportErrors catches it.
  const ws = workspace();
  const r = await load(ws, FOUR_BAR, 'four-bar.xml');
  assert.ok(r.scene);
  r.scene.bodies[0].position[2] = NaN;
  assert.ok(exportErrors(exportScene({ scene: r.scene })).length > 0);
});

test('a sub-folder model reads its includes relative to itself (the regular-file check keeps ordinary models working)', async () => {
  const ws = workspace();
  mkdirSync(join(ws, 'sub'));
  writeFileSync(join(ws, 'sub', 'part.xml'), '<mujoco><worldbody><body><freejoint/><geom size="0.1"/></body></worldbody></mujoco>');
  const r = await loadModel(join(ws, 'sub', 'm.xml'), '<mujoco><include file="part.xml"/></mujoco>', { files: nodeFileAccessAsync(ws) });
  assert.ok(r.scene, JSON.stringify(r.diagnostics));
});

test('a crash past every precheck (a 3 GB arena MuJoCo cannot allocate) is CL612 and the next model loads; a malformed size is MuJoCo\'s own error', async () => {
  const ws = workspace();
  const model = (memory: string) => `<mujoco>\n  <size memory="${memory}"/>\n  <worldbody><body><freejoint/><geom size="0.1"/></body></worldbody>\n</mujoco>`;
  const crashed = await load(ws, model('3G'));
  assert.equal(only(crashed.diagnostics, Codes.mujocoCrashed).length, 1, JSON.stringify(crashed.diagnostics));
  assert.equal(crashed.scene, undefined);
  await goodModelStillLoads();
  // "attribute 'memory'" in MuJoCo's message is not memory exhausted: the instance is kept
  const malformed = await load(ws, model('100G'));
  assert.equal(only(malformed.diagnostics, Codes.mujocoError).length, 1, JSON.stringify(malformed.diagnostics));
  assert.equal(only(malformed.diagnostics, Codes.mujocoCrashed).length, 0);
  await goodModelStillLoads();
});
