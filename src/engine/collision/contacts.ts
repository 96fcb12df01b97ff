// Contacts: what collision detection finds (Contact) and what the contact solvers report per contact
// (ContactForce). The shapes and contact settings they work from are the scene's (scene/contactSpec.ts).
// Pure types, no logic.
import type { Vec3 } from '../types';
import type { SoftParams } from './solmix';

/**
 * One contact point between body A and body B (B may be the world: index -1).
 * The normal points from B to A; gap < 0 means penetration. Local points are fixed at detection
 * and carried with the bodies, so that a position-level solver can evaluate the gap at q⁺:
 *   gap(q) = n·((pA + RA·localA) − (pB + RB·localB)) − (gap0 offset folded in, see `thickness`).
 */
export interface Contact {
  /** Body indices in the scene's `bodies` array; -1 for the world. */
  bodyA: number;
  bodyB: number;
  /** Shape indices within their owner's `shapes` array (world shapes: owner -1). */
  shapeA: number;
  shapeB: number;
  /** World contact point (midway between the two surfaces). */
  point: Vec3;
  /** Unit normal, world frame, from B to A. */
  normal: Vec3;
  /** Signed distance between the surfaces along the normal at detection (negative: penetration). */
  gap: number;
  /** Unit tangents, world frame: (t1, t2, normal) is right-handed. */
  t1: Vec3;
  t2: Vec3;
  /** Witness points on A's and B's surfaces, in A's and B's body frames (world frame when the owner is the world). */
  localA: Vec3;
  localB: Vec3;
  /** Combined friction and restitution. */
  friction: number;
  restitution: number;
  /** Its own soft-constraint parameters where its shapes or pair have them (else the scene's). */
  soft?: SoftParams;
}

export type ContactState = 'open' | 'stick' | 'slip';

/** What a contact solver reports per contact (forces = impulses / h). */
export interface ContactForce {
  normalForce: number;
  /** Along t1 and t2. */
  frictionForce: [number, number];
  state: ContactState;
  /** ‖λ_f‖ / (μ·λ_n); 0 when λ_n = 0. */
  coneRatio: number;
}
