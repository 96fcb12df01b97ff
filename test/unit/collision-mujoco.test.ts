// MuJoCo's WebAssembly as the oracle for collision: the converted model's detection finds exactly the
// geom pairs MuJoCo's d.contact lists at the initial state (mj_forward), under MuJoCo's filters
// (contype/conaffinity, same body, weld, parent–child and filterparent, <exclude>, <pair>), with
// MuJoCo's distances (gap + margin = dist) and normals, for every geom type pair it collides.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectContacts, type Contact, type Quat, type SceneSpec, type Vec3 } from '../../src/engine';
import { loadModel } from '../../src/import/index';
import { withMujocoXml } from './mujoco-helpers';

interface Seen {
  /** Geom names, sorted, joined by '|'. */
  pair: string;
  dist: number;
  /** Unit normal from the first name's geom towards the second's... as seen from `from`. */
  normal: Vec3;
  from: string;
}

const load = (xml: string) => loadModel('/virtual/m.xml', xml, { files: { workspaceRoot: '/virtual', readFile: () => undefined } });

/** MuJoCo's contacts at the initial state: geom names, distance, normal (frame row 0 points from geom1 to geom2). */
async function mujocoContacts(xml: string): Promise<Seen[]> {
  return withMujocoXml(xml, (mj, m, d) => {
    mj.mj_forward(m, d);
    const M = m as unknown as Record<string, ArrayLike<number>>;
    const names = new TextDecoder().decode(Uint8Array.from(M.names, (x) => x & 0xff));
    const geomName = (g: number) => names.slice(M.name_geomadr[g], names.indexOf('\0', M.name_geomadr[g]));
    const raw = d as unknown as { ncon: number; contact: { get(i: number): { geom1: number; geom2: number; dist: number; frame: ArrayLike<number> } } };
    const out: Seen[] = [];
    for (let i = 0; i < raw.ncon; i++) {
      const c = raw.contact.get(i);
      const a = geomName(c.geom1);
      const b = geomName(c.geom2);
      // MuJoCo's normal points from geom1 to geom2
      out.push({ pair: [a, b].sort().join('|'), dist: c.dist, normal: [c.frame[0], c.frame[1], c.frame[2]], from: a });
    }
    return out;
  });
}

/** Our contacts at the converted initial poses, as geom (shape) names, distance (gap + margin) and normal from `from`. */
function ourContacts(scene: SceneSpec): Seen[] {
  const poses = scene.bodies.map((b) => ({ p: b.position as Vec3, q: b.orientation as Quat }));
  const shape = (owner: number, i: number) => (owner < 0 ? scene.world.shapes[i] : scene.bodies[owner].shapes[i]);
  return detectContacts(scene, poses).map((c: Contact) => {
    const a = shape(c.bodyA, c.shapeA);
    const b = shape(c.bodyB, c.shapeB);
    const margin = (pairMargin(scene, c) ?? (a.margin ?? 0) + (b.margin ?? 0));
    // our normal points from B to A: from A towards B is its opposite
    return { pair: [a.name, b.name].sort().join('|'), dist: c.gap + margin, normal: [-c.normal[0], -c.normal[1], -c.normal[2]] as Vec3, from: a.name };
  });
}

function pairMargin(scene: SceneSpec, c: Contact): number | undefined {
  const name = (owner: number) => (owner < 0 ? 'world' : scene.bodies[owner].name);
  const shape = (owner: number, i: number) => (owner < 0 ? scene.world.shapes[i] : scene.bodies[owner].shapes[i]).name;
  const p = scene.world.pairs?.find(
    (x) =>
      (x.bodyA === name(c.bodyA) && x.shapeA === shape(c.bodyA, c.shapeA) && x.bodyB === name(c.bodyB) && x.shapeB === shape(c.bodyB, c.shapeB)) ||
      (x.bodyB === name(c.bodyA) && x.shapeB === shape(c.bodyA, c.shapeA) && x.bodyA === name(c.bodyB) && x.shapeA === shape(c.bodyB, c.shapeB)),
  );
  return p?.margin;
}

/** Deepest contact per pair. */
function deepest(list: readonly Seen[]): Map<string, Seen> {
  const out = new Map<string, Seen>();
  for (const s of list) if (!out.has(s.pair) || s.dist < out.get(s.pair)!.dist) out.set(s.pair, s);
  return out;
}

async function compare(xml: string, opts: { distTol: number; normalTol: number; expectPairs?: string[] }): Promise<Map<string, Seen>> {
  const parse = await load(xml);
  assert.ok(parse.scene, JSON.stringify(parse.diagnostics));
  assert.deepEqual(parse.diagnostics.filter((d) => d.severity === 'error'), []);
  const ours = deepest(ourContacts(parse.scene));
  const theirs = deepest(await mujocoContacts(xml));
  assert.deepEqual([...ours.keys()].sort(), [...theirs.keys()].sort(), 'the same touching geom pairs as MuJoCo');
  if (opts.expectPairs) assert.deepEqual([...theirs.keys()].sort(), [...opts.expectPairs].sort(), 'the fixture touches where it means to');
  for (const [pair, t] of theirs) {
    const o = ours.get(pair)!;
    assert.ok(Math.abs(o.dist - t.dist) <= opts.distTol, `${pair}: distance ${o.dist} vs MuJoCo ${t.dist}`);
    const sign = o.from === t.from ? 1 : -1;
    const dn = Math.hypot(o.normal[0] * sign - t.normal[0], o.normal[1] * sign - t.normal[1], o.normal[2] * sign - t.normal[2]);
    assert.ok(dn <= opts.normalTol, `${pair}: normal ${o.normal.map((x) => x * sign)} vs MuJoCo ${[...t.normal]}`);
  }
  return theirs;
}

// Every link overlaps its neighbours and the floor; only the filters decide what collides.
const FILTERS = `<mujoco model="filters">
  <contact>
    <exclude body1="c" body2="d"/>
    <pair geom1="ghost" geom2="floor" margin="0.002" friction="0.3"/>
  </contact>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <geom name="post" type="box" pos="2 0 0.5" size="0.1 0.1 0.5"/>
    <body name="a" pos="0 0 0.09">
      <freejoint/>
      <geom name="a" type="box" size="0.3 0.1 0.1"/>
      <body name="b" pos="0.5 0 0">
        <joint type="hinge" axis="0 1 0"/>
        <geom name="b" type="capsule" fromto="-0.25 0 0 0.25 0 0" size="0.09"/>
        <body name="bw" pos="0.3 0 0">
          <geom name="bw" type="sphere" size="0.09"/>
        </body>
        <body name="grand" pos="-0.45 0 0.1">
          <joint type="hinge" axis="0 1 0"/>
          <geom name="grand" type="sphere" size="0.1"/>
        </body>
      </body>
    </body>
    <body name="c" pos="0 1 0.09">
      <freejoint/>
      <geom name="c" type="sphere" size="0.1"/>
    </body>
    <body name="d" pos="0 1.15 0.09">
      <freejoint/>
      <geom name="d" type="sphere" size="0.1"/>
      <geom name="ghost" type="sphere" pos="0 0.1 0" size="0.1" contype="2" conaffinity="2"/>
    </body>
    <body name="e" pos="1.9 0 0.5">
      <freejoint/>
      <geom name="e" type="sphere" size="0.12" contype="4" conaffinity="1"/>
    </body>
    <body name="f" pos="0 -1 0.09">
      <freejoint/>
      <geom name="f" type="sphere" size="0.1" margin="0.01"/>
      <geom name="f2" type="sphere" pos="0.25 0 0.05" size="0.1" gap="0.02"/>
    </body>
    <body name="g" pos="0.24 -1 0.32">
      <freejoint/>
      <geom name="g" type="sphere" size="0.1" margin="0.02" gap="0.01"/>
    </body>
  </worldbody>
</mujoco>`;

test('filters: the converted scene collides exactly the geom pairs MuJoCo collides, at MuJoCo\'s distances', async () => {
  const pairs = await compare(FILTERS, {
    distTol: 1e-9,
    normalTol: 1e-9,
    // a–b: parent–child; b–bw: welded; a–bw: bw's weld body is b, a child of a; b–grand: parent–child;
    // a–grand: grandparent, collides; c–d excluded; ghost meets only the floor, through its <pair>;
    // e (contype 4) against the post (conaffinity 1): 4 & 1 = 0 but 1 & 1 ≠ 0, so they collide;
    // f2–g are 0.013 m apart: within f2's gap and g's margin + gap; f2 is 0.04 m above the floor.
    expectPairs: ['a|floor', 'a|grand', 'b|floor', 'bw|floor', 'c|floor', 'd|floor', 'floor|ghost', 'e|post', 'f|floor', 'f2|g'],
  }).catch(async (e) => {
    // show MuJoCo's list when the fixture itself is off
    throw new Error(`${(e as Error).message}\nMuJoCo: ${[...deepest(await mujocoContacts(FILTERS)).keys()].sort().join(', ')}`);
  });
  assert.ok(pairs.size >= 10);
  const parse = await load(FILTERS);
  const scene = parse.scene!;
  // the rules are written into the scene: exclusions by body, the pair with its own parameters
  assert.ok(scene.world.exclude!.some((e) => [e.bodyA, e.bodyB].sort().join('|') === 'c|d'));
  assert.ok(scene.world.exclude!.some((e) => [e.bodyA, e.bodyB].sort().join('|') === 'a|b'));
  assert.ok(!scene.world.exclude!.some((e) => [e.bodyA, e.bodyB].sort().join('|') === 'a|grand'));
  assert.deepEqual(scene.world.pairs!.map((p) => [[p.shapeA, p.shapeB].sort(), p.margin, p.friction]), [[['floor', 'ghost'], 0.002, 0.3]]);
  assert.equal(scene.solver.contacts.frictionRule, 'max');
  // and, being simulated, they are not in the not-simulated note
  const note = parse.diagnostics.find((d) => d.code === 'CL606-not-simulated')?.message ?? '';
  assert.ok(!/exclude|contact pairs/.test(note), note);
});

test('filterparent disabled: parent and child collide (MuJoCo\'s <flag filterparent="disable"/>)', async () => {
  const xml = FILTERS.replace('<contact>', '<option><flag filterparent="disable"/></option>\n  <contact>');
  const pairs = await compare(xml, { distTol: 1e-9, normalTol: 1e-9 });
  assert.ok(pairs.has('a|b'), [...pairs.keys()].join(', '));
  assert.ok(!pairs.has('b|bw'), 'welded bodies never collide');
});

// Each new geom type against every type, one overlapping pair per row (0.02 m deep, tilted).
const TYPES: Record<string, string> = {
  sphere: 'type="sphere" size="0.1"',
  capsule: 'type="capsule" size="0.06 0.1"',
  box: 'type="box" size="0.08 0.1 0.09"',
  cylinder: 'type="cylinder" size="0.08 0.1"',
  ellipsoid: 'type="ellipsoid" size="0.12 0.08 0.1"',
  mesh: 'type="mesh" mesh="hull"',
};

/** Roughly how far each type reaches along z (untilted). */
const HALF_HEIGHT: Record<string, number> = { sphere: 0.1, capsule: 0.16, box: 0.09, cylinder: 0.1, ellipsoid: 0.1, mesh: 0.1 };

function pairModel(a: string, b: string, overlap: number): string {
  // a at the origin, b above it along a slightly tilted line; then the floor under a
  return `<mujoco model="${a}-${b}">
  <asset><mesh name="hull" vertex="-0.1 -0.08 -0.09  0.1 -0.08 -0.09  -0.1 0.08 -0.09  0.1 0.08 -0.09  -0.07 -0.05 0.1  0.07 -0.05 0.1  -0.07 0.05 0.1  0.07 0.05 0.11"/></asset>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="A" pos="0 0 0.5" euler="7 11 5"><freejoint/><geom name="gA" ${TYPES[a]}/></body>
    <body name="B" pos="0.03 0.02 ${0.5 + overlap}" euler="-13 4 21"><freejoint/><geom name="gB" ${TYPES[b]}/></body>
    <body name="F" pos="1 0 0.08" euler="9 6 3"><freejoint/><geom name="gF" ${TYPES[a]}/></body>
  </worldbody>
</mujoco>`;
}

for (const a of ['cylinder', 'ellipsoid', 'mesh']) {
  test(`${a}: distance and normal against the plane and every type, as MuJoCo's d.contact`, async () => {
    for (const b of Object.keys(TYPES)) {
      // about 0.02 m of overlap between A and B
      await compare(pairModel(a, b, HALF_HEIGHT[a] + HALF_HEIGHT[b] - 0.02), { distTol: 1e-4, normalTol: 2e-2 }).catch((e) => {
        throw new Error(`${a}–${b}: ${(e as Error).message}`);
      });
    }
  });
}
