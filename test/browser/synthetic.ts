// A large synthetic PanelModel (a chain of N bodies joined by ball joints: J is 3N × 6N) for
// the responsiveness test. Plausible structure and magnitudes; not physics.
import type { PanelModel, StepRecord, SystemSnapshot } from '../../src/protocol';

type Csr = SystemSnapshot['J'];

function csrFromRows(rows: number, cols: number, entries: (i: number) => [number, number][]): Csr {
  const rowPtr = new Int32Array(rows + 1);
  const ci: number[] = [];
  const vs: number[] = [];
  for (let i = 0; i < rows; i++) {
    rowPtr[i] = ci.length;
    const e = entries(i).sort((a, b) => a[0] - b[0]);
    for (const [c, v] of e) {
      ci.push(c);
      vs.push(v);
    }
  }
  rowPtr[rows] = ci.length;
  return { rows, cols, rowPtr, colIdx: Int32Array.from(ci), values: Float64Array.from(vs) };
}

export function bigChainModel(nBodies: number): PanelModel {
  const nRows = 3 * nBodies;
  const nCols = 6 * nBodies;
  const names = Array.from({ length: nBodies }, (_, k) => `link${k}`);
  const comps = ['vx', 'vy', 'vz', 'ωx', 'ωy', 'ωz'];
  const columnLabels = names.flatMap((n) => comps.map((c) => `${n}.${c}`));
  const r = 0.05;
  // Joint k joins link(k-1) (or the world) and link k; row d ∈ {x,y,z}.
  const J = csrFromRows(nRows, nCols, (i) => {
    const k = Math.floor(i / 3);
    const d = i % 3;
    const out: [number, number][] = [];
    const skew = (base: number, sgn: number): void => {
      const a = (d + 1) % 3;
      const b = (d + 2) % 3;
      out.push([base + 3 + a, sgn * r * (d === 2 ? 1 : -1)], [base + 3 + b, sgn * r * 0.5]);
    };
    if (k > 0) {
      out.push([(k - 1) * 6 + d, 1]);
      skew((k - 1) * 6, 1);
    }
    out.push([k * 6 + d, -1]);
    skew(k * 6, -1);
    return out;
  });
  const A = csrFromRows(nRows, nRows, (i) => {
    const k = Math.floor(i / 3);
    const out: [number, number][] = [];
    for (let kk = Math.max(0, k - 1); kk <= Math.min(nBodies - 1, k + 1); kk++) {
      for (let d = 0; d < 3; d++) {
        const j = kk * 3 + d;
        const v = kk === k ? (j === i ? 2.1 : 0.02) : j % 3 === i % 3 ? -1 : 0.01;
        out.push([j, v]);
      }
    }
    return out;
  });
  const MinvBlocks = new Float64Array(nBodies * 36);
  for (let b = 0; b < nBodies; b++) for (let d = 0; d < 6; d++) MinvBlocks[b * 36 + d * 7] = d < 3 ? 1 : 10;
  const vec = (n: number, f: (i: number) => number): Float64Array => Float64Array.from({ length: n }, (_, i) => f(i));
  const lambda = vec(nRows, (i) => (i % 3 === 2 ? 9.81 * (nBodies - Math.floor(i / 3)) : 0.01 * Math.sin(i)));
  const constraints = names.map((n, k) => ({
    name: `joint${k}`,
    type: 'ball',
    fileIndex: k,
    bodyA: k === 0 ? 'world' : names[k - 1],
    bodyB: n,
    firstRow: 3 * k,
    rows: 3,
    violation: 1e-9 * (k + 1),
    velocityViolation: 0,
    lambda: [lambda[3 * k], lambda[3 * k + 1], lambda[3 * k + 2]],
    forceA: [0, 0, -lambda[3 * k + 2]] as [number, number, number],
    torqueA: [0, 0, 0] as [number, number, number],
    forceB: [0, 0, lambda[3 * k + 2]] as [number, number, number],
    torqueB: [0, 0, 0] as [number, number, number],
    status: 'ok' as const,
    anchorAWorld: [0.1 * k, 0, 0] as [number, number, number],
    anchorBWorld: [0.1 * k, 0, 0] as [number, number, number],
  }));
  const bodyStates = names.map((n, k) => ({
    name: n,
    column: 6 * k,
    fixed: false,
    mass: 1,
    position: [0.1 * k + 0.05, 0, 0] as [number, number, number],
    orientation: [0, 0, 0, 1] as [number, number, number, number],
    velocity: [0, 0, 0] as [number, number, number],
    angularVelocity: [0, 0, 0] as [number, number, number],
    quatDrift: 0,
  }));
  const snapshot: SystemSnapshot = {
    step: 3,
    t: 0.003,
    formulation: 'acceleration',
    compliance: 0,
    stabilization: 'aerislab',
    bodies: names,
    columnLabels,
    rows: Array.from({ length: nRows }, (_, i) => ({ constraint: `joint${Math.floor(i / 3)}`, modelIndex: Math.floor(i / 3), row: i % 3, label: `joint${Math.floor(i / 3)}.${'xyz'[i % 3]}` })),
    MinvBlocks,
    J,
    A,
    F: vec(nCols, (i) => (i % 6 === 2 ? -9.81 : 0)),
    v: vec(nCols, (i) => 0.001 * Math.cos(i)),
    rhs: vec(nRows, (i) => Math.sin(i)),
    a0: vec(nRows, () => 0),
    b: vec(nRows, () => 0),
    lambda,
    a: vec(nCols, (i) => 0.01 * Math.sin(i)),
    C: vec(nRows, (i) => 1e-9 * Math.sin(i)),
    Cdot: vec(nRows, () => 0),
    constraintForce: vec(nCols, (i) => (i % 6 === 2 ? 9.81 : 0)),
    method: 'cholesky',
    cond: { A: 4.2e5, scaled: 3.1e4 },
    condEstimated: true,
    rankTolerance: 1e-12,
    rank: { J: nRows, rows: nRows, dofs: nCols },
    redundant: [],
    consistent: null,
    residual: 1e-12,
    constraints,
    bodyStates,
    energy: { kinetic: 0, potential: 0, total: 0 },
    islands: [],
    diagnostics: [],
  };
  const history: StepRecord[] = [1, 2, 3].map((step) => ({
    step,
    t: step * 0.001,
    C: constraints.map((c) => c.violation * step),
    lambda: Array.from(lambda.subarray(0, 600)),
    cond: { A: 4.2e5 },
    condEstimated: true,
    energy: { kinetic: step, potential: -step, total: 0 },
    quatDrift: 1e-12 * step,
    method: 'cholesky',
    poses: bodyStates.flatMap((b) => [...b.position, 0, 0, 0, 1]),
  }));
  return {
    sceneName: `Synthetic chain of ${nBodies} links`,
    fileName: 'synthetic.scene.json',
    snapshot,
    history,
    plannedSteps: 3,
    dt: 0.001,
    diagnostics: [],
    sceneBodies: names.map((name) => ({ name, fixed: false })),
  };
}
