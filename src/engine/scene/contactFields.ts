// The field tables and defaults of shapes, `world` and the contact-solver settings (scene format
// v1). The parsers (shapes.ts, contactSettings.ts) read exactly these fields;
// test/unit/scene-schema.test.ts checks that schemas/scene.schema.json lists the same ones.
import type { ContactLevel, ContactSettings, FbSettings, FrictionRule, NewtonSettings, PgsSettings, ShapeType } from './contactSpec';
import type { Vec3 } from '../types';

export const SHAPE_TYPES: readonly ShapeType[] = ['sphere', 'box', 'capsule', 'cylinder', 'ellipsoid', 'convex', 'plane'];
/** Planes are world shapes only. */
export const BODY_SHAPE_TYPES: readonly ShapeType[] = ['sphere', 'box', 'capsule', 'cylinder', 'ellipsoid', 'convex'];

/** Fields every shape has (a plane has no pose: not `position` nor `orientation`). */
export const SHAPE_COMMON_FIELDS = ['type', 'name', 'position', 'orientation', 'friction', 'restitution', 'contype', 'conaffinity', 'margin', 'gap', 'priority', 'condim', 'solref', 'solimp', 'solmix'] as const;
/** The contact dimensions a shape may ask for (MuJoCo's condim): 1 frictionless, 3 sliding, 4 torsional, 6 rolling. */
export const CONDIMS: readonly number[] = [1, 3, 4, 6];

/** The additional fields of each shape type. */
export const SHAPE_TYPE_FIELDS: Readonly<Record<ShapeType, readonly string[]>> = {
  sphere: ['radius', 'fluidEllipsoid'],
  box: ['halfExtents', 'fluidEllipsoid'],
  capsule: ['radius', 'halfLength', 'fluidEllipsoid'],
  cylinder: ['radius', 'halfLength', 'fluidEllipsoid'],
  ellipsoid: ['radii', 'fluidEllipsoid'],
  convex: ['vertices'],
  plane: ['normal', 'offset'],
};

/** The required fields of each shape type (besides `type`). */
export const SHAPE_REQUIRED_FIELDS: Readonly<Record<ShapeType, readonly string[]>> = {
  sphere: ['radius'],
  box: ['halfExtents'],
  capsule: ['radius', 'halfLength'],
  cylinder: ['radius', 'halfLength'],
  ellipsoid: ['radii'],
  convex: ['vertices'],
  plane: [],
};

/** Fields of a shape of the given type. */
export function shapeFields(type: ShapeType): readonly string[] {
  const common = type === 'plane' ? SHAPE_COMMON_FIELDS.filter((f) => f !== 'position' && f !== 'orientation') : SHAPE_COMMON_FIELDS;
  return [...common, ...SHAPE_TYPE_FIELDS[type]];
}

/** Every field a shape of any type may have. */
export const SHAPE_ALL_FIELDS: readonly string[] = [...SHAPE_COMMON_FIELDS, ...new Set(Object.values(SHAPE_TYPE_FIELDS).flat())];

/** Fields of the top-level `world`. */
export const WORLD_FIELDS = ['shapes', 'exclude', 'pairs'] as const;
/** Fields of an entry of `world.exclude` and of `world.pairs`. */
export const EXCLUDE_FIELDS = ['bodyA', 'bodyB'] as const;
export const PAIR_FIELDS = ['bodyA', 'shapeA', 'bodyB', 'shapeB', 'friction', 'margin', 'gap', 'condim', 'solref', 'solimp'] as const;
/** The most vertices of a convex shape (its hull is computed on every parse). */
export const MAX_CONVEX_VERTICES = 4096;
/** Fields of `solver.contacts`, `solver.newton`, `solver.fb`, `solver.pgs`. */
export const CONTACTS_FIELDS = ['enabled', 'margin', 'level', 'jointedCollide', 'penetrationTolerance', 'frictionRule', 'solref', 'solimp', 'soft', 'cone', 'impratio', 'sleep', 'sleepTolerance'] as const;
/** MuJoCo's default sleep_tolerance (m/s). */
export const DEFAULT_SLEEP_TOLERANCE = 1e-3;
/** MuJoCo's default contact `solimp` (used when a scene gives `solref` alone). */
export const DEFAULT_SOLIMP: readonly [number, number, number, number, number] = [0.9, 0.95, 0.001, 0.5, 2];
export const FRICTION_RULES: readonly FrictionRule[] = ['geometric', 'max'];
/** MuJoCo's friction cones of `solver.contacts.cone`. */
export const CONTACT_CONES = ['pyramidal', 'elliptic'] as const;
export const NEWTON_FIELDS = ['maxIterations', 'tolerance', 'lineSearch'] as const;
export const FB_FIELDS = ['alpha', 'beta'] as const;
export const PGS_FIELDS = ['iterations', 'tolerance', 'bilateral', 'slop', 'acceleration'] as const;
export const PGS_BILATERAL = ['rows', 'block'] as const;
export const PGS_ACCELERATION = ['nncg', 'none'] as const;

export const CONTACT_LEVELS: readonly ContactLevel[] = ['position', 'velocity'];
/** The formulations that solve contacts (the acceleration formulation ignores shapes, CL116). */
export const CONTACT_FORMULATIONS = ['velocity', 'nonlinear'] as const;

export const DEFAULT_FRICTION = 0.5;
export const DEFAULT_RESTITUTION = 0;
export const DEFAULT_PLANE_NORMAL: Readonly<Vec3> = [0, 0, 1];
export const DEFAULT_PLANE_OFFSET = 0;

/**
 * Defaults of a scene without shapes in the acceleration or velocity formulation. After parsing,
 * `enabled` is true when any shape exists (unless given), and `level` is 'position' for the
 * nonlinear formulation (unless given).
 */
export const DEFAULT_CONTACTS: Readonly<ContactSettings> = { enabled: false, margin: 0, level: 'velocity', jointedCollide: false, penetrationTolerance: 1e-3, frictionRule: 'geometric' };
export const DEFAULT_NEWTON: Readonly<NewtonSettings> = { maxIterations: 20, tolerance: 1e-10, lineSearch: true };
export const DEFAULT_REGULARIZATION = 1e-6;
export const DEFAULT_FB: Readonly<FbSettings> = { alpha: 1, beta: 1 };
/**
 * The dead band of hard contacts' targets (m): wider than the scatter of a resting face's corner gaps
 * (≈ 1e-7 m after a step, a few 1e-6 m after a tilted landing), far below MuJoCo's soft penetration
 * of a resting box (≈ 1e-4..1e-3 m); docs/formulas.md "Velocity level" gives the bound it implies.
 */
export const DEFAULT_PGS_SLOP = 1e-5;
export const DEFAULT_PGS: Readonly<PgsSettings> = { iterations: 100, tolerance: 1e-10, slop: DEFAULT_PGS_SLOP };
