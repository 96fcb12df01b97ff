// Narrow phase on random poses, for every pair of shape types, checked against an independent
// signed distance computed from the shapes' support functions alone (collision-helpers.ts):
//   • the reported normal separates the shapes by exactly the reported (smallest) gap, so the gap
//     is never larger than the true signed distance;
//   • no sampled direction separates them by more, so the gap is not smaller either (for box–box:
//     when they overlap; apart, the separating-axis gap is a lower bound of the distance);
//   • the sign of the gap agrees with the signed distance; no contact claims more penetration
//     than its own normal allows; pA − pB = gap·n; the normal is unit;
//   • swapping A and B gives the same contacts with the normal flipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rng } from './linalg-fixtures';
import { collideShapes } from '../../src/engine/collision/narrow';
import type { PosedShape, RawContact } from '../../src/engine/collision/pose';
import type { ShapeSpec, ShapeType } from '../../src/engine/scene/contactSpec';
import type { Vec3 } from '../../src/engine/types';
import { boxSpec, capsuleSpec, place, planeSpec, randomQuat, separationAlong, signedDistance, sphereSpec } from './collision-helpers';

const TRIALS = 150;
const MARGIN = 100; // large: separated shapes report their gap too

function randomSpec(type: ShapeType, rand: () => number): ShapeSpec {
  const size = (): number => 0.15 + 0.85 * rand();
  switch (type) {
    case 'sphere':
      return sphereSpec(size());
    case 'capsule':
      return capsuleSpec(0.1 + 0.4 * rand(), size());
    case 'box':
      return boxSpec([size(), size(), size()]);
    default: {
      const n: Vec3 = [rand() - 0.5, rand() - 0.5, rand() - 0.5];
      return planeSpec(Math.hypot(...n) > 0.05 ? n : [0, 0, 1], 2 * rand() - 1);
    }
  }
}

const randomShape = (type: ShapeType, rand: () => number, owner: number): PosedShape =>
  place(randomSpec(type, rand), [2 * rand() - 1, 2 * rand() - 1, 2 * rand() - 1], randomQuat(rand), owner);

const mid = (c: RawContact): Vec3 => [(c.pA[0] + c.pB[0]) / 2, (c.pA[1] + c.pB[1]) / 2, (c.pA[2] + c.pB[2]) / 2];
const dist = (p: Vec3, q: Vec3): number => Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);

const PAIRS: [ShapeType, ShapeType][] = [
  ['sphere', 'plane'],
  ['box', 'plane'],
  ['capsule', 'plane'],
  ['sphere', 'sphere'],
  ['sphere', 'box'],
  ['sphere', 'capsule'],
  ['capsule', 'capsule'],
  ['capsule', 'box'],
  ['box', 'box'],
];

for (const [ta, tb] of PAIRS) {
  test(`random poses: ${ta}–${tb} against the support-function signed distance, and A/B symmetry`, () => {
    const rand = rng(7 + ta.length * 31 + tb.length);
    let overlapping = 0;
    let apart = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const a = randomShape(ta, rand, 0);
      const b = randomShape(tb, rand, 1);
      const what = `${ta}–${tb} trial ${trial}`;
      const contacts = collideShapes(a, b, MARGIN);
      assert.ok(contacts.length >= 1, `${what}: no contact within a margin of ${MARGIN}`);
      assert.ok(contacts.length <= 4, `${what}: ${contacts.length} contacts`);
      const scale = 1e-9;
      for (const c of contacts) {
        assert.ok(Math.abs(Math.hypot(...c.n) - 1) < 1e-12, `${what}: normal not unit`);
        for (let k = 0; k < 3; k++) assert.ok(Math.abs(c.pA[k] - c.pB[k] - c.gap * c.n[k]) < scale, `${what}: pA − pB ≠ gap·n`);
        // No contact claims more penetration than its normal direction allows.
        assert.ok(c.gap >= separationAlong(a, b, c.n) - scale, `${what}: gap ${c.gap} below the separation along its normal ${separationAlong(a, b, c.n)}`);
      }
      const deepest = contacts.reduce((m, c) => (c.gap < m.gap ? c : m));
      // The normal separates the shapes by exactly the reported gap (so gap ≤ true signed distance).
      const along = separationAlong(a, b, deepest.n);
      assert.ok(Math.abs(along - deepest.gap) < scale, `${what}: separation along the normal ${along} ≠ gap ${deepest.gap}`);
      // No direction separates them by more. Box–box: apart, the separating-axis gap is a lower
      // bound of the distance (skip); overlapping, a face axis within ~8° of a better edge axis is
      // kept unless the edge is better by 5 % of the depth (ODE's and MuJoCo's rule against
      // face/edge flipping in resting stacks), so allow that much.
      const sd = signedDistance(a, b, [deepest.n]);
      if (ta === 'box' && tb === 'box') {
        if (deepest.gap <= 0) assert.ok(sd <= deepest.gap + 0.05 * Math.abs(deepest.gap) + 1e-9, `${what}: a direction separates by ${sd} > gap ${deepest.gap} (+5 %)`);
      } else {
        assert.ok(sd <= deepest.gap + 1e-9, `${what}: a direction separates by ${sd} > gap ${deepest.gap}`);
      }
      if (Math.abs(sd) > 1e-6) assert.equal(Math.sign(deepest.gap), Math.sign(sd), `${what}: gap ${deepest.gap} vs signed distance ${sd}`);
      if (sd < 0) overlapping++;
      else apart++;

      // Swap A and B: same contacts, normal flipped.
      const swapped = collideShapes(b, a, MARGIN);
      assert.equal(swapped.length, contacts.length, `${what}: swapped count`);
      const left = [...swapped];
      for (const c of contacts) {
        const k = left.reduce((m, s, i) => (dist(mid(s), mid(c)) < dist(mid(left[m]), mid(c)) ? i : m), 0);
        const s = left.splice(k, 1)[0];
        assert.ok(dist(mid(s), mid(c)) < 1e-9, `${what}: swapped point`);
        assert.ok(Math.abs(s.gap - c.gap) < 1e-9, `${what}: swapped gap`);
        for (let q = 0; q < 3; q++) assert.ok(Math.abs(s.n[q] + c.n[q]) < 1e-9, `${what}: swapped normal`);
      }
    }
    // Both regimes were exercised.
    assert.ok(overlapping >= 10 && apart >= 10, `${ta}–${tb}: ${overlapping} overlapping, ${apart} apart`);
  });
}

test('random poses: contacts exist exactly when the gap is within the margin (margin 0 and 0.1)', () => {
  const rand = rng(99);
  const types: ShapeType[] = ['sphere', 'capsule', 'box'];
  for (let trial = 0; trial < 400; trial++) {
    const ta = types[Math.floor(rand() * 3)];
    const tb = types[Math.floor(rand() * 3)];
    const a = randomShape(ta, rand, 0);
    const b = randomShape(tb, rand, 1);
    const all = collideShapes(a, b, MARGIN);
    const gap = Math.min(...all.map((c) => c.gap));
    for (const margin of [0, 0.1]) {
      const got = collideShapes(a, b, margin);
      for (const c of got) assert.ok(c.gap <= margin + 1e-12, `${ta}–${tb}: a contact with gap ${c.gap} above the margin ${margin}`);
      if (gap <= margin - 1e-9) assert.ok(got.length >= 1, `${ta}–${tb}: gap ${gap} within margin ${margin} but no contact`);
      if (gap > margin + 1e-9) assert.equal(got.length, 0, `${ta}–${tb}: gap ${gap} above margin ${margin} yet contacts`);
    }
  }
});
