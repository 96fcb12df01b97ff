// A shape's or an explicit pair's own soft-contact parameters (MuJoCo's per-geom and per-pair solref,
// solimp, and a geom's solmix): read with source ranges, with MuJoCo's ranges; a contact mixes the
// two shapes' as MuJoCo's mj_contactParam does (collision/solmix.ts).
import { Codes } from '../core/codes';
import type { SoftRules } from './contactSpec';
import { BAD, type Bad, type Data, type FieldObject, type FieldReader } from './reader';


/** The soft-contact fields written on `o` (`solmix` only where `mix`), or BAD when one is wrong (reported). */
export function readSoftRules(r: FieldReader, o: FieldObject, label: (f: string) => string, data: Data, mix: boolean): SoftRules | Bad {
  const out: SoftRules = {};
  let bad = false;
  const vector = (key: 'solref' | 'solimp', n: number, shape: string, ok: (v: number[]) => string | undefined): number[] | undefined => {
    const node = r.valueOf(o, key);
    if (node === undefined || node === BAD) return undefined;
    const path = [...o.path, key];
    const v = r.numbers(node, path, label(key), n, shape, data);
    if (v === BAD) {
      bad = true;
      return undefined;
    }
    const why = ok(v);
    if (why) {
      r.report('error', Codes.invalidValue, `${label(key)} ${why}; it is [${v.join(', ')}].`, node, { ...data, path, value: v });
      bad = true;
      return undefined;
    }
    return v;
  };
  const ref = vector('solref', 2, 'two numbers `[timeconst, dampratio]`', (v) => (v[0] > 0 && v[1] > 0 ? undefined : 'needs a positive time constant and damping ratio'));
  const imp = vector('solimp', 5, 'five numbers `[dmin, dmax, width, mid, power]`', (v) =>
    v[0] > 0 && v[0] < 1 && v[1] > 0 && v[1] < 1 && v[2] > 0 && v[3] > 0 && v[3] < 1 && v[4] >= 1 ? undefined : 'needs 0 < dmin, dmax < 1, width > 0, 0 < mid < 1 and power ≥ 1',
  );
  if (ref) out.solref = [ref[0], ref[1]];
  if (imp) out.solimp = [imp[0], imp[1], imp[2], imp[3], imp[4]];
  if (mix) {
    const m = r.number(o, 'solmix', label('solmix'), { min: 0, expect: 'at least 0' }, data);
    if (m === BAD) bad = true;
    else if (m !== undefined) out.solmix = m;
  }
  return bad ? BAD : out;
}
