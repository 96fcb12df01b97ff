// Which hinge and slide joints MuJoCo limits. Its compiled jnt_limited is a byte array that the
// WebAssembly bindings cannot read, and a range alone does not say it (`limited="false"` keeps the
// range; `<compiler autolimits>` decides from the range): so ask MuJoCo itself. With every such
// joint pushed past its upper bound, mj_forward makes a limit row (mjCNSTR_LIMIT_JOINT) exactly for
// the limited ones. Self-contained (no import from mujoco.ts, which calls it).
type Num = ArrayLike<number>;
interface Handle {
  delete(): void;
}
interface ProbeModule {
  MjData: new (m: never) => Handle & Record<string, unknown>;
  mj_forward(m: never, d: never): void;
  mjtConstraint?: Record<string, { value: number } | undefined>;
}

/**
 * Per joint: true (limited) or false for hinges and slides with lower < upper, undefined for the
 * others (the caller falls back to the range) or when the probe fails.
 */
export function probeLimited(mj: ProbeModule, m: unknown, types: readonly string[], range: Num, margin: Num, qposadr: Num): (boolean | undefined)[] {
  const out: (boolean | undefined)[] = types.map(() => undefined);
  const probed = types.map((t, i) => (t === 'hinge' || t === 'slide') && range[2 * i] < range[2 * i + 1]);
  if (!probed.includes(true)) return out;
  let d: (Handle & Record<string, unknown>) | undefined;
  try {
    d = new mj.MjData(m as never);
    const q = d.qpos as Float64Array;
    probed.forEach((p, i) => {
      if (p) q[qposadr[i]] = range[2 * i + 1] + Math.max(0, margin[i] ?? 0) + 1;
    });
    mj.mj_forward(m as never, d as never);
    const limitRow = mj.mjtConstraint?.mjCNSTR_LIMIT_JOINT?.value ?? 3;
    const nefc = Number(d.nefc);
    const type = d.efc_type as Num, id = d.efc_id as Num;
    probed.forEach((p, i) => {
      if (p) out[i] = false;
    });
    for (let r = 0; r < nefc; r++) if (type[r] === limitRow && probed[id[r]]) out[id[r]] = true;
    return out;
  } catch {
    return types.map(() => undefined);
  } finally {
    d?.delete();
  }
}
