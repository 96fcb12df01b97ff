// The fast paths of the assembly (written for speed, so checked for sameness) against references: A = J·M⁻¹·Jᵀ through the flat
// schedule (aPairs.ts) against a dense product with M⁻¹ built independently from the scene, and
// against the former body-by-body accumulation (the lower triangle, which the up-looking Cholesky
// reads, must be the same numbers); assembling into reused buffers gives what a fresh assembly
// gives; the ball rows written at once and the energy without temporaries are the former numbers;
// J's structural zeros (ConstraintModel.rowMasks) are +0 at every state and the products that skip
// them (jProducts.ts with row slots, the assembly's Ċ) equal the full products bit for bit.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Matrix, inverse } from 'ml-matrix';
import { parseScene } from '../../src/engine/scene/parse';
import { type Assembly, applyMinv, assemble, assemblyBuffers, buildWorld, type World } from '../../src/engine/assembly/assemble';
import { type BodyState, initialState } from '../../src/engine/model/body';
import { mat3MulVec, quatNormalize, quatRotateInv, quatToMat3 } from '../../src/engine/core/math';
import { energyOf } from '../../src/engine/analysis/analysis';
import { makeEval } from '../../src/engine/model/constraint';
import { anchorKinematics, makeAnchorKin, writeBallRow, writeBallRows } from '../../src/engine/model/kinematics';
import type { Quat, Vec3 } from '../../src/engine/types';
import { jMulVec, jTransposeMulVec, rowSlotsOf } from '../../src/engine/assembly/jProducts';
import { csrMulVec, csrTransposeMulVec } from '../../src/engine/linalg/sparse';
import { chainParams, chainSceneText } from '../../bench/chain';
import { rng } from './linalg-fixtures';

/** Every constraint type, world ends, a fixed body as an end and as a coupler's extra end, a full inertia matrix. */
const SCENE = {
  gravity: [0, 0, -9.81],
  bodies: [
    { name: 'base', mass: 5, fixed: true, position: [0.5, 0.2, 1.5], orientation: [0.1, 0.2, 0.3, 0.9273618495495703] },
    { name: 'b0', mass: 1.5, inertia: [0.1, 0.2, 0.3], position: [0, 0, 1] },
    { name: 'b1', mass: 0.7, inertia: [[0.05, 0.01, 0.002], [0.01, 0.04, -0.003], [0.002, -0.003, 0.03]], position: [0.3, 0, 1] },
    { name: 'b2', mass: 2, inertia: [0.2, 0.2, 0.1], position: [0.6, 0.1, 1] },
    { name: 'b3', mass: 1, inertia: [0.01, 0.02, 0.03], position: [0.5, 0.2, 1.2] },
    { name: 'b4', mass: 0.4, inertia: [0.02, 0.01, 0.02], position: [0.9, 0.2, 1.2] },
    { name: 'b5', mass: 1.2, inertia: [0.03, 0.03, 0.05], position: [1.2, 0.2, 1.1] },
    { name: 'b6', mass: 0.9, inertia: [0.04, 0.02, 0.03], position: [1.5, 0.3, 1.1] },
  ],
  constraints: [
    { name: 'pin', type: 'ball', bodyA: 'world', bodyB: 'b0', anchorA: [0, 0, 1] },
    { name: 'h1', type: 'hinge', bodyA: 'b0', bodyB: 'b1', anchorA: [0.15, 0, 0], anchorB: [-0.15, 0, 0], axisA: [0, 1, 0] },
    { name: 'rod', type: 'distance', bodyA: 'b1', bodyB: 'b2', anchorA: [0.1, 0, 0], anchorB: [-0.1, 0, 0] },
    { name: 'rod2', type: 'distance', bodyA: 'b1', bodyB: 'b2', anchorA: [0, 0.1, 0], anchorB: [0, -0.05, 0.02] },
    { name: 's1', type: 'slider', bodyA: 'base', bodyB: 'b3', axisA: [1, 0, 0] },
    { name: 'lk', type: 'lock', bodyA: 'b3', bodyB: 'b4', linear: [true, false, true], angular: [false, true, false] },
    { name: 'u', type: 'universal', bodyA: 'b4', bodyB: 'b5', anchorA: [0.15, 0, 0], anchorB: [-0.15, 0, 0], axisA: [0, 0, 1], axisB: [0, 1, 0] },
    { name: 'weld', type: 'fixed', bodyA: 'b5', bodyB: 'b6' },
    { name: 'tie', type: 'ball', bodyA: 'b6', bodyB: 'world', anchorA: [0.1, 0, 0], anchorB: [1.6, 0.3, 1.1] },
    { name: 'mimic', type: 'coupler', joints: ['h1', 's1'], coefficients: [0, 0.5, 0.1] },
  ],
};

/** Random poses and velocities for the moving bodies (the fixed body keeps its pose). */
function randomStates(world: World, seed: number): BodyState[] {
  const r = rng(seed);
  const u = () => 2 * r() - 1;
  return world.scene.bodies.map((b) => {
    const s = initialState(b);
    if (b.fixed) return s;
    s.p = [s.p[0] + 0.1 * u(), s.p[1] + 0.1 * u(), s.p[2] + 0.1 * u()];
    s.q = quatNormalize([u(), u(), u(), u()] as Quat);
    s.v = [u(), u(), u()];
    s.w = [3 * u(), 3 * u(), 3 * u()];
    return s;
  });
}

/** M⁻¹ (dense, 6n×6n) from the scene's masses and inertias at the given orientations, with ml-matrix's inverse. */
function denseMinv(world: World, states: BodyState[]): Matrix {
  const n = world.nCols;
  const M = Matrix.zeros(n, n);
  world.bodies.forEach((b, i) => {
    if (b.column < 0) return;
    const c = b.column;
    for (let d = 0; d < 3; d++) M.set(c + d, c + d, 1 / b.spec.mass);
    const R = new Matrix([quatToMat3(states[i].q as Quat).slice(0, 3), quatToMat3(states[i].q as Quat).slice(3, 6), quatToMat3(states[i].q as Quat).slice(6, 9)]);
    const I = new Matrix([b.spec.inertia.slice(0, 3), b.spec.inertia.slice(3, 6), b.spec.inertia.slice(6, 9)]);
    const Iw = R.mmul(inverse(I)).mmul(R.transpose());
    for (let r = 0; r < 3; r++) for (let s = 0; s < 3; s++) M.set(c + 3 + r, c + 3 + s, Iw.get(r, s));
  });
  return M;
}

function denseJ(asm: Assembly): Matrix {
  const J = Matrix.zeros(asm.J.rows, asm.J.cols);
  for (let i = 0; i < asm.J.rows; i++) for (let k = asm.J.rowPtr[i]; k < asm.J.rowPtr[i + 1]; k++) J.set(i, asm.J.colIdx[k], asm.J.values[k]);
  return J;
}

/** The former assembly of A: per body, every pair of constraints touching it adds J_i,b·M⁻¹_b·J_j,bᵀ. */
function formerA(world: World, minvCompact: Float64Array): Float64Array {
  const { touching, pairOffset, rowStart, constraints, evals, aRowPtr } = world;
  const values = new Float64Array(world.aColIdx.length);
  const blockOf = (c: number, e: number) => (e === 0 ? evals[c].JA : e === 1 ? evals[c].JB : evals[c].JX[e - 2]);
  for (let k = 0; k < touching.length; k++) {
    const t = touching[k];
    const m = minvCompact.subarray(k * 10, k * 10 + 10);
    for (let i = 0; i < t.length; i++) {
      const [ci, ei] = t[i];
      const Ji = blockOf(ci, ei);
      for (let j = 0; j < t.length; j++) {
        const [cj, ej] = t[j];
        const Jj = blockOf(cj, ej);
        const po = pairOffset[k][i * t.length + j];
        for (let r = 0; r < constraints[ci].rows; r++) {
          const o = r * 6;
          const G = [
            Ji[o] * m[0], Ji[o + 1] * m[0], Ji[o + 2] * m[0],
            Ji[o + 3] * m[1] + Ji[o + 4] * m[4] + Ji[o + 5] * m[7],
            Ji[o + 3] * m[2] + Ji[o + 4] * m[5] + Ji[o + 5] * m[8],
            Ji[o + 3] * m[3] + Ji[o + 4] * m[6] + Ji[o + 5] * m[9],
          ];
          for (let s = 0; s < constraints[cj].rows; s++) {
            const q = s * 6;
            values[aRowPtr[rowStart[ci] + r] + po + s] +=
              G[0] * Jj[q] + G[1] * Jj[q + 1] + G[2] * Jj[q + 2] + G[3] * Jj[q + 3] + G[4] * Jj[q + 4] + G[5] * Jj[q + 5];
          }
        }
      }
    }
  }
  return values;
}

function checkA(world: World, states: BodyState[], asm: Assembly, label: string): void {
  const { A } = asm;
  const dense = denseJ(asm).mmul(denseMinv(world, states)).mmul(denseJ(asm).transpose());
  const scale = dense.to1DArray().reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  const seen = Matrix.zeros(A.rows, A.rows);
  let worst = 0;
  for (let i = 0; i < A.rows; i++) {
    for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) {
      const j = A.colIdx[k];
      seen.set(i, j, 1);
      worst = Math.max(worst, Math.abs(A.values[k] - dense.get(i, j)));
    }
  }
  assert.ok(worst <= 1e-13 * scale, `${label}: A vs dense J·M⁻¹·Jᵀ, ${worst} (scale ${scale})`);
  // entries outside the pattern are zero in the dense product (rows left out of A excepted)
  const omitted = new Set<number>();
  for (let i = 0; i < A.rows; i++) if (A.rowPtr[i + 1] === A.rowPtr[i]) omitted.add(i);
  for (let i = 0; i < A.rows; i++)
    for (let j = 0; j < A.rows; j++)
      if (!seen.get(i, j) && !omitted.has(i) && !omitted.has(j)) assert.ok(Math.abs(dense.get(i, j)) <= 1e-15 * scale, `${label}: (${i}, ${j}) outside the pattern is ${dense.get(i, j)}`);
  // exactly symmetric, and the lower triangle is the former accumulation's numbers
  const former = formerA(world, asm.minvCompact);
  for (let i = 0; i < A.rows; i++) {
    for (let k = A.rowPtr[i]; k < A.rowPtr[i + 1]; k++) {
      const j = A.colIdx[k];
      const t = A.rowPtr[j] + Array.from(A.colIdx.subarray(A.rowPtr[j], A.rowPtr[j + 1])).indexOf(i);
      assert.equal(A.values[t], A.values[k], `${label}: A[${j}][${i}] mirrors A[${i}][${j}]`);
      if (j <= i) assert.equal(A.values[k], former[k], `${label}: A[${i}][${j}] as the former accumulation`);
      else assert.ok(Math.abs(A.values[k] - former[k]) <= 1e-14 * scale, `${label}: A[${i}][${j}] within round-off of the former accumulation`);
    }
  }
}

test('A through the schedule = dense J·M⁻¹·Jᵀ for every constraint type, fixed bodies, world ends and a coupler with extra ends', () => {
  const p = parseScene(JSON.stringify(SCENE));
  assert.deepEqual(p.diagnostics.filter((d) => d.severity === 'error'), []);
  const world = buildWorld(p.scene!);
  assert.equal(world.constraints.length, SCENE.constraints.length);
  const mimic = world.constraints.findIndex((c) => c.spec.name === 'mimic');
  assert.deepEqual(Array.from(world.endX[mimic]).sort(), [world.bodyIndex.get('base'), world.bodyIndex.get('b3')].sort());
  checkA(world, p.scene!.bodies.map(initialState), assemble(world, p.scene!.bodies.map(initialState)), 'initial');
  for (let seed = 1; seed <= 5; seed++) {
    const states = randomStates(world, seed);
    checkA(world, states, assemble(world, states), `seed ${seed}`);
  }
});

test('A through the schedule with the rows of a tall island left out of it', () => {
  const cons: object[] = Array.from({ length: 510 }, (_, i) => ({
    name: `d${i}`, type: 'distance', bodyA: 'world', bodyB: 'B', anchorA: [3 * Math.cos(i), 3 * Math.sin(i), 0.1 * (i % 5)], anchorB: [0.1 * Math.cos(2 * i), 0.1 * Math.sin(i), 0.01 * (i % 3)],
  }));
  cons.push({ name: 'p', type: 'ball', bodyA: 'world', bodyB: 'C', anchorA: [0, 0, 2] }, { name: 'q', type: 'hinge', bodyA: 'C', bodyB: 'D', anchorA: [0.2, 0, 0], anchorB: [-0.2, 0, 0] });
  const text = JSON.stringify({
    bodies: [
      { name: 'B', mass: 2, inertia: [1, 2, 3], position: [0, 0, 0], orientation: [0.9, 0.1, 0.3, 0.2] },
      { name: 'C', mass: 1, inertia: [0.1, 0.2, 0.3], position: [0, 0, 2], angularVelocity: [1, 2, 3] },
      { name: 'D', mass: 1, inertia: [0.1, 0.1, 0.3], position: [0.4, 0, 2], velocity: [0, 1, 0] },
    ],
    constraints: cons,
  });
  const p = parseScene(text);
  assert.ok(p.scene);
  const world = buildWorld(p.scene);
  assert.ok(world.aOmitted, 'the 510 rods on B are left out of A');
  const states = randomStates(world, 9);
  const asm = assemble(world, states);
  for (let r = 0; r < 510; r++) assert.equal(asm.A.rowPtr[r + 1] - asm.A.rowPtr[r], 0);
  checkA(world, states, asm, 'tall');
});

test('assembling into reused buffers gives what a fresh assembly gives, and leaves earlier fresh assemblies alone', () => {
  const p = parseScene(JSON.stringify(SCENE));
  const world = buildWorld(p.scene!);
  const buffers = assemblyBuffers(world);
  const fields = ['minvCompact', 'F', 'v', 'C', 'Cdot', 'Jdotv'] as const;
  const copy = (a: Assembly) => ({ ...Object.fromEntries(fields.map((f) => [f, Array.from(a[f])])), J: Array.from(a.J.values), A: Array.from(a.A.values), poses: a.poses.map((x) => ({ ...x, R: [...x.R] })) });
  const kept: Array<{ asm: Assembly; copy: ReturnType<typeof copy> }> = [];
  let first: Assembly | undefined;
  for (let seed = 11; seed <= 14; seed++) {
    const states = randomStates(world, seed);
    const fresh = assemble(world, states);
    kept.push({ asm: fresh, copy: copy(fresh) });
    const reused = assemble(world, states, false, buffers);
    // the Assembly object (and its J and A) made once per buffers and returned again; fresh ones are new objects
    first ??= reused;
    assert.equal(reused, first);
    assert.equal(reused, buffers.assembly);
    assert.notEqual(fresh, reused);
    assert.ok(kept.every((k, i) => i === kept.length - 1 || k.asm !== fresh));
    assert.equal(reused.A.values, buffers.Avals);
    assert.equal(reused.J.values, buffers.Jvals);
    assert.deepEqual(copy(reused), copy(fresh), `seed ${seed}`);
  }
  for (const k of kept) assert.deepEqual(copy(k.asm), k.copy, 'a fresh Assembly never changes afterwards');
  // fixed bodies keep v = ω = 0 in the reused poses
  const base = world.bodyIndex.get('base')!;
  assert.deepEqual(buffers.poses[base].v, [0, 0, 0] as Vec3);
  assert.deepEqual(buffers.poses[base].w, [0, 0, 0] as Vec3);
});

test('writeBallRows writes what writeBallRow for the three axes and C = d write', () => {
  const r = rng(5);
  const u = () => 2 * r() - 1;
  for (let trial = 0; trial < 50; trial++) {
    const pose = () => {
      const q = quatNormalize([u(), u(), u(), u()] as Quat);
      return { p: [u(), u(), u()] as Vec3, q, R: quatToMat3(q), v: [u(), u(), u()] as Vec3, w: [u(), u(), u()] as Vec3 };
    };
    const k = makeAnchorKin();
    anchorKinematics(pose(), pose(), [u(), u(), u()], [u(), u(), u()], k);
    const fast = makeEval(3);
    const ref = makeEval(3);
    // stale values in the buffers must not survive
    fast.JA.fill(NaN);
    fast.JB.fill(NaN);
    writeBallRows(k, fast);
    for (let i = 0; i < 3; i++) {
      ref.C[i] = k.d[i];
      writeBallRow(k, i, i, ref);
    }
    assert.deepEqual(fast, ref);
  }
});

test('energyOf: ½m|v|² + ½(Rᵀω)ᵀI(Rᵀω) − m·g·p, the same numbers as through quatRotateInv and mat3MulVec', () => {
  const p = parseScene(JSON.stringify(SCENE));
  const world = buildWorld(p.scene!);
  for (let seed = 21; seed <= 25; seed++) {
    const states = randomStates(world, seed);
    let kinetic = 0;
    let potential = 0;
    const g = world.scene.gravity;
    world.bodies.forEach((b, i) => {
      if (b.column < 0) return;
      const s = states[i];
      const m = b.spec.mass;
      kinetic += 0.5 * m * (s.v[0] ** 2 + s.v[1] ** 2 + s.v[2] ** 2);
      const wb = quatRotateInv(s.q, s.w);
      const Iw = mat3MulVec(b.inertia, wb);
      kinetic += 0.5 * (wb[0] * Iw[0] + wb[1] * Iw[1] + wb[2] * Iw[2]);
      if (b.spec.gravity) potential -= m * (g[0] * s.p[0] + g[1] * s.p[1] + g[2] * s.p[2]);
    });
    assert.deepEqual(energyOf(world, states), { kinetic, potential, total: kinetic + potential });
  }
});

const worldOf = (text: string): World => {
  const p = parseScene(text);
  assert.ok(p.scene && !p.hasErrors, 'scene');
  return buildWorld(p.scene);
};
const sameBits = (a: ArrayLike<number>, b: ArrayLike<number>, what: string) => {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) assert.fail(`${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

test('J structural zeros: every entry outside a row mask is +0 at random states; ball, hinge, universal and fixed rows declare masks', () => {
  const world = worldOf(JSON.stringify(SCENE));
  assert.deepEqual(world.constraints.filter((c) => c.rowMasks).map((c) => c.spec.name), ['pin', 'h1', 'u', 'weld', 'tie']);
  for (const seed of [1, 2, 3, 4]) {
    assemble(world, randomStates(world, seed));
    let zeros = 0, nonzeros = 0;
    for (let c = 0; c < world.constraints.length; c++) {
      const masks = world.constraints[c].rowMasks;
      if (!masks) continue;
      assert.equal(masks.length, world.constraints[c].rows, `${world.constraints[c].spec.name}: one mask a row`);
      const ev = world.evals[c];
      for (let r = 0; r < masks.length; r++)
        for (const block of [ev.JA, ev.JB])
          for (let j = 0; j < 6; j++) {
            const x = block[6 * r + j];
            if ((masks[r] >> j) & 1) {
              if (x !== 0) nonzeros++;
              continue;
            }
            assert.ok(Object.is(x, 0), `${world.constraints[c].spec.name} row ${r} entry ${j}: ${x}`);
            zeros++;
          }
    }
    assert.ok(zeros >= 60 && nonzeros >= 60, `seed ${seed}: ${zeros} zeros, ${nonzeros} nonzeros checked`);
  }
});

test('J structural zeros: J·x, Jᵀ·y and Ċ over the masked entries only equal the full products bit for bit', () => {
  for (const [name, text] of [['every type', JSON.stringify(SCENE)], ['bench chain 10', chainSceneText(chainParams(10))]]) {
    const world = worldOf(text);
    const slots = rowSlotsOf(world);
    assert.ok(slots.some((x) => x >= 0), `${name}: rows with slots`);
    for (const seed of [1, 2, 3]) {
      const asm = assemble(world, randomStates(world, seed));
      const r = rng(100 + seed);
      const x = Float64Array.from({ length: world.nCols }, () => r() - 0.5);
      // y with exact zeros (rows both kernels skip) and negative zeros
      const y = Float64Array.from({ length: world.nRows }, (_, i) => (i % 5 === 0 ? 0 : i % 7 === 0 ? -0 : r() - 0.5));
      sameBits(jMulVec(asm.J, x, undefined, slots), csrMulVec(asm.J, x), `${name} J·x`);
      sameBits(jTransposeMulVec(asm.J, y, undefined, slots), csrTransposeMulVec(asm.J, y), `${name} Jᵀ·y`);
      // Ċ: per row the A block's six products, then the B block's and the extra ends' (the assembly's order)
      const ref = new Float64Array(world.nRows);
      for (let c = 0; c < world.constraints.length; c++) {
        const ev = world.evals[c];
        const ends = [world.endA[c], world.endB[c], ...world.endX[c]];
        const blocks = [ev.JA, ev.JB, ...ev.JX];
        for (let row = 0; row < world.constraints[c].rows; row++) {
          let cd = 0;
          blocks.forEach((block, e) => {
            const col = ends[e] < 0 ? -1 : world.bodies[ends[e]].column;
            if (col >= 0) for (let j = 0; j < 6; j++) cd += block[6 * row + j] * asm.v[col + j];
          });
          ref[world.rowStart[c] + row] = cd;
        }
      }
      sameBits(asm.Cdot, ref, `${name} Ċ`);
    }
  }
});

test('a₀ = M⁻¹F and J·a₀ formed in the assembly: applyMinv’s and jMulVec’s numbers bit for bit, only where every row has slots', () => {
  const same = (x: Float64Array, y: Float64Array, what: string) => {
    assert.equal(x.length, y.length, what);
    for (let i = 0; i < x.length; i++) assert.ok(Object.is(x[i], y[i]), `${what}[${i}]: ${x[i]} vs ${y[i]}`);
  };
  // ball chains (the bench's, one with the pin on end B and a joint whose end A is the later link: blocks in
  // either column order), a hinge chain, the ball-only part of a fixed-ends scene
  const reversed = JSON.parse(chainSceneText(chainParams(6)));
  reversed.constraints[0] = { ...reversed.constraints[0], bodyA: 'world', bodyB: 'link0', anchorA: [-0.05, 0, 0], anchorB: [-0.05, 0, 0] };
  reversed.constraints[3] = { ...reversed.constraints[3], bodyA: 'link3', bodyB: 'link2', anchorA: [-0.05, 0, 0], anchorB: [0.05, 0, 0] };
  const hinges = JSON.parse(chainSceneText(chainParams(5)));
  hinges.constraints = hinges.constraints.map((c: { type: string }) => ({ ...c, type: 'hinge', axisA: [0, 1, 0] }));
  const scenes: Array<[string, string]> = [
    ['chain', chainSceneText(chainParams(10))],
    ['reversed ends', JSON.stringify(reversed)],
    ['hinge chain', JSON.stringify(hinges)],
  ];
  for (const [name, text] of scenes) {
    const p = parseScene(text);
    assert.ok(p.scene && !p.hasErrors, name);
    const world = buildWorld(p.scene);
    const buffers = assemblyBuffers(world);
    assert.ok(buffers.a0 && buffers.Ja0, `${name}: fused`);
    for (let seed = 21; seed <= 25; seed++) {
      const states = randomStates(world, seed);
      const asm = assemble(world, states, false, buffers);
      const a0 = applyMinv(world, asm.minvCompact, asm.F);
      same(asm.a0!, a0, `${name} a₀`);
      same(asm.Ja0!, jMulVec(asm.J, a0, undefined, rowSlotsOf(world)), `${name} J·a₀`);
      // a fresh assembly has neither: solveSystem forms them itself
      const fresh = assemble(world, states);
      assert.equal(fresh.a0, undefined);
      assert.equal(fresh.Ja0, undefined);
    }
  }
  // rows without slots (distance, coupler…), or the velocity formulation: not formed
  assert.equal(assemblyBuffers(buildWorld(parseScene(JSON.stringify(SCENE)).scene!)).a0, undefined);
  const velocity = JSON.parse(chainSceneText(chainParams(4)));
  velocity.solver = { ...velocity.solver, formulation: 'velocity', stabilization: undefined, alpha: undefined, beta: undefined };
  const pv = parseScene(JSON.stringify(velocity));
  assert.ok(pv.scene && !pv.hasErrors, JSON.stringify(pv.diagnostics.map((d) => d.message)));
  assert.equal(assemblyBuffers(buildWorld(pv.scene)).a0, undefined);
});
