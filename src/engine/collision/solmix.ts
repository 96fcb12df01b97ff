// A contact's soft-constraint parameters from its two shapes, as MuJoCo's mj_contactParam: an explicit
// pair's own; else the shape of higher priority's; else the two mixed by their solmix weights
// (mix = solmix_A / (solmix_A + solmix_B), 0.5 when both are below mjMINVAL, the other's alone when
// one is), solref linearly when both time constants are positive (else element-wise minimum, MuJoCo's
// rule for its direct form) and solimp linearly. A shape without its own takes the scene's
// (`solver.contacts`, MuJoCo's defaults when it has none). Undefined when nothing has its own: the
// solvers then use the scene's settings for every contact, as before.
import { DEFAULT_SOLIMP } from '../scene/contactFields';
import type { CollisionRules, ContactSettings, PairSpec } from '../scene/contactSpec';

export interface SoftParams {
  solref: readonly [number, number];
  solimp: readonly [number, number, number, number, number];
}

/** MuJoCo's mjMINVAL. */
const MIN_VALUE = 1e-15;

/** The soft parameters of a contact between shapes a and b (and their explicit pair, if any). */
export function contactSoft(a: CollisionRules, b: CollisionRules, settings: ContactSettings, pair?: PairSpec): SoftParams | undefined {
  const own = (x: CollisionRules | PairSpec | undefined): boolean => !!x && (x.solref !== undefined || x.solimp !== undefined);
  if (!own(a) && !own(b) && !own(pair)) return undefined;
  const ref0 = settings.solref ?? ([0.02, 1] as const);
  const imp0 = settings.solimp ?? DEFAULT_SOLIMP;
  const refOf = (x: { solref?: readonly [number, number] }) => x.solref ?? ref0;
  const impOf = (x: { solimp?: readonly number[] }) => (x.solimp ?? imp0) as SoftParams['solimp'];
  if (pair && own(pair)) return { solref: refOf(pair), solimp: impOf(pair) };
  const pa = a.priority ?? 0, pb = b.priority ?? 0;
  if (pa > pb) return { solref: refOf(a), solimp: impOf(a) };
  if (pb > pa) return { solref: refOf(b), solimp: impOf(b) };
  const ma = a.solmix ?? 1, mb = b.solmix ?? 1;
  const mix = ma < MIN_VALUE && mb < MIN_VALUE ? 0.5 : ma < MIN_VALUE ? 0 : mb < MIN_VALUE ? 1 : ma / (ma + mb);
  const ra = refOf(a), rb = refOf(b);
  const solref: [number, number] = ra[0] > 0 && rb[0] > 0 ? [mix * ra[0] + (1 - mix) * rb[0], mix * ra[1] + (1 - mix) * rb[1]] : [Math.min(ra[0], rb[0]), Math.min(ra[1], rb[1])];
  const ia = impOf(a), ib = impOf(b);
  const solimp = ia.map((x, k) => mix * x + (1 - mix) * ib[k]) as unknown as SoftParams['solimp'];
  return { solref, solimp };
}
