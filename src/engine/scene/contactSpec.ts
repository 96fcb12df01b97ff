// Shapes and contact settings as the scene states them: the contract between the scene parser (shapes,
// settings), collision detection and the contact solvers (PGS at velocity level, Axion's Newton system
// at position level), which read them. Pure types and the two combination rules.
import type { Quat, Vec3 } from '../types';

export type ShapeType = 'sphere' | 'box' | 'capsule' | 'plane';

interface ShapeBase {
  /** Given name, or `<type><index>` within its owner (e.g. `box0`). */
  name: string;
  /** Pose in the owner's frame (body frame, or world frame for world shapes). Default origin / identity. */
  position: Vec3;
  orientation: Quat;
  /** Coulomb friction coefficient μ ≥ 0 (default 0.5). */
  friction: number;
  /** Restitution e in [0, 1] (default 0). */
  restitution: number;
  /** Index in the owner's `shapes` array (for source ranges: ['bodies', b, 'shapes', i] or ['world', 'shapes', i]). */
  index: number;
}
export interface SphereShape extends ShapeBase { type: 'sphere'; radius: number }
export interface BoxShape extends ShapeBase { type: 'box'; halfExtents: Vec3 }
/** Capsule along the shape's local z axis: a segment of half length `halfLength` swept by `radius`. */
export interface CapsuleShape extends ShapeBase { type: 'capsule'; radius: number; halfLength: number }
/** World only: the half-space n·x ≤ offset is solid (n unit, in the world frame; position/orientation unused). */
export interface PlaneShape extends ShapeBase { type: 'plane'; normal: Vec3; offset: number }
export type ShapeSpec = SphereShape | BoxShape | CapsuleShape | PlaneShape;

/** Combination rules (documented in docs/scene-format.md): μ = √(μA·μB), e = max(eA, eB). */
export const combineFriction = (a: number, b: number): number => Math.sqrt(a * b);
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
}

export interface NewtonSettings { maxIterations: number; tolerance: number; lineSearch: boolean }
export interface PgsSettings { iterations: number; tolerance: number }
/** Scaled Fischer–Burmeister φ(a, b) = αa + βb − √(α²a² + β²b²) (Axion). */
export interface FbSettings { alpha: number; beta: number }
