// The top-level `fluid`: the medium of MuJoCo's fluid forces (model/fluid.ts). Density and viscosity
// must be at least 0 (CL005 otherwise, on the value); wind is a 3-vector.
import type { FluidSpec } from './spec';
import { FLUID_FIELDS } from './fields';
import { BAD, type FieldObject, type FieldReader } from './reader';

/** The scene's `fluid`, or undefined when absent or in error (the error is reported). */
export function readFluid(r: FieldReader, top: FieldObject): FluidSpec | undefined {
  const node = r.valueOf(top, 'fluid');
  if (node === undefined || node === BAD) return undefined;
  if (node.type !== 'object') {
    r.typeError(node, ['fluid'], `\`fluid\` must be an object such as \`{ "density": 1000, "viscosity": 0.001 }\`, not ${r.describe(node)}.`, {});
    return undefined;
  }
  const o = r.object(node, ['fluid'], FLUID_FIELDS, {});
  const density = r.number(o, 'density', '`fluid.density`', { min: 0, expect: 'at least 0 (kg/m³)' }, {});
  const viscosity = r.number(o, 'viscosity', '`fluid.viscosity`', { min: 0, expect: 'at least 0 (Pa·s)' }, {});
  const wind = r.vec3(o, 'wind', '`fluid.wind`', [0, 0, 0], {});
  if (density === BAD || viscosity === BAD || wind === BAD) return undefined;
  return { density: density ?? 0, viscosity: viscosity ?? 0, wind };
}
