// Files as MuJoCo finds them: URDF mesh paths (relative to the URDF, package://, meshdir, the bare
// name), mesh formats MuJoCo cannot read named as such, and an XML declaration with a version other
// than 1.x accepted as MuJoCo accepts it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspectModel, loadModel, nodeFileAccess } from '../../src/import/index';
import { Codes } from '../../src/engine/index';
import { FIXTURES } from './import-helpers';

const TET = readFileSync(join(FIXTURES, 'assets', 'tet.obj'));

/** A one-link URDF whose collision (and optional visual) geometry is the given mesh file name. */
function urdf(collision: string, visual?: string, compiler = ''): string {
  return `<?xml version="1.0"?>
<robot name="r">
  ${compiler}
  <link name="base"/>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    ${visual ? `<visual><geometry><mesh filename="${visual}"/></geometry></visual>` : ''}
    <collision><geometry><mesh filename="${collision}"/></geometry></collision>
  </link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><axis xyz="0 0 1"/></joint>
</robot>
`;
}

function workspace(files: Record<string, Uint8Array | string>): string {
  const root = mkdtempSync(join(tmpdir(), 'cl-paths-'));
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), data);
  }
  return root;
}

async function load(root: string, modelName: string) {
  const path = join(root, modelName);
  return loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(root) });
}

const errors = (r: { diagnostics: { severity: string; code: string; message: string }[] }) => r.diagnostics.filter((d) => d.severity === 'error');

test('URDF meshes: a path relative to the URDF (Bullet\'s kuka_iiwa: meshes/link_0.stl) is found and compiles', async () => {
  const root = workspace({ 'robot/model.urdf': urdf('meshes/tet.obj'), 'robot/meshes/tet.obj': TET });
  const r = await load(root, 'robot/model.urdf');
  assert.deepEqual(errors(r), []);
  assert.ok(r.scene);
});

test('URDF meshes: package://<pkg>/… is read from the URDF\'s package folder; the bare name next to the URDF still works', async () => {
  const a = workspace({ 'pkg/urdf.urdf': urdf('package://pkg/meshes/tet.obj'), 'pkg/meshes/tet.obj': TET });
  assert.deepEqual(errors(await load(a, 'pkg/urdf.urdf')), []);
  const b = workspace({ 'pkg/urdf/r.urdf': urdf('package://pkg/meshes/tet.obj'), 'pkg/meshes/tet.obj': TET });
  assert.deepEqual(errors(await load(b, 'pkg/urdf/r.urdf')), []);
  const c = workspace({ 'r.urdf': urdf('meshes/tet.obj'), 'tet.obj': TET });
  assert.deepEqual(errors(await load(c, 'r.urdf')), []);
  // Missing everywhere: one "not found" on the <mesh>, naming where it looked last.
  const d = workspace({ 'r.urdf': urdf('meshes/none.obj') });
  const e = errors(await load(d, 'r.urdf'));
  assert.equal(e.length, 1);
  assert.equal(e[0].code, Codes.fileRefused);
  assert.match(e[0].message, /Mesh file "none\.obj" was not found/);
});

test('unsupported mesh formats are named as such (COLLADA .dae), not "not found"; a URDF visual mesh is never required', async () => {
  const root = workspace({ 'r.urdf': urdf('meshes/arm.dae'), 'meshes/arm.dae': '<COLLADA/>' });
  const e = errors(await load(root, 'r.urdf'));
  assert.equal(e.length, 1);
  assert.match(e[0].message, /^Mesh file "meshes\/arm\.dae": unsupported mesh format \.dae \(MuJoCo reads \.stl, \.obj and \.msh\): convert it to \.stl or \.obj\.$/);
  // MuJoCo discards <visual> geoms: a .dae (or missing) visual mesh is no error.
  const v = workspace({ 'r.urdf': urdf('tet.obj', 'meshes/arm.dae'), 'tet.obj': TET });
  assert.deepEqual(errors(await load(v, 'r.urdf')), []);
  const mjcf = workspace({
    'm.xml': '<mujoco><asset><mesh name="a" file="arm.dae"/></asset><worldbody><body><freejoint/><geom type="mesh" mesh="a"/></body></worldbody></mujoco>',
    'arm.dae': '<COLLADA/>',
  });
  const m = errors(await load(mjcf, 'm.xml'));
  assert.equal(m.length, 1);
  assert.match(m[0].message, /unsupported mesh format \.dae/);
});

test('an XML declaration with version="0.0" is accepted as MuJoCo accepts it; positions are unchanged', async () => {
  const text = '<?xml version="0.0"?>\n<mujoco>\n  <worldbody>\n    <body name="b"><joint name="j" type="hinge" axis="0 1 0"/><geom size="0.1"/></body>\n  </worldbody>\n</mujoco>\n';
  const root = workspace({ 'v.xml': text });
  const r = await load(root, 'v.xml');
  assert.ok(!r.diagnostics.some((d) => d.code === Codes.xmlSyntax), JSON.stringify(r.diagnostics));
  assert.ok(r.scene);
  // A real syntax error after such a declaration is still reported where it is.
  const bad = workspace({ 'b.xml': '<?xml version="0.0"?>\n<mujoco>\n  <worldbody>\n</mujoco>\n' });
  const d = (await load(bad, 'b.xml')).diagnostics.find((x) => x.code === Codes.xmlSyntax)!;
  assert.equal(d.range.start.line, 3);
});

test('engine diagnostics about an element of an included file name the file and line, and carry its path and range in data.file', async () => {
  const part = `<mujoco>
  <worldbody>
    <body name="a" pos="0 0 1">
      <joint name="h" type="hinge" axis="0 1 0"/>
      <geom size="0.1" pos="0.3 0 0" mass="1"/>
    </body>
  </worldbody>
  <equality>
    <connect name="pin" body1="a" body2="world" anchor="0 0 0"/>
  </equality>
</mujoco>
`;
  const root = workspace({ 'main.xml': '<mujoco model="main">\n  <include file="part.xml"/>\n</mujoco>\n', 'part.xml': part });
  const path = join(root, 'main.xml');
  const r = await inspectModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(root) });
  const d = r.diagnostics.find((x) => x.code === Codes.redundantConstraint)!;
  assert.equal(d.range.start.line, 1); // the <include>
  assert.match(d.message, /\(in part\.xml, line 9\)$/);
  const file = d.data!.file as { path: string; range: { start: { line: number } } };
  assert.equal(file.path, join(root, 'part.xml'));
  assert.equal(file.range.start.line, 8);
  // Decorated once, whatever reads it again.
  assert.equal(d.message.split('(in part.xml').length, 2);
});
