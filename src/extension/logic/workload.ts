// Where a scene is analysed, decided by its work rather than its body count: a single body with
// thousands of constraint rows is as slow to analyse as a long chain and must not block the
// extension host. Pure (no vscode): unit-tested in extension-analyzer.test.ts.
import type { ConstraintSpec, SceneSpec } from '../../engine';

/** Scenes estimated above this much work are analysed in the worker (`constraintLens.analysis.inlineMaxWork`). */
export const DEFAULT_INLINE_MAX_WORK = 20_000;

interface Workload {
  bodies: number;
  /** Constraint rows (the rows of J). */
  rows: number;
  /** Velocity columns of J (6 per moving body). */
  dofs: number;
  /**
   * Σ over the islands (bodies joined by constraints) of rows·columns (J and the sparse or tall
   * factorisation, through J's column space) plus rows² (the island's block of A = J·M⁻¹·Jᵀ, dense
   * at worst, and the per-row analysis and findings).
   */
  work: number;
}

/** Rows of a constraint, as the engine's models have them. */
function constraintRows(c: ConstraintSpec): number {
  switch (c.type) {
    case 'distance':
      return 1;
    case 'ball':
      return 3;
    case 'hinge':
    case 'slider':
      return 5;
    case 'fixed':
      return 6;
    case 'lock':
      return (c.linear ?? []).filter(Boolean).length + (c.angular ?? []).filter(Boolean).length;
    default:
      return 6;
  }
}

/** The estimated work of analysing one step of `scene` (see `Workload.work`). */
export function sceneWorkload(scene: SceneSpec | undefined): Workload {
  if (!scene) return { bodies: 0, rows: 0, dofs: 0, work: 0 };
  const index = new Map<string, number>();
  for (const b of scene.bodies) if (!b.fixed) index.set(b.name, index.size);
  const n = index.size;
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  const find = (x: number): number => {
    while (parent[x] !== x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const c of scene.constraints) {
    const a = index.get(c.bodyA), b = index.get(c.bodyB);
    if (a !== undefined && b !== undefined) parent[Math.max(find(a), find(b))] = Math.min(find(a), find(b));
  }
  const rows = new Float64Array(n);
  const cols = new Float64Array(n);
  for (let k = 0; k < n; k++) cols[find(k)] += 6;
  let total = 0;
  for (const c of scene.constraints) {
    const r = constraintRows(c);
    total += r;
    const end = index.get(c.bodyA) ?? index.get(c.bodyB);
    if (end !== undefined) rows[find(end)] += r;
  }
  let work = 0;
  for (let k = 0; k < n; k++) if (rows[k] > 0) work += rows[k] * cols[k] + rows[k] * rows[k];
  return { bodies: scene.bodies.length, rows: total, dofs: 6 * n, work };
}

/** True when the analysis belongs in the worker: more bodies than `inlineMaxBodies` or more work than `inlineMaxWork`. */
export function analyseInWorker(w: Workload, opt: { inlineMaxBodies: number; inlineMaxWork?: number }): boolean {
  return w.bodies > opt.inlineMaxBodies || w.work > (opt.inlineMaxWork ?? DEFAULT_INLINE_MAX_WORK);
}
