// What MuJoCo computes from a model's numbers can leave the ranges the scene parser accepts even when
// every number written is within them: a geom of 3.5e12 m at the default density weighs 1e41 kg. The
// converted scene is held to the parser's ranges (src/engine/scene/ranges.ts) before it is used or
// exported, so Export as Scene never writes a scene its own parser rejects.
import { MAX_MAGNITUDE, MAX_MASS } from './precheck';

/** Scene fields in metres held to ±MAX_MAGNITUDE (the parser's COORDINATE checks). */
const COORDINATE_KEYS = new Set(['position', 'anchorA', 'anchorB', 'anchor', 'offset', 'radius', 'halfLength', 'halfExtents', 'points']);

/** The path and value of the first mass or coordinate of a converted scene beyond the parser's range. */
export function firstOutOfRange(scene: unknown): { at: string; value: number; max: number } | undefined {
  const walk = (v: unknown, at: string, max: number | undefined): { at: string; value: number; max: number } | undefined => {
    if (typeof v === 'number') return max !== undefined && Math.abs(v) > max ? { at, value: v, max } : undefined;
    if (Array.isArray(v) || ArrayBuffer.isView(v)) {
      const a = v as ArrayLike<unknown>;
      for (let i = 0; i < a.length; i++) {
        const r = walk(a[i], `${at}[${i}]`, max);
        if (r) return r;
      }
      return undefined;
    }
    if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        const r = walk(x, at ? `${at}.${k}` : k, k === 'mass' ? MAX_MASS : COORDINATE_KEYS.has(k) ? MAX_MAGNITUDE : max);
        if (r) return r;
      }
    }
    return undefined;
  };
  return walk(scene, '', undefined);
}
