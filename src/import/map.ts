// Which XML element each object of MuJoCo's compiled model came from. MJCF: MuJoCo numbers bodies
// in document order (depth first, <frame> children included), and a body's joints and geoms in
// the order of its elements; equalities and keys in the order of <equality> and <keyframe>.
// Names are checked (and used when the order does not match, e.g. after <replicate>). URDF: links
// and joints by name; MuJoCo compiles each <mimic> into a joint equality.
import type { CompiledModel } from './mujoco';
import { attr, childrenNamed, type XmlElement } from './xml';

interface Mimic {
  /** The <mimic> element and its <joint>. */
  element: XmlElement;
  jointElement: XmlElement;
  joint: string;
  mimicked: string;
  multiplier: number;
  offset: number;
}

export interface ElementMap {
  root: XmlElement;
  /** Where model-wide diagnostics go: <worldbody> (MJCF) or the root. */
  worldbody: XmlElement;
  body: (XmlElement | undefined)[];
  joint: (XmlElement | undefined)[];
  geom: (XmlElement | undefined)[];
  equality: (XmlElement | undefined)[];
  key: (XmlElement | undefined)[];
  mimics: Mimic[];
}

const JOINT_TAGS = ['joint', 'freejoint'];

/** Direct children of a body, looking through <frame> elements (they do not make bodies). */
function bodyChildren(el: XmlElement, names: string[]): XmlElement[] {
  const out: XmlElement[] = [];
  for (const c of el.children) {
    if (names.includes(c.name)) out.push(c);
    else if (c.name === 'frame') out.push(...bodyChildren(c, names));
  }
  return out;
}

/** Bodies in document (pre-)order below `el`. */
function bodiesIn(el: XmlElement, out: XmlElement[] = []): XmlElement[] {
  for (const b of bodyChildren(el, ['body'])) {
    out.push(b);
    bodiesIn(b, out);
  }
  return out;
}

/** Assign elements to compiled objects: by order when the counts and the given names agree, else by name. */
function assign(elements: XmlElement[], compiledNames: string[], offset = 0, nameAttr = 'name'): (XmlElement | undefined)[] {
  const out: (XmlElement | undefined)[] = compiledNames.map(() => undefined);
  const byOrder = elements.length === compiledNames.length - offset && elements.every((e, i) => {
    const n = attr(e, nameAttr);
    return n === undefined || n === '' || n === compiledNames[i + offset];
  });
  if (byOrder) {
    elements.forEach((e, i) => (out[i + offset] = e));
    return out;
  }
  const named = new Map<string, XmlElement>();
  for (const e of elements) {
    const n = attr(e, nameAttr);
    if (n && !named.has(n)) named.set(n, e);
  }
  compiledNames.forEach((n, i) => {
    if (i >= offset && n) out[i] = named.get(n);
  });
  return out;
}

export function buildElementMap(root: XmlElement, m: CompiledModel, urdf: boolean): ElementMap {
  const bodyNames = m.bodies.map((b) => b.name);
  const jointNames = m.joints.map((j) => j.name);
  if (urdf) return urdfMap(root, m);
  const worldbodies = childrenNamed(root, 'worldbody');
  const worldbody = worldbodies[0] ?? root;
  const bodyEls = worldbodies.flatMap((w) => bodiesIn(w));
  const body = assign(bodyEls, bodyNames, 1);
  body[0] = worldbody;
  const joint: (XmlElement | undefined)[] = m.joints.map(() => undefined);
  const geom: (XmlElement | undefined)[] = m.geoms.map(() => undefined);
  m.bodies.forEach((b, i) => {
    const el = i === 0 ? undefined : body[i];
    const owners = i === 0 ? worldbodies : el ? [el] : [];
    const js = owners.flatMap((o) => bodyChildren(o, JOINT_TAGS));
    const gs = owners.flatMap((o) => bodyChildren(o, ['geom']));
    if (js.length === b.jntnum) js.forEach((e, k) => (joint[b.jntadr + k] = e));
    if (gs.length === b.geomnum) gs.forEach((e, k) => (geom[b.geomadr + k] = e));
  });
  // Joints not placed by their body (e.g. replicated bodies): by name.
  const allJoints = bodyEls.flatMap((b) => bodyChildren(b, JOINT_TAGS));
  const byName = assign(allJoints, jointNames);
  joint.forEach((e, i) => (joint[i] = e ?? byName[i]));
  const eqEls = childrenNamed(root, 'equality').flatMap((e) => e.children);
  const equality = assign(eqEls, m.equalities.map((e) => e.name));
  const keyEls = childrenNamed(root, 'keyframe').flatMap((k) => childrenNamed(k, 'key'));
  const key = assign(keyEls, m.keys.map((k) => k.name));
  return { root, worldbody, body, joint, geom, equality, key, mimics: [] };
}

function urdfMap(root: XmlElement, m: CompiledModel): ElementMap {
  const links = childrenNamed(root, 'link');
  const joints = childrenNamed(root, 'joint');
  const linkBy = new Map(links.map((l) => [attr(l, 'name') ?? '', l]));
  const jointBy = new Map(joints.map((j) => [attr(j, 'name') ?? '', j]));
  const body = m.bodies.map((b, i) => (i === 0 ? root : linkBy.get(b.name)));
  const joint = m.joints.map((j) => jointBy.get(j.name));
  const geom = m.geoms.map((g) => body[m.bodies[g.body] ? g.body : 0]);
  const mimics: Mimic[] = [];
  for (const j of joints) {
    for (const mi of childrenNamed(j, 'mimic')) {
      const num = (a: string, d: number) => {
        const v = Number(attr(mi, a));
        return attr(mi, a) === undefined || !Number.isFinite(v) ? d : v;
      };
      mimics.push({ element: mi, jointElement: j, joint: attr(j, 'name') ?? '', mimicked: attr(mi, 'joint') ?? '', multiplier: num('multiplier', 1), offset: num('offset', 0) });
    }
  }
  // MuJoCo turns each mimic into a joint equality (obj1: the mimicking joint, obj2: the mimicked one).
  const equality = m.equalities.map((e) => {
    if (e.type !== 'joint') return undefined;
    const j1 = m.joints[e.obj1]?.name, j2 = m.joints[e.obj2]?.name;
    return mimics.find((x) => x.joint === j1 && x.mimicked === j2)?.element;
  });
  return { root, worldbody: root, body, joint, geom, equality, key: m.keys.map(() => undefined), mimics };
}
