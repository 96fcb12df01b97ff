// Checks of a model's element tree (includes expanded) before MuJoCo sees it: what is known to crash
// MuJoCo's WebAssembly or to make the import unbounded, and every number read where it is written.
//  - Limits (CL613): nesting of elements (MuJoCo's XML reader recurses per level and overflows its
//    WebAssembly stack at ~140 nested bodies or frames: an abort), counts of bodies, geoms,
//    equalities and keys, and what <replicate> would expand to (300 bytes can ask for 10⁹ bodies).
//  - Numbers (CL614): non-finite values, negative values where a quantity cannot be negative,
//    magnitudes the engine cannot use (coordinates beyond 1e15 m, masses beyond 1e12 kg), on the
//    attribute, whether or not MuJoCo would accept them (MuJoCo reads "nan" and "inf" happily).
import { Codes, formatNumber } from '../engine';
import type { Issue } from './types';
import type { XmlElement } from './xml';

/**
 * MuJoCo's WebAssembly compiler takes about 2–4 ms per body and 0.5–1 ms per geom or equality on an
 * ordinary machine, and crashed from about 3000 bodies (memory); these limits keep a model's import
 * within seconds and clear of the crashes. Real robot models are far below them.
 */
export const MODEL_LIMITS = {
  /** Element nesting from the root (MuJoCo aborts at about 140 nested bodies, 150 nested frames). */
  maxNesting: 100,
  /** After <replicate> expansion. */
  maxBodies: 1000,
  maxGeoms: 5000,
  maxEqualities: 2000,
  maxKeys: 1000,
  /** Elements after <replicate> expansion. */
  maxElements: 50_000,
  /**
   * Bodies that <replicate> expansion makes (every copy counted): 1000 replicated free bodies import
   * and inspect in 8–12 s (MuJoCo's compiler, then a thousand-body system), past the few seconds an
   * import may take; 250 take 2–3 s.
   */
  maxReplicatedBodies: 250,
  /** Geoms that <replicate> expansion makes: a thousand replicated geoms in contact took 3 s a step. */
  maxReplicatedGeoms: 500,
  /**
   * Elements of any kind that <replicate> expansion makes, each copy counted once more for itself (an
   * empty <replicate count="100000"> kept MuJoCo's compiler busy past a minute): MuJoCo took 19 s on
   * a thousand replicated joints.
   */
  maxReplicatedElements: 1000,
};

/** Largest magnitude of any number in a model; lengths and coordinates beyond it are not physical. */
export const MAX_MAGNITUDE = 1e15;
/** Largest mass (kg) and density; beyond it M⁻¹ underflows next to ordinary bodies. */
export const MAX_MASS = 1e12;

/** Attributes holding numbers (MJCF and URDF). Other attributes (names, files, keywords) are not checked. */
const NUMERIC = new Set([
  'pos', 'quat', 'axisangle', 'euler', 'xyaxes', 'zaxis', 'fromto', 'size', 'mass', 'diaginertia', 'fullinertia',
  'friction', 'timestep', 'solref', 'solimp', 'gravity', 'axis', 'anchor', 'range', 'density', 'damping', 'stiffness',
  'armature', 'frictionloss', 'margin', 'gap', 'polycoef', 'relpose', 'qpos', 'qvel', 'time', 'torquescale',
  'xyz', 'rpy', 'value', 'ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz', 'radius', 'length', 'scale', 'ref', 'springref',
  'impratio', 'wind', 'magnetic', 'viscosity', 'o_margin', 'o_solref', 'o_solimp', 'o_friction', 'act', 'ctrl',
  'mpos', 'mquat', 'lower', 'upper', 'effort', 'velocity', 'multiplier', 'offset', 'gear', 'ctrlrange', 'forcerange',
  'tolerance', 'count', 'shellinertia', 'gravcomp', 'springdamper', 'priority', 'solmix', 'condim', 'actuatorfrclimited',
]);
/** Attributes whose numbers cannot be negative. */
const NON_NEGATIVE = new Set(['mass', 'diaginertia', 'friction', 'density', 'damping', 'stiffness', 'armature', 'frictionloss', 'radius', 'length', 'margin', 'gap', 'impratio', 'viscosity', 'o_friction', 'o_margin', 'count']);
/** Attributes whose numbers must be positive. */
const POSITIVE = new Set(['timestep']);
/** Mass-like attributes (kg, kg/m³, kg·m²), held to MAX_MASS. */
const MASS_LIKE = new Set(['mass', 'density']);
const RANGES = new Set(['range', 'ctrlrange', 'forcerange', 'lower', 'upper', 'effort', 'velocity']);
/** `size` is non-negative on geoms and sites (MuJoCo ignores its sign nowhere); on URDF <box> too. */
const SIZE_ELEMENTS = new Set(['geom', 'site', 'box']);

const NON_FINITE = /^[+-]?(nan|inf|infinity)(\(.*\))?$/i;

/** One number of an attribute: NaN for nan, ±Infinity for inf and for overflowing literals; undefined when not a number. */
function numberOf(token: string): number | undefined {
  if (NON_FINITE.test(token)) return /nan/i.test(token) ? NaN : token.startsWith('-') ? -Infinity : Infinity;
  const x = Number(token);
  return Number.isNaN(x) ? undefined : x;
}

/** Checks every attribute; returns the CL614 issues (errors), at most `max`. */
export function checkNumbers(root: XmlElement, max = 50): Issue[] {
  const issues: Issue[] = [];
  const stack = [root];
  while (stack.length && issues.length < max) {
    const el = stack.pop()!;
    for (let k = el.children.length - 1; k >= 0; k--) stack.push(el.children[k]);
    for (const [name, a] of el.attrs) {
      if (!NUMERIC.has(name)) continue;
      const problem = numberProblem(el, name, a.value);
      if (problem) issues.push({ severity: 'error', code: Codes.badNumber, message: `<${el.name} ${name}="${a.value.length > 60 ? a.value.slice(0, 60) + '…' : a.value}">: ${problem}`, element: el, attr: name });
      if (issues.length >= max) break;
    }
  }
  return issues;
}

function numberProblem(el: XmlElement, name: string, value: string): string | undefined {
  const tokens = value.trim().split(/[\s,]+/).filter(Boolean);
  const xs: number[] = [];
  for (const t of tokens) {
    const x = numberOf(t);
    if (x === undefined) return undefined; // not a number list (a keyword, or MuJoCo reports it)
    xs.push(x);
  }
  const bad = xs.find((x) => !Number.isFinite(x));
  if (bad !== undefined) return `${Number.isNaN(bad) ? 'NaN' : 'an infinite value'} is not a valid number.`;
  // Ranges (limits, control ranges) are not simulated, and ±1e20 is a common way to write "unlimited".
  const big = RANGES.has(name) ? undefined : xs.find((x) => Math.abs(x) > (MASS_LIKE.has(name) ? MAX_MASS : MAX_MAGNITUDE));
  if (big !== undefined) return `${big} is beyond the range the engine accepts (|x| ≤ ${MASS_LIKE.has(name) ? `${formatNumber(MAX_MASS)} for masses and densities` : formatNumber(MAX_MAGNITUDE)}).`;
  if (POSITIVE.has(name) && xs.some((x) => x <= 0)) return `${name} must be greater than zero.`;
  const negative = NON_NEGATIVE.has(name) || (name === 'size' && SIZE_ELEMENTS.has(el.name)) || (el.name === 'mass' && name === 'value');
  if (negative && xs.some((x) => x < 0)) return `${name} cannot be negative.`;
  // solref: (timeconst, dampratio) both positive, or (−stiffness, −damping) both non-positive; mixed signs mean nothing.
  if ((name === 'solref' || name === 'o_solref') && xs.length >= 2 && ((xs[0] > 0 && xs[1] < 0) || (xs[0] < 0 && xs[1] > 0))) return 'solref mixes a positive and a negative value (either a time constant and damping ratio, both positive, or a stiffness and damping, both negative).';
  return undefined;
}

/** A <replicate>'s count (MuJoCo's own message covers anything that is not a whole number). */
const countOf = (el: XmlElement): number => {
  const n = Number(el.attrs.get('count')?.value ?? '1');
  return Number.isFinite(n) && n >= 0 ? Math.floor(n) : 1;
};

/** The limits of MODEL_LIMITS; CL613 errors on the element that crosses each (at most one per limit). */
export function checkLimits(root: XmlElement, format: 'mjcf' | 'urdf'): Issue[] {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  const over = (key: string, el: XmlElement, message: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    issues.push({ severity: 'error', code: Codes.modelLimit, message, element: el });
  };
  const totals = { body: 0, geom: 0, equality: 0, key: 0, elements: 0, replicated: 0, replicatedGeoms: 0, replicatedElements: 0 };
  const limitOf = { body: MODEL_LIMITS.maxBodies, geom: MODEL_LIMITS.maxGeoms, equality: MODEL_LIMITS.maxEqualities, key: MODEL_LIMITS.maxKeys };
  const label = { body: 'bodies', geom: 'geoms', equality: 'equality constraints', key: 'keys' };
  const kindOf = (el: XmlElement): keyof typeof limitOf | undefined => {
    if (el.name === 'body' || (format === 'urdf' && el.name === 'link')) return 'body';
    if (el.name === 'geom' || (format === 'urdf' && el.name === 'collision')) return 'geom';
    if (el.parent?.name === 'equality') return 'equality';
    if (el.name === 'key') return 'key';
    return undefined;
  };
  // Depth-first with an explicit stack: the multiplier is the product of the enclosing replicate counts.
  const stack: { el: XmlElement; depth: number; times: number; rep?: XmlElement }[] = [{ el: root, depth: 1, times: 1 }];
  while (stack.length) {
    const { el, depth, times, rep } = stack.pop()!;
    if (depth > MODEL_LIMITS.maxNesting) {
      over('nesting', el, `Elements are nested more than ${MODEL_LIMITS.maxNesting} deep (bodies, frames, defaults…): MuJoCo's XML reader would run out of stack. The model is not compiled.`);
      continue;
    }
    const mult = el.name === 'replicate' ? times * countOf(el) : times;
    totals.elements += times;
    // the copies a <replicate> makes count even when it is empty; its elements count in each copy
    const made = (rep ? times : 0) + (el.name === 'replicate' ? mult : 0);
    if (made > 0) {
      totals.replicatedElements += made;
      if (totals.replicatedElements > MODEL_LIMITS.maxReplicatedElements) {
        over('replicate', el.name === 'replicate' ? el : rep!, `<replicate> expands to more than ${MODEL_LIMITS.maxReplicatedElements} elements (every copy counted): the model is not compiled, because its import would take more than a few seconds. Replicate fewer copies.`);
      }
    }
    if (totals.elements > MODEL_LIMITS.maxElements) {
      // (a <replicate> past its own limit is already reported, on the <replicate>)
      if (!seen.has('replicate')) over('elements', el, `The model has more than ${MODEL_LIMITS.maxElements} elements${times > 1 ? ' once <replicate> is expanded' : ''}: it is not compiled.`);
      break;
    }
    const kind = kindOf(el);
    if (kind) {
      totals[kind] += times;
      // (bodies and geoms a <replicate> made past its own limits are reported once, on the <replicate>)
      if (totals[kind] > limitOf[kind] && !((kind === 'body' || kind === 'geom') && seen.has('replicate'))) over(kind, el, `The model has more than ${limitOf[kind]} ${label[kind]}${times > 1 ? ' once <replicate> is expanded' : ''}: it is not compiled (the import would take minutes, or MuJoCo's WebAssembly would run out of memory).`);
      if (kind === 'body' && rep) {
        totals.replicated += times;
        if (totals.replicated > MODEL_LIMITS.maxReplicatedBodies) {
          over('replicate', rep, `<replicate> expands to more than ${MODEL_LIMITS.maxReplicatedBodies} bodies (every copy counted): the model is not compiled, because its import would take more than a few seconds. Replicate fewer copies, or write the bodies out.`);
        }
      }
      if (kind === 'geom' && rep) {
        totals.replicatedGeoms += times;
        if (totals.replicatedGeoms > MODEL_LIMITS.maxReplicatedGeoms) {
          over('replicate', rep, `<replicate> expands to more than ${MODEL_LIMITS.maxReplicatedGeoms} geoms (every copy counted): the model is not compiled, because its import and its steps would take more than a few seconds. Replicate fewer copies, or write the geoms out.`);
        }
      }
    }
    const inner = el.name === 'replicate' ? el : rep;
    for (let k = el.children.length - 1; k >= 0; k--) stack.push({ el: el.children[k], depth: depth + 1, times: mult, rep: inner });
  }
  if (format === 'urdf' && !seen.has('nesting')) urdfDepth(root, (el) => over('nesting', el, `The URDF's kinematic chain is more than ${MODEL_LIMITS.maxNesting} links deep: MuJoCo's compiler would run out of stack. The model is not compiled.`));
  return issues;
}

/** Calls `tooDeep` with the first <joint> whose child link lies deeper than maxNesting in the link tree. */
function urdfDepth(root: XmlElement, tooDeep: (el: XmlElement) => void): void {
  const parentOf = new Map<string, { parent: string; joint: XmlElement }>();
  for (const j of root.children) {
    if (j.name !== 'joint') continue;
    const parent = j.children.find((c) => c.name === 'parent')?.attrs.get('link')?.value;
    const child = j.children.find((c) => c.name === 'child')?.attrs.get('link')?.value;
    if (parent !== undefined && child !== undefined && !parentOf.has(child)) parentOf.set(child, { parent, joint: j });
  }
  const depth = new Map<string, number>();
  for (const link of parentOf.keys()) {
    // Walk up to a link of known depth (or the root), bounded by the number of joints (cycles stop it).
    const path: string[] = [];
    let at: string | undefined = link;
    while (at !== undefined && !depth.has(at) && path.length <= parentOf.size) {
      path.push(at);
      at = parentOf.get(at)?.parent;
    }
    let d = at !== undefined ? (depth.get(at) ?? 0) : 0;
    for (let k = path.length - 1; k >= 0; k--) {
      depth.set(path[k], ++d);
      if (d > MODEL_LIMITS.maxNesting) return tooDeep(parentOf.get(path[k])!.joint);
    }
  }
}
