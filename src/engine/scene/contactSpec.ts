// Shapes and contact settings as the scene states them: the contract between the scene parser (shapes,
// settings), collision detection and the contact solvers (PGS at velocity level, Axion's Newton system
// at position level), which read them. Pure types and the two combination rules.
import type { Quat, Vec3 } from '../types';

export type ShapeType = 'sphere' | 'box' | 'capsule' | 'cylinder' | 'ellipsoid' | 'convex' | 'plane';

/** A shape's or a pair's own soft-contact parameters (MuJoCo's per-geom solref, solimp, solmix). */
export interface SoftRules {
  /** [time constant > 0, damping ratio > 0] (MuJoCo's solref). */
  solref?: [number, number];
  /** [dmin, dmax, width, mid, power] (MuJoCo's solimp). */
  solimp?: [number, number, number, number, number];
  /** The shape's weight when two shapes of equal priority mix their solref and solimp (MuJoCo's solmix, default 1). */
  solmix?: number;
}

/**
 * MuJoCo's per-geom collision rules, all optional (defaults in brackets). Two shapes may touch when
 * (contypeA & conaffinityB) ≠ 0 or (contypeB & conaffinityA) ≠ 0 [1, 1: always]. The pair's margin
 * and gap are the sums of the two shapes' [0, 0]: a contact is kept while the distance is at most
 * margin + gap, and the solver holds the surfaces `margin` apart. Friction and `condim` come from the
 * shape of higher `priority` [0]; on equal priority the friction rule of `solver.contacts` combines
 * the frictions and the larger condim wins. condim 1 is frictionless, 3 [default] has sliding friction.
 * A soft contact's solref and solimp are the higher priority shape's, or on equal priority the two
 * shapes' mixed by their solmix (a shape without its own takes `solver.contacts`').
 */
export interface CollisionRules extends SoftRules {
  contype?: number;
  conaffinity?: number;
  margin?: number;
  gap?: number;
  priority?: number;
  condim?: number;
}

interface ShapeBase extends CollisionRules {
  /** Given name, or `<type><index>` within its owner (e.g. `box0`). */
  name: string;
  /** Pose in the owner's frame (body frame, or world frame for world shapes). Default origin / identity. */
  position: Vec3;
  orientation: Quat;
  /** Coulomb friction coefficient μ ≥ 0 (default 0.5). */
  friction: number;
  /** Restitution e in [0, 1] (default 0). */
  restitution: number;
  /**
   * The shape's fluid forces by MuJoCo's ellipsoid model (its fluidshape="ellipsoid" and fluidcoef):
   * [blunt drag, slender drag, angular drag, Kutta lift, Magnus lift]; with the scene's `fluid` only.
   */
  fluidEllipsoid?: [number, number, number, number, number];
  /** Index in the owner's `shapes` array (for source ranges: ['bodies', b, 'shapes', i] or ['world', 'shapes', i]). */
  index: number;
}
export interface SphereShape extends ShapeBase { type: 'sphere'; radius: number }
export interface BoxShape extends ShapeBase { type: 'box'; halfExtents: Vec3 }
/** Capsule along the shape's local z axis: a segment of half length `halfLength` swept by `radius`. */
export interface CapsuleShape extends ShapeBase { type: 'capsule'; radius: number; halfLength: number }
/** Cylinder along the shape's local z axis: radius `radius`, half height `halfLength`. */
export interface CylinderShape extends ShapeBase { type: 'cylinder'; radius: number; halfLength: number }
/** Ellipsoid with semi-axes `radii` along the shape's local x, y, z. */
export interface EllipsoidShape extends ShapeBase { type: 'ellipsoid'; radii: Vec3 }
/** The convex hull of `vertices` (shape frame); at least 4 points not all in one plane. */
export interface ConvexShape extends ShapeBase { type: 'convex'; vertices: Vec3[] }
/** World only: the half-space n·x ≤ offset is solid (n unit, in the world frame; position/orientation unused). */
export interface PlaneShape extends ShapeBase { type: 'plane'; normal: Vec3; offset: number }
export type ShapeSpec = SphereShape | BoxShape | CapsuleShape | CylinderShape | EllipsoidShape | ConvexShape | PlaneShape;

/** Combination rules (documented in docs/scene-format.md): μ = √(μA·μB) (or max, see FrictionRule), e = max(eA, eB). */
export const combineFriction = (a: number, b: number, rule: FrictionRule = 'geometric'): number => (rule === 'max' ? Math.max(a, b) : Math.sqrt(a * b));
/** How two frictions of equal priority combine: geometric mean (default), or MuJoCo's maximum. */
export type FrictionRule = 'geometric' | 'max';
export const combineRestitution = (a: number, b: number): number => Math.max(a, b);

export type ContactLevel = 'position' | 'velocity';

export interface ContactSettings {
  /** Default: true when any shape exists. */
  enabled: boolean;
  /** A contact is generated when gap ≤ margin (default 0). */
  margin: number;
  /** Default 'position' for the nonlinear formulation, 'velocity' otherwise. */
  level: ContactLevel;
  /** Collide shapes of two bodies joined by a constraint (default false). */
  jointedCollide: boolean;
  /** Penetration (m) above which a run reports CL501 and an initial overlap CL505 (default 1e-3). */
  penetrationTolerance: number;
  /** Friction of two shapes of equal priority: 'geometric' (default) or 'max' (MuJoCo). */
  frictionRule?: FrictionRule;
  /**
   * Velocity formulation: recover penetrations as MuJoCo's soft contacts do, with its reference
   * acceleration from `solref` [time constant, damping ratio] and `solimp` [dmin, dmax, width, mid,
   * power], instead of `erp` (docs/formulas.md "Penetration recovery"). Absent: `erp`.
   */
  solref?: [number, number];
  solimp?: [number, number, number, number, number];
  /**
   * Velocity formulation with `solref`/`solimp`: contacts are MuJoCo's soft constraints, each row
   * regularised by R = (1 − d)/d·Â and driven to its reference acceleration, so a resting body sinks
   * to where the soft force carries it (docs/formulas.md "Soft contacts"). Default false: hard
   * contacts that only recover a penetration by the reference acceleration.
   */
  soft?: boolean;
  /**
   * With `soft`: MuJoCo's friction cone. 'pyramidal' (MuJoCo's default): four edge rows J_n ± μ·J_t per
   * contact along MuJoCo's contact frame, each with the common regulariser 2μ²/impratio·(1 − d)/d·Â·(1 + μ²);
   * 'elliptic' (default here): the Coulomb disc, friction regularised by R_n/impratio.
   */
  cone?: 'pyramidal' | 'elliptic';
  /** With `soft`: MuJoCo's impratio, R_n / R_t (default 1). */
  impratio?: number;
  /**
   * Sleeping islands (MuJoCo's `sleep` flag; contact/sleep.ts): bodies at rest for 10 steps leave the
   * solve until an awake body touches them. Default false.
   */
  sleep?: boolean;
  /** With `sleep`: the speed below which a body counts as at rest (m/s; MuJoCo's sleep_tolerance, default 1e-3). */
  sleepTolerance?: number;
}

/** Two bodies (names; "world" for the world's shapes) whose shapes never touch (MuJoCo's `<exclude>`). */
export interface ExcludeSpec {
  bodyA: string;
  bodyB: string;
  index: number;
}

/**
 * An explicit pair of shapes (MuJoCo's `<pair>`): collided whatever the filters say, with its own
 * parameters in place of the combined ones (each optional).
 */
export interface PairSpec {
  bodyA: string;
  shapeA: string;
  bodyB: string;
  shapeB: string;
  friction?: number;
  margin?: number;
  gap?: number;
  condim?: number;
  /** The pair's own soft-contact parameters (replace the shapes' mix). */
  solref?: [number, number];
  solimp?: [number, number, number, number, number];
  index: number;
}

export interface NewtonSettings { maxIterations: number; tolerance: number; lineSearch: boolean }
export interface PgsSettings {
  iterations: number;
  tolerance: number;
  /** Bilateral rows visited one by one ('rows', default) or solved as one block per island per sweep ('block'). */
  bilateral?: 'rows' | 'block';
  /**
   * Half-width (m) of the dead band of a hard contact's normal target: a point with |gap| ≤ slop
   * is held where it is (target 0) instead of closed or pushed out (docs/formulas.md "Velocity level").
   */
  slop?: number;
  /**
   * The sweeps of an island of contacts alone (no joint rows) accelerated by nonsmooth nonlinear conjugate
   * gradients ('nncg', default), or plain projected Gauss–Seidel ('none'); docs/formulas.md "Velocity level".
   */
  acceleration?: 'nncg' | 'none';
}
/** Scaled Fischer–Burmeister φ(a, b) = αa + βb − √(α²a² + β²b²) (Axion). */
export interface FbSettings { alpha: number; beta: number }
