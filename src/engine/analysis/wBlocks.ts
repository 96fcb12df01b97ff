// Solfec's W as a matrix of 3×3 blocks W_αβ, one per pair of local frames (the seed
// solfec-local-dynamics.rst, equations Walbe, Walal and sdef; Solfec's ldy.c LOCDYN_Update_Begin):
//   W_αα = h·H_iα·A_i⁻¹·H_iαᵀ + h·H_jα·A_j⁻¹·H_jαᵀ          (both bodies of the frame)
//   W_αβ = s_αβ·h·H_kα·A_k⁻¹·H_kβᵀ, α ≠ β, through a body k both frames hold
//   s_αβ = −1 when k is the master of one frame and the slave of the other, +1 otherwise.
// The engine's rows are U = J_A·u_A + J_B·u_B: the frame is attached to bodyA, its master
// (U_α = H_iα·u_i − H_jα·u_j with j the master gives J_A = −H_jα), and bodyB is the slave (J_B = H_iα).
// So h·J_kα·M_k⁻¹·J_kβᵀ is exactly s_αβ·h·H_kα·A_k⁻¹·H_kβᵀ: the block as it sits in W, with its sign.
// A constraint's rows are cut into frames of three (Solfec's frames have three rows: normal and two
// tangents, or a point's x, y, z); a distance row or a hinge's two angular rows make a shorter frame.
// Two frames holding the same two bodies (e.g. the point and axis frames of one hinge) get one
// off-diagonal block per shared body, as ldy.c keeps one OFFB per body in a frame's adjacency. The
// world and fixed bodies have no columns (A⁻¹ = 0): they add nothing and join no frames.
import type { SystemSnapshot } from '../result';

/** One block of W: frames α and β (indices into `frames`), the body through which they couple, the sign. */
export interface WBlock {
  alpha: number;
  beta: number;
  /** The two frames' names. */
  frames: [string, string];
  /** The shared body of an off-diagonal block; null on the diagonal, where both bodies of the frame add. */
  body: string | null;
  /** s_αβ of the seed's rule (+1 on the diagonal). */
  sign: 1 | -1;
  /** The block, rows of α by rows of β (3×3 for full frames), as it sits in W (sign included). */
  block: number[][];
}

/** A local frame: up to three consecutive rows of one constraint, its master (bodyA) and slave (bodyB). */
export interface WFrame {
  name: string;
  constraint: string;
  /** First row in J and W, and how many rows (≤ 3). */
  row: number;
  rows: number;
  /** The bodies with columns in the frame's rows: master is bodyA, slave bodyB (null: the world or a fixed body). */
  master: string | null;
  slave: string | null;
}

export interface WBlocks {
  frames: WFrame[];
  blocks: WBlock[];
}

/** Rows per local frame, as Solfec's. */
const FRAME_ROWS = 3;

/**
 * W in blocks, from the snapshot's J and per-body M⁻¹ (velocity formulation of the engine; undefined
 * without W or without per-body M⁻¹ blocks, e.g. a MuJoCo or trace snapshot). `dt` is the step h.
 */
export function wBlocks(snap: SystemSnapshot, dt: number): WBlocks | undefined {
  if (!snap.W || snap.MinvBlocks.length !== 36 * snap.bodies.length) return undefined;
  const J = snap.J;
  const bodyIndex = new Map(snap.bodies.map((b, i) => [b, i]));
  const frames: WFrame[] = [];
  for (const c of snap.constraints) {
    const n = Math.ceil(c.rows / FRAME_ROWS);
    for (let k = 0; k < n; k++) {
      const row = c.firstRow + k * FRAME_ROWS;
      frames.push({
        name: n === 1 ? c.name : `${c.name}[${k}]`,
        constraint: c.name,
        row,
        rows: Math.min(FRAME_ROWS, c.firstRow + c.rows - row),
        master: bodyIndex.has(c.bodyA) ? c.bodyA : null,
        slave: bodyIndex.has(c.bodyB) ? c.bodyB : null,
      });
    }
  }
  // per frame and body: the frame's rows of J in that body's six columns (dense r×6), for bodies it touches
  const parts = frames.map((f) => {
    const m = new Map<number, Float64Array>();
    for (let r = 0; r < f.rows; r++) {
      for (let p = J.rowPtr[f.row + r]; p < J.rowPtr[f.row + r + 1]; p++) {
        const body = Math.floor(J.colIdx[p] / 6);
        let block = m.get(body);
        if (!block) m.set(body, (block = new Float64Array(f.rows * 6)));
        block[r * 6 + (J.colIdx[p] % 6)] = J.values[p];
      }
    }
    return m;
  });
  // frames per body: the edges of the graph of local frames
  const byBody = new Map<number, number[]>();
  parts.forEach((m, a) => m.forEach((_, body) => byBody.set(body, [...(byBody.get(body) ?? []), a])));
  const blocks: WBlock[] = [];
  const product = (a: number, b: number, body: number, into: number[][]): void => {
    // h·J_kα·M_k⁻¹·J_kβᵀ
    const Ja = parts[a].get(body)!, Jb = parts[b].get(body)!;
    const Mi = snap.MinvBlocks.subarray(36 * body, 36 * body + 36);
    for (let i = 0; i < frames[a].rows; i++) {
      const t = new Float64Array(6);
      for (let c = 0; c < 6; c++) for (let d = 0; d < 6; d++) t[c] += Ja[i * 6 + d] * Mi[d * 6 + c];
      for (let j = 0; j < frames[b].rows; j++) {
        let s = 0;
        for (let c = 0; c < 6; c++) s += t[c] * Jb[j * 6 + c];
        into[i][j] += dt * s;
      }
    }
  };
  const zeros = (r: number, c: number) => Array.from({ length: r }, () => new Array<number>(c).fill(0));
  frames.forEach((f, a) => {
    const block = zeros(f.rows, f.rows);
    for (const body of parts[a].keys()) product(a, a, body, block);
    blocks.push({ alpha: a, beta: a, frames: [f.name, f.name], body: null, sign: 1, block });
  });
  const role = (f: WFrame, body: string) => (body === f.master ? 'master' : 'slave');
  frames.forEach((f, a) => {
    for (const body of [...parts[a].keys()].sort((x, y) => x - y)) {
      for (const b of byBody.get(body)!) {
        if (b === a) continue;
        const block = zeros(f.rows, frames[b].rows);
        product(a, b, body, block);
        const name = snap.bodies[body];
        blocks.push({ alpha: a, beta: b, frames: [f.name, frames[b].name], body: name, sign: role(f, name) === role(frames[b], name) ? 1 : -1, block });
      }
    }
  });
  return { frames, blocks };
}

/** The blocks summed into one dense rows×rows matrix (what the scalar W must equal). */
export function assembleWBlocks(wb: WBlocks, rows: number): number[][] {
  const W = Array.from({ length: rows }, () => new Array<number>(rows).fill(0));
  for (const b of wb.blocks) {
    const r0 = wb.frames[b.alpha].row, c0 = wb.frames[b.beta].row;
    b.block.forEach((line, i) => line.forEach((x, j) => (W[r0 + i][c0 + j] += x)));
  }
  return W;
}
