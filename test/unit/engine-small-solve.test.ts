// The skyline path of small islands (smallSolve.ts, cheaper than the general solver) against the reference SymmetricSolver:
// the same λ, states, ‖C‖, κ estimate, rank and method, bit for bit (=== on every number), over
// whole runs of chains, a branching tree, the examples, the velocity formulation, compliance and
// per-step κ estimates; snapshots and replays; and the patterns it must decline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseScene } from '../../src/engine/scene/parse';
import { Simulation, type SimulationOptions } from '../../src/engine/stepping/simulation';
import { assemble, buildWorld } from '../../src/engine/assembly/assemble';
import { initialState } from '../../src/engine/model/body';
import { SmallSolver } from '../../src/engine/kkt/smallSolve';
import { SymmetricSolver } from '../../src/engine/linalg/solve';
import { solveChain3, solveChain3Three } from '../../src/engine/linalg/chain3';
import type { CsrMatrix } from '../../src/engine/linalg/contracts';
import type { StepRecord } from '../../src/engine/result';
import { rng } from './linalg-fixtures';

const sameNumbers = (a: ArrayLike<number>, b: ArrayLike<number>, what: string) => {
  assert.equal(a.length, b.length, `${what}: length`);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !(Number.isNaN(a[i]) && Number.isNaN(b[i]))) assert.fail(`${what}[${i}]: ${a[i]} vs ${b[i]}`);
};

function sameRecords(a: readonly StepRecord[], b: readonly StepRecord[], what: string) {
  assert.equal(a.length, b.length, `${what}: steps`);
  for (let k = 0; k < a.length; k++) {
    const x = a[k], y = b[k];
    const at = `${what} step ${x.step}`;
    sameNumbers(x.lambda, y.lambda, `${at} λ`);
    sameNumbers(x.poses, y.poses, `${at} poses`);
    sameNumbers(x.C, y.C, `${at} ‖C‖`);
    assert.equal(x.cond.A, y.cond.A, `${at} κ`);
    assert.equal(x.condEstimated, y.condEstimated, `${at} κ estimated`);
    assert.equal(x.rank, y.rank, `${at} rank`);
    assert.equal(x.method, y.method, `${at} method`);
    assert.equal(x.energy.total, y.energy.total, `${at} energy`);
    assert.equal(x.quatDrift, y.quatDrift, `${at} |q|−1`);
  }
}

/** Runs the scene twice (skyline path allowed / reference only) and compares records, final states and snapshots. */
function compareRuns(text: string, steps: number, what: string, opts: SimulationOptions = {}) {
  const parsed = parseScene(text);
  assert.ok(parsed.scene && !parsed.hasErrors, `${what}: scene`);
  const fast = new Simulation(parsed.scene, parsed.sourceMap, opts);
  const ref = new Simulation(parsed.scene, parsed.sourceMap, { ...opts, smallSystems: false });
  sameRecords(fast.step(steps), ref.step(steps), what);
  const fb = fast.result().final.bodies, rb = ref.result().final.bodies;
  fb.forEach((b, i) => {
    sameNumbers(b.velocity, rb[i].velocity, `${what} final v of ${b.name}`);
    sameNumbers(b.angularVelocity, rb[i].angularVelocity, `${what} final ω of ${b.name}`);
  });
  assert.deepEqual(fast.diagnostics.map((d) => d.code), ref.diagnostics.map((d) => d.code), `${what}: diagnostics`);
  for (const k of [1, Math.floor(steps / 2), fast.currentStep]) {
    const s = fast.snapshotAt(k), r = ref.snapshotAt(k);
    sameNumbers(s.lambda, r.lambda, `${what} snapshot ${k} λ`);
  }
  // a second run after reset continues the κ estimate's warm start in both
  fast.reset();
  ref.reset();
  sameRecords(fast.step(20), ref.step(20), `${what} (after reset)`);
}

interface Link {
  name: string;
  parent: string;
  at: [number, number, number];
}

/** Ball-jointed links (1 kg, inertia 0.01) hanging from `parent` ('world' for a pin), each anchored halfway to its parent. */
function linksScene(links: Link[], solver: Record<string, unknown> = {}, type = 'ball'): string {
  const pos = new Map<string, [number, number, number]>([['world', [0, 0, 0]]]);
  for (const l of links) pos.set(l.name, l.at);
  const bodies = links.map((l) => ({ name: l.name, mass: 1, inertia: [0.01, 0.02, 0.015], position: l.at }));
  const constraints = links.map((l) => {
    const p = pos.get(l.parent)!;
    const mid = [0, 1, 2].map((d) => (p[d] + l.at[d]) / 2);
    const rel = (x: number[]) => [0, 1, 2].map((d) => mid[d] - x[d]);
    const hinge = type === 'hinge' ? { axisA: [0, 1, 0], axisB: [0, 1, 0] } : {};
    return { name: `j-${l.name}`, type, bodyA: l.parent, bodyB: l.name, anchorA: l.parent === 'world' ? mid : rel(p), anchorB: rel(l.at), ...hinge };
  });
  return JSON.stringify({ name: 'links', gravity: [0, 0, -9.81], solver: { dt: 0.005, steps: 100, alpha: 3430, beta: 100, stabilization: 'aerislab', ...solver }, bodies, constraints });
}

const chain = (n: number): Link[] => Array.from({ length: n }, (_, k) => ({ name: `l${k}`, parent: k === 0 ? 'world' : `l${k - 1}`, at: [0.1 * (k + 1), 0, 0] }));

/** A hub hanging from the world with `arms` arms of `len` links, the hub listed first or last. */
function star(arms: number, len: number, hubFirst: boolean): Link[] {
  const out: Link[] = [];
  if (hubFirst) out.push({ name: 'hub', parent: 'world', at: [0, 0, -0.5] });
  for (let a = 0; a < arms; a++) {
    const dir = [Math.cos((2 * Math.PI * a) / arms), Math.sin((2 * Math.PI * a) / arms)];
    for (let k = 0; k < len; k++) out.push({ name: `a${a}l${k}`, parent: k === 0 ? 'hub' : `a${a}l${k - 1}`, at: [0.1 * (k + 1) * dir[0], 0.1 * (k + 1) * dir[1], -0.5] });
  }
  if (!hubFirst) out.push({ name: 'hub', parent: 'world', at: [0, 0, -0.5] });
  return out;
}

test('small islands: the skyline path gives the reference solver’s runs bit for bit (chains, hinges, a tree, κ estimated each step)', () => {
  for (const n of [5, 10, 20, 32]) compareRuns(linksScene(chain(n)), 120, `ball chain ${n}`);
  compareRuns(linksScene(chain(12), {}, 'hinge'), 120, 'hinge chain 12');
  compareRuns(linksScene(star(2, 3, true)), 120, 'star 2×3, hub first');
  compareRuns(linksScene(star(4, 3, false)), 60, 'star 4×3, hub last (declined: minimum-degree order)');
  // κ estimated at every size (the default gives the exact spectrum up to 12 rows)
  compareRuns(linksScene(chain(3)), 60, 'ball chain 3, κ estimated', { stepExactCondMaxRows: 0 });
  compareRuns(linksScene(star(2, 1, true)), 60, 'star 2×1, κ estimated', { stepExactCondMaxRows: 0 });
});

test('small islands: velocity formulation, compliance and the baumgarte rhs give the reference runs bit for bit', () => {
  compareRuns(linksScene(chain(10), { formulation: 'velocity', erp: 0.2 }), 100, 'velocity chain 10');
  compareRuns(linksScene(chain(10), { compliance: 1e-6 }), 100, 'compliant chain 10');
  compareRuns(linksScene(chain(8), { stabilization: 'baumgarte', alpha: 400, beta: 40 }), 100, 'baumgarte chain 8');
});

test('small islands: every example scene runs the same with and without the skyline path', () => {
  const dir = join(__dirname, '../../examples');
  // the free boxes and balls have no joint rows (no island to solve): not this path, and slow to step twice
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.scene.json') && !/^(box|bouncing)/.test(x)).sort()) {
    compareRuns(readFileSync(join(dir, f), 'utf8'), 60, f, { stepExactCondMaxRows: 0 });
  }
});

function linksA(links: Link[]): CsrMatrix {
  const parsed = parseScene(linksScene(links));
  const world = buildWorld(parsed.scene!);
  return assemble(world, parsed.scene!.bodies.map(initialState)).A;
}

const chainA = (n: number): CsrMatrix => linksA(chain(n));

test('small islands: the chain qualifies; a pattern whose natural order fills in (arrow) or a large island does not', () => {
  assert.ok(SmallSolver.of(chainA(10)), 'chain of 10');
  assert.ok(SmallSolver.of(linksA(star(2, 3, true))), 'star 2×3, hub first (the runs above compare the skyline path there)');
  assert.equal(SmallSolver.of(linksA(star(4, 3, false))), null, 'star 4×3, hub last: the reference orders by minimum degree');
  // rows 0 and 1 both coupled to row 2 only: natural order without fill, but the reference visits
  // row 2's columns as 1, 0 (a branching elimination tree), so its d₂ sums in another order
  const v: CsrMatrix = { rows: 3, cols: 3, rowPtr: Int32Array.from([0, 2, 4, 7]), colIdx: Int32Array.from([0, 2, 1, 2, 0, 1, 2]), values: Float64Array.from([2, 0.3, 2, 0.7, 0.3, 0.7, 3]) };
  assert.equal(SmallSolver.of(v), null, 'branching visit order');
  // arrow: row 0 couples to every row — natural order fills L completely, the reference takes a minimum-degree order
  const n = 30;
  const rowPtr = new Int32Array(n + 1);
  const cols: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i === 0) for (let j = 0; j < n; j++) cols.push(j);
    else cols.push(0, i);
    rowPtr[i + 1] = cols.length;
  }
  const arrow: CsrMatrix = { rows: n, cols: n, rowPtr, colIdx: Int32Array.from(cols), values: new Float64Array(cols.length).fill(1) };
  assert.equal(SmallSolver.of(arrow), null, 'arrow');
  assert.equal(SmallSolver.of(chainA(40)), null, '120 rows');
});

test('small islands: SmallSolver.solve equals SymmetricSolver.solve on a stream of random matrices of one pattern (x, residual, κ estimate and its warm start)', () => {
  const base = chainA(10);
  const small = SmallSolver.of(base)!;
  const ref = new SymmetricSolver();
  const rand = rng(7);
  const opts = { method: 'auto' as const, compliance: 0, exactCondMaxRows: 0, wantSpectrum: false, wantScaledCond: false };
  for (let k = 0; k < 40; k++) {
    // A + E with E symmetric of A's pattern, small enough to keep A positive definite
    const values = base.values.slice();
    for (let i = 0; i < base.rows; i++) {
      for (let p = base.rowPtr[i]; p < base.rowPtr[i + 1]; p++) {
        const j = base.colIdx[p];
        if (j > i) continue;
        const e = 0.05 * (rand() - 0.5) * (i === j ? 1 : 0.2);
        values[p] += e;
        if (j !== i) for (let q = base.rowPtr[j]; q < base.rowPtr[j + 1]; q++) if (base.colIdx[q] === i) values[q] += e;
      }
    }
    const A = { ...base, values };
    const b = Float64Array.from({ length: base.rows }, () => rand() - 0.5);
    const s = small.solve(A, b, opts);
    const r = ref.solve(A, b, opts);
    assert.ok(s, `matrix ${k}: taken`);
    sameNumbers(s.x, r.x, `matrix ${k} x`);
    assert.equal(s.residualNorm, r.residualNorm, `matrix ${k} residual`);
    assert.equal(s.cond, r.cond, `matrix ${k} κ`);
    assert.deepEqual({ ...s, x: 0 }, { ...r, x: 0 }, `matrix ${k}: the whole report`);
  }
  // declined: an indefinite matrix (the reference falls back to LU), the scaled κ, the exact path
  const neg = { ...base, values: base.values.map((x) => -x) };
  assert.equal(small.solve(neg, new Float64Array(base.rows).fill(1), opts), undefined, 'indefinite');
  assert.equal(small.solve(base, new Float64Array(base.rows).fill(1), { ...opts, wantScaledCond: true }), undefined, 'scaled κ');
  assert.equal(small.solve(base, new Float64Array(base.rows).fill(1), { ...opts, exactCondMaxRows: 1000 }), undefined, 'exact spectrum');
  assert.equal(small.solve({ ...base, rowPtr: base.rowPtr.slice() }, new Float64Array(base.rows).fill(1), opts), undefined, 'another pattern array');
});

test('small islands: ball chains take the unrolled paths (chain3 envelope, A rows as runs), hinge chains and stars the general ones — the runs above compare them all', () => {
  const pathsOf = (A: CsrMatrix) => {
    const s = SmallSolver.of(A);
    assert.ok(s);
    return [Reflect.get(s, 'chain3'), Reflect.get(s, 'rowRuns')];
  };
  for (const n of [1, 5, 10, 32]) assert.deepEqual(pathsOf(chainA(n)), [true, true], `ball chain ${n}`);
  const hinge = parseScene(linksScene(chain(12), {}, 'hinge'));
  const hingeA = assemble(buildWorld(hinge.scene!), hinge.scene!.bodies.map(initialState)).A;
  // 5-row blocks: the general elimination and solves; A's rows are still runs filling the envelope
  assert.deepEqual(pathsOf(hingeA), [false, true], 'hinge chain');
  assert.deepEqual(pathsOf(linksA(star(2, 3, true))), [false, false], 'star 2×3');
});

test('small islands: the three-vector chain solve (x, A⁻¹e_start, A⁻¹·alt in one pass) gives three single solves bit for bit', () => {
  const rand = rng(11);
  for (const n of [3, 6, 9, 30, 96]) {
    // the chain3 skyline layout: row k from column first[k] = 0 (block 0) or 3⌊k/3⌋ − 3
    const off = new Int32Array(n);
    let size = 0;
    for (let k = 0; k < n; k++) {
      const first = k < 3 ? 0 : 3 * Math.floor(k / 3) - 3;
      off[k] = size - first;
      size += k - first + 1;
    }
    const L = Float64Array.from({ length: size }, () => rand() - 0.5);
    const D = Float64Array.from({ length: n }, () => 0.5 + rand());
    const vec = () => Float64Array.from({ length: n }, () => rand() - 0.5);
    const b = vec(), e = new Float64Array(n), g = vec();
    e[Math.floor(rand() * n)] = 1;
    const x = new Float64Array(n), y = new Float64Array(n), z = new Float64Array(n);
    solveChain3Three(off, L, D, b, x, e, y, g, z);
    const same = (u: Float64Array, v: Float64Array, what: string) => {
      for (let i = 0; i < n; i++) assert.ok(Object.is(u[i], v[i]), `n = ${n}: ${what}[${i}]: ${u[i]} vs ${v[i]}`);
    };
    same(x, solveChain3(off, L, D, b, new Float64Array(n)), 'x');
    same(y, solveChain3(off, L, D, e, new Float64Array(n)), 'A⁻¹e');
    same(z, solveChain3(off, L, D, g, new Float64Array(n)), 'A⁻¹g');
  }
});
