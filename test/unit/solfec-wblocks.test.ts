// Solfec's W in 3×3 blocks (the seed solfec-local-dynamics.rst: Walbe, Walal, sdef; Solfec's ldy.c
// LOCDYN_Update_Begin): the blocks recomputed here from H and A⁻¹ with the seed's sign rule, their
// sparsity the graph of local frames, and their sum the scalar W the engine solves, to 1e-12.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleWBlocks, inspectScene, wBlocks } from '../../src/engine';
import { csrToDense } from '../../src/shared';

const h = 0.01;
// a chain: world —ball— a —hinge— b —distance— c, and a ball from a to c: frames share bodies a, b, c
const scene = {
  name: 'blocks',
  solver: { dt: h, formulation: 'velocity' },
  bodies: [
    { name: 'a', mass: 2, inertia: [0.1, 0.2, 0.3], position: [1, 0, 0], orientation: [0.1, 0.2, 0, 0.9746794344808963] },
    { name: 'b', mass: 1, inertia: [0.05, 0.05, 0.08], position: [2, 0.1, 0] },
    { name: 'c', mass: 3, inertia: [0.3, 0.2, 0.2], position: [3, 0, 0.2] },
  ],
  constraints: [
    { name: 'pin', type: 'ball', bodyA: 'world', bodyB: 'a', anchorA: [0, 0, 0], anchorB: [-1, 0, 0] },
    { name: 'knee', type: 'hinge', bodyA: 'a', bodyB: 'b', anchorA: [0.5, 0, 0], anchorB: [-0.5, -0.1, 0], axisA: [0, 0, 1], axisB: [0, 0, 1] },
    { name: 'rod', type: 'distance', bodyA: 'b', bodyB: 'c', length: Math.hypot(1, 0.1, 0.2) },
    { name: 'tie', type: 'ball', bodyA: 'c', bodyB: 'a', anchorA: [-1, 0, -0.2], anchorB: [1, 0, 0] },
  ],
};

function snapshot() {
  const r = inspectScene(JSON.stringify(scene));
  assert.equal(r.hasErrors, false, JSON.stringify(r.diagnostics));
  return r.snapshot!;
}

test('frames: each constraint\'s rows in threes, master = bodyA, slave = bodyB, the world none', () => {
  const wb = wBlocks(snapshot(), h)!;
  assert.deepEqual(
    wb.frames.map((f) => [f.name, f.row, f.rows, f.master, f.slave]),
    [
      ['pin', 0, 3, null, 'a'],
      ['knee[0]', 3, 3, 'a', 'b'],
      ['knee[1]', 6, 2, 'a', 'b'],
      ['rod', 8, 1, 'b', 'c'],
      ['tie', 9, 3, 'c', 'a'],
    ],
  );
});

test('W_αα = h·Σ H·A⁻¹·Hᵀ over both bodies, W_αβ = s_αβ·h·H_kα·A_k⁻¹·H_kβᵀ with the seed\'s sign, to 1e-12', () => {
  const snap = snapshot();
  const wb = wBlocks(snap, h)!;
  const J = csrToDense(snap.J);
  const body = (name: string) => snap.bodies.indexOf(name);
  // H_kα: the frame's rows of J in body k's columns, negated for the master (U_α = H_iα·u_i − H_jα·u_j, j the master)
  const H = (a: number, k: number) => {
    const f = wb.frames[a];
    const sgn = snap.bodies[k] === f.master ? -1 : 1;
    return Array.from({ length: f.rows }, (_, i) => J[f.row + i].slice(6 * k, 6 * k + 6).map((x) => sgn * x));
  };
  const Ainv = (k: number) => Array.from({ length: 6 }, (_, i) => Array.from(snap.MinvBlocks.subarray(36 * k + 6 * i, 36 * k + 6 * i + 6)));
  const hHAH = (Ha: number[][], k: number, Hb: number[][]) =>
    Ha.map((ra) => Hb.map((rb) => h * ra.reduce((s, x, c) => s + x * Ainv(k)[c].reduce((t, y, d) => t + y * rb[d], 0), 0)));
  const close = (x: number[][], y: number[][], what: string) =>
    x.forEach((r, i) => r.forEach((v, j) => assert.ok(Math.abs(v - y[i][j]) <= 1e-12 * Math.max(1, Math.abs(y[i][j])), `${what}[${i}][${j}]: ${v} vs ${y[i][j]}`)));
  const bodiesOf = (a: number) => [wb.frames[a].master, wb.frames[a].slave].filter((b): b is string => b !== null).map(body);
  for (const b of wb.blocks) {
    if (b.alpha === b.beta) {
      assert.equal(b.body, null);
      const sum = bodiesOf(b.alpha).map((k) => hHAH(H(b.alpha, k), k, H(b.alpha, k))).reduce((x, y) => x.map((r, i) => r.map((v, j) => v + y[i][j])));
      close(b.block, sum, `W_${b.frames[0]},${b.frames[0]}`);
      continue;
    }
    const k = body(b.body!);
    const fa = wb.frames[b.alpha], fb = wb.frames[b.beta];
    // sdef: −1 if B_k is (M_α ∧ S_β) ∨ (S_α ∧ M_β)
    const s = (fa.master === b.body && fb.slave === b.body) || (fa.slave === b.body && fb.master === b.body) ? -1 : 1;
    assert.equal(b.sign, s, `s_${b.frames.join(',')}`);
    close(b.block, hHAH(H(b.alpha, k), k, H(b.beta, k)).map((r) => r.map((v) => s * v)), `W_${b.frames.join(',')}`);
  }
  // the signs this graph has: a is the slave of pin and tie and the master of knee; b the slave of knee, master of rod
  const sign = (x: string, y: string, via: string) => wb.blocks.find((b) => b.frames[0] === x && b.frames[1] === y && b.body === via)?.sign;
  assert.equal(sign('pin', 'knee[0]', 'a'), -1);
  assert.equal(sign('pin', 'tie', 'a'), 1);
  assert.equal(sign('knee[0]', 'rod', 'b'), -1);
  assert.equal(sign('knee[0]', 'knee[1]', 'a'), 1);
  assert.equal(sign('rod', 'tie', 'c'), -1);
});

test('sparsity is the graph of local frames; the blocks sum to the scalar W to 1e-12', () => {
  const snap = snapshot();
  const wb = wBlocks(snap, h)!;
  const pairs = new Set(wb.blocks.filter((b) => b.alpha !== b.beta).map((b) => `${b.frames[0]}|${b.frames[1]}|${b.body}`));
  // pin–rod share no body: no block; knee[0]–knee[1] share a and b: two blocks
  assert.ok(!pairs.has('pin|rod|a') && ![...pairs].some((p) => p.startsWith('pin|rod|')));
  assert.ok(pairs.has('knee[0]|knee[1]|a') && pairs.has('knee[0]|knee[1]|b'));
  assert.equal(wb.blocks.length, 5 + 2 * (1 /* pin–knee0 */ + 1 /* pin–knee1 */ + 1 /* pin–tie */ + 2 /* knee0–knee1 */ + 1 + 1 /* knee–rod */ + 1 + 1 /* knee–tie */ + 1 /* rod–tie */));
  const W = csrToDense(snap.W!);
  const sum = assembleWBlocks(wb, W.length);
  W.forEach((r, i) => r.forEach((v, j) => assert.ok(Math.abs(sum[i][j] - v) <= 1e-12 * Math.max(1, Math.abs(v)), `W[${i}][${j}]: ${sum[i][j]} vs ${v}`)));
  assert.equal(wBlocks({ ...snap, W: undefined }, h), undefined);
});

test('inspect --json writes Wframes and Wblocks (velocity formulation)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-wblocks-'));
  const file = join(dir, 'blocks.scene.json');
  writeFileSync(file, JSON.stringify(scene));
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, '../../src/cli.ts'), 'inspect', file, '--json'], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.Wframes.length, 5);
  const d = out.Wblocks.find((b: { alpha: number; beta: number }) => b.alpha === 1 && b.beta === 3);
  assert.deepEqual([d.frames, d.body, d.sign], [['knee[0]', 'rod'], 'b', -1]);
  assert.equal(d.block.length, 3);
  assert.equal(d.block[0].length, 1);
});
