// Defaults of the contact solvers' settings (the scene format's defaults, docs/formulas.md "Contacts").
import type { FbSettings, NewtonSettings, PgsSettings } from '../scene/contactSpec';
import { DEFAULT_PGS_SLOP } from '../scene/contactFields';
import type { VelocitySettings } from './pgs';
import type { NonlinearSettings } from './system';

export const DEFAULT_NEWTON: NewtonSettings = { maxIterations: 20, tolerance: 1e-10, lineSearch: true };
export const DEFAULT_FB: FbSettings = { alpha: 1, beta: 1 };
export const DEFAULT_PGS: PgsSettings = { iterations: 100, tolerance: 1e-10, slop: DEFAULT_PGS_SLOP };
/** Axion's linear-solver regularisation. */
export const DEFAULT_REGULARIZATION = 1e-6;
/** Restitution applies when a contact approaches faster than this (m/s). */
export const DEFAULT_RESTITUTION_THRESHOLD = 1e-2;

/** Settings of `stepNonlinear`: position-level joints and contacts, exact friction Jacobian, Σ = 0, Υ = 0.2. */
export function defaultNonlinearSettings(overrides: Partial<NonlinearSettings> = {}): NonlinearSettings {
  return {
    newton: { ...DEFAULT_NEWTON },
    fb: { ...DEFAULT_FB },
    regularization: DEFAULT_REGULARIZATION,
    contactLevel: 'position',
    jointLevel: 'position',
    compliance: 0,
    erp: 0.2,
    restitutionThreshold: DEFAULT_RESTITUTION_THRESHOLD,
    frictionJacobian: 'exact',
    ...overrides,
  };
}

/** Settings of `solveContactsPgs` / `stepVelocity`: Σ = 0, erp = 0.2. */
export function defaultVelocitySettings(overrides: Partial<VelocitySettings> = {}): VelocitySettings {
  return { pgs: { ...DEFAULT_PGS }, erp: 0.2, compliance: 0, restitutionThreshold: DEFAULT_RESTITUTION_THRESHOLD, ...overrides };
}
