// The PGS solve keeps its scratch arrays from one solve to the next (pgsContact.ts PgsWorkspace):
// after the first solve, solves of the same or a smaller size allocate none of them, and a reused
// workspace gives bit for bit the answer of a fresh one, also after a larger or smaller problem
// (a stale force, diagonal or residual left in a reused array would change the answer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { integrate, solveContactsPgs, type PgsReport } from '../../src/engine/contact/pgs';
import { PgsWorkspace, workspaceOf } from '../../src/engine/contact/pgsContact';
import type { Vec3 } from '../../src/engine/types';
import { body, boxInertia, boxOnBoxContacts, boxPlaneContacts, scene, velocitySettings, worldOf } from './contact-helpers';

function same(a: PgsReport, b: PgsReport, what: string): void {
  assert.equal(a.iterations, b.iterations, `${what}: sweeps`);
  assert.equal(a.residual, b.residual, `${what}: residual`);
  assert.deepEqual([...a.R], [...b.R], `${what}: contact forces`);
  assert.deepEqual([...a.uPlus], [...b.uPlus], `${what}: u⁺`);
  assert.equal(a.complementarity, b.complementarity, `${what}: complementarity`);
}

test('PGS workspace: reused across steps, no new arrays after the first solve, the same answer as a fresh workspace', () => {
  const e: Vec3 = [0.1, 0.1, 0.1], m = 1;
  const { world, states: initial } = worldOf(scene([0, 1, 2].map((i) => body(`b${i}`, m, boxInertia(m, e), [0.01 * i, 0, e[2] * (1 + 2 * i)]))));
  const ws = new PgsWorkspace();
  let states = initial;
  let warm: Float64Array | undefined;
  let afterFirst = -1;
  const contactsSeen = new Set<number>();
  for (let k = 0; k < 40; k++) {
    // every 7th step sees the bottom box's contacts only: a smaller problem between larger ones
    const cs = [...boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5), ...(k % 7 === 3 ? [] : [...boxOnBoxContacts(states, 1, e, 0, e, 0.01, 0.5), ...boxOnBoxContacts(states, 2, e, 1, e, 0.01, 0.5)])];
    contactsSeen.add(cs.length);
    const w = warm && warm.length === 3 * cs.length ? { contacts: warm } : undefined;
    const reused = solveContactsPgs(world, states, cs, velocitySettings(), 0.01, w, undefined, [], ws);
    const fresh = solveContactsPgs(world, states, cs, velocitySettings(), 0.01, w, undefined, [], new PgsWorkspace());
    same(reused, fresh, `step ${k}`);
    if (k === 0) afterFirst = ws.allocations;
    else assert.equal(ws.allocations, afterFirst, `step ${k}: the solve allocated ${ws.allocations - afterFirst} new arrays`);
    states = integrate(world, states, reused.uPlus, 0.01);
    warm = reused.R;
  }
  assert.ok(afterFirst > 0);
  assert.ok(contactsSeen.size >= 2, 'the steps had problems of different sizes');
});

test('PGS workspace: a world keeps one workspace, and a solve without one uses it', () => {
  const e: Vec3 = [0.1, 0.1, 0.1], m = 1;
  const { world, states } = worldOf(scene([body('b', m, boxInertia(m, e), [0, 0, e[2]])]));
  const ws = workspaceOf(world);
  assert.equal(workspaceOf(world), ws);
  const cs = boxPlaneContacts(states, 0, e, [0, 0, 1], 0, 0.01, 0.5);
  solveContactsPgs(world, states, cs, velocitySettings(), 0.01);
  const n = ws.allocations;
  assert.ok(n > 0, 'the default solve took its arrays from the world’s workspace');
  solveContactsPgs(world, states, cs, velocitySettings(), 0.01);
  assert.equal(ws.allocations, n);
  assert.notEqual(workspaceOf(worldOf(scene([body('c', m, boxInertia(m, e), [0, 0, e[2]])])).world), ws);
});
