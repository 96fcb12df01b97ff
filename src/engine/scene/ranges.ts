// The magnitudes the engine accepts in a scene, checked where the numbers are read (CL005 on the
// value) so that an absurd but finite number never reaches the numerics: a coordinate of 2⁵³ keeps
// no digit below 2 m, and an SVD or Newton iteration on such a matrix spends its whole budget on
// round-off. Velocities, forces and gains are left to the run's own guards (CL403 at step 0).
import type { NumberChecks } from './reader';

/** Largest |coordinate| in metres (positions, anchors, plane offsets, sizes, convex points). */
export const MAX_COORDINATE = 1e15;
/** Largest mass in kilograms. */
export const MAX_MASS = 1e12;

/** Checks for one component of a position, an anchor or a plane offset. */
export const COORDINATE: NumberChecks = { magnitude: { max: MAX_COORDINATE, text: '1e15', what: 'm (beyond it a double keeps no digit below 0.1 m)' } };
/** The magnitude part of a size's checks (the sign has its own code). */
export const SIZE_MAGNITUDE: NumberChecks['magnitude'] = COORDINATE.magnitude;
/** The magnitude part of a mass's checks. */
export const MASS_MAGNITUDE: NumberChecks['magnitude'] = { max: MAX_MASS, text: '1e12', what: 'kg' };
