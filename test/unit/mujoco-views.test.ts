// One truth under MuJoCo: while a model's panel runs MuJoCo, the status bar, CodeLens and tree read
// the session (logic/shown.ts mujocoShownSource) and print the κ the panel's header prints for the
// shown step — the header's rule (src/shared/stepKappa.ts) on MuJoCo's records, its rows those of
// the step's own system (MuJoCo's contacts come and go) — and Pause from the panel lands every view
// on the step the panel showed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { handleMujoco } from '../../src/extension/mujocoWorker';
import { MujocoPanelSession, mujocoCommand, type MujocoPanelHooks } from '../../src/extension/logic/mujocoPanelSession';
import { statusText } from '../../src/extension/logic/format';
import { mujocoShownSource, shownCondFacts, shownStepOf } from '../../src/extension/logic/shown';
import { formatCond, kappaOf } from '../../src/shared';
import { FIXTURES } from './import-helpers';

let ids = 0;

function session(file: string, edit?: (text: string) => string) {
  const path = join(FIXTURES, 'mujoco', file);
  const raw = readFileSync(path, 'utf8');
  const text = edit ? edit(raw) : raw;
  assert.ok(!edit || text !== raw, 'the edit applies');
  const shown: (number | undefined)[] = [];
  const hooks: MujocoPanelHooks = {
    request: (m) => handleMujoco({ ...m, id: ++ids } as Parameters<typeof handleMujoco>[0]),
    source: () => ({ path, fileName: file, text, plannedSteps: 10, conditionWarning: 1e8, maxSteps: 100_000 }),
    playRate: () => 1e6,
    modelChanged: () => undefined,
    stepped: () => undefined,
    running: () => undefined,
    diagnostics: () => undefined,
    shown: () => void shown.push(s.shown),
    error: (m) => assert.fail(m),
  };
  const s = new MujocoPanelSession(`views:${file}:${ids}`, hooks);
  return { s, shown };
}

/** The header's `κ …` at step k (webview/selectors.ts shownCondition, webview/cards/header.ts): its record, with the rows of step k's snapshot. */
async function headerKappa(s: MujocoPanelSession, k: number): Promise<string> {
  const snap = k === 0 ? s.initial : await s.snapshot(k);
  assert.ok(snap);
  const kap = kappaOf(k, { record: k > 0 ? s.records[k - 1] : undefined, snapshot: snap });
  assert.ok(kap);
  return `κ ${formatCond(kap.cond, { estimated: kap.estimated, rows: snap.rank.rows })}`;
}

test('the views print the header’s κ of the shown step under MuJoCo (a box stack: its contacts appear during the run)', async () => {
  const { s, shown } = session('box-stack.xml');
  try {
    assert.equal(mujocoShownSource(s, undefined), undefined, 'nothing before the session opens');
    assert.ok(await s.open());
    assert.ok(s.initial);
    // step 0: MuJoCo's analysis of the initial state, not the engine's
    let f = shownCondFacts(mujocoShownSource(s, undefined));
    assert.ok(f);
    assert.equal(f.step, 0);
    assert.equal(statusText(f).split(' · ')[0], await headerKappa(s, 0));
    assert.equal(await s.step(40), 40);
    const src = mujocoShownSource(s, undefined);
    assert.ok(src);
    // the run's end while the panel follows it
    assert.equal(shownStepOf(src), 40);
    const rowsSeen = new Set<number>();
    for (const k of [1, 2, 5, 17, 40]) {
      s.shown = k;
      f = shownCondFacts(mujocoShownSource(s, undefined));
      assert.ok(f);
      assert.equal(f.step, k);
      const snap = await s.snapshot(k);
      assert.ok(snap);
      assert.equal(f.rows, snap.rank.rows, `rows of step ${k}`);
      rowsSeen.add(f.rows);
      assert.equal(f.cond, s.records[k - 1].cond.A);
      assert.equal(statusText(f).split(' · ')[0], await headerKappa(s, k), `κ at step ${k}`);
      assert.ok(statusText(f).endsWith(`step ${k}`));
    }
    // step 1's system is analysed while stepping (the stack's pyramids make its A singular: "∞" in every view)
    s.shown = 1;
    assert.equal(s.records[0].rank !== undefined, true);
    assert.deepEqual(shown, [1, 2, 5, 17, 40, 1], 'each new shown step is heard once');
    // κ and rank sampled while stepping are read from the data each step left: the same as the step's
    // system read again from the run's checkpoints (mj_forward at the state before it)
    const sampled = s.records.filter((r) => r.rank !== undefined);
    assert.ok(sampled.length >= 1);
    for (const r of sampled) {
      const snap = await s.snapshot(r.step);
      assert.ok(snap);
      assert.equal(r.cond.A, Number.isFinite(snap.cond.A) ? snap.cond.A : null, `κ of step ${r.step}`);
      assert.equal(r.rank, snap.rank.J, `rank of step ${r.step}`);
    }
    // a new Step follows the run's end again
    await s.step(1);
    assert.equal(shownStepOf(mujocoShownSource(s, undefined)), 41);
    assert.ok(rowsSeen.size > 1, `the stack's rows change over the run: ${[...rowsSeen].join(', ')}`);
  } finally {
    s.dispose();
  }
});

test('Pause from the panel lands the views on the step the panel showed, not where the worker’s answer took the run', async () => {
  const { s } = session('servo-implicit.xml');
  try {
    assert.ok(await s.open());
    assert.ok(await mujocoCommand(s, 'playPause'));
    for (let i = 0; i < 2000 && s.total < 30; i++) await new Promise((r) => setTimeout(r, 5));
    assert.ok(s.total >= 30);
    const seen = s.total - 7;
    assert.ok(await mujocoCommand(s, 'playPause', seen));
    assert.ok(!s.running);
    assert.equal(shownStepOf(mujocoShownSource(s, undefined)), seen);
    assert.equal(shownCondFacts(mujocoShownSource(s, undefined))?.step, seen);
    // a Pause naming no step (the palette's) stays on the run's end
    const { s: t } = session('servo-implicit.xml');
    try {
      assert.ok(await t.open());
      await mujocoCommand(t, 'playPause');
      for (let i = 0; i < 2000 && t.total < 5; i++) await new Promise((r) => setTimeout(r, 5));
      await mujocoCommand(t, 'playPause');
      assert.equal(t.shown, undefined);
    } finally {
      t.dispose();
    }
  } finally {
    s.dispose();
  }
});

test('κ sampled while stepping equals the step’s system read again, on welds, soft equalities, contacts and RK4', async () => {
  for (const file of ['weld-offset.xml', 'solref-clamp.xml', 'ball-rest.xml', 'servo-damping.xml']) {
    for (const rk4 of [false, true]) {
      const { s } = session(file, rk4 ? (t) => (/integrator="/.test(t) ? t.replace(/integrator="[^"]*"/, 'integrator="RK4"') : t.replace('<option', '<option integrator="RK4"')) : undefined);
      try {
        assert.ok(await s.open(), file);
        // one step per request: each may be sampled
        for (let i = 0; i < 30 && !s.stopped; i++) await s.step(1);
        const sampled = s.records.filter((r) => r.rank !== undefined);
        assert.ok(sampled.length >= 1, file);
        let finite = 0;
        for (const r of sampled) {
          const snap = await s.snapshot(r.step);
          assert.ok(snap);
          assert.equal(r.cond.A, Number.isFinite(snap.cond.A) ? snap.cond.A : null, `${file}${rk4 ? ' (RK4)' : ''}: κ of step ${r.step}`);
          assert.equal(r.rank, snap.rank.J, `${file}: rank of step ${r.step}`);
          if (r.cond.A !== null && snap.rank.rows > 0) finite++;
        }
        // the ball's pyramids make its A singular: its κ and rank are compared, not a finite number
        if (file === 'weld-offset.xml' || file === 'solref-clamp.xml') assert.ok(finite > 0, `${file}: a finite κ compared`);
      } finally {
        s.dispose();
      }
    }
  }
});

test('a step between two κ samples shows its own estimated κ (or the latest one), never an unknown that reads as singular', async () => {
  const { s } = session('weld-offset.xml');
  try {
    assert.ok(await s.open());
    // many steps per request: the analysis keeps to its share of the stepping time, so most are not sampled
    for (let i = 0; i < 4 && !s.stopped; i++) await s.step(200);
    const recs = s.records;
    const sampled = recs.filter((r) => r.rank !== undefined);
    const between = recs.filter((r) => r.rank === undefined);
    assert.ok(sampled.length >= 1 && between.length >= 1, `${sampled.length} sampled, ${between.length} between`);
    let last: (typeof recs)[number] | undefined;
    let own = 0;
    for (const r of recs) {
      if (r.rank !== undefined) {
        last = r;
        continue;
      }
      assert.ok(last, `step ${r.step} comes after a sampled step (step 1 is always sampled)`);
      // its own system's κ, estimated (the exact κ of the step read again), or the previous step's held
      const exact = (await s.snapshot(r.step))?.cond.A;
      assert.ok(exact !== undefined && exact !== null);
      const mine = r.cond.A === null ? !Number.isFinite(exact) : Number.isFinite(exact) && Math.abs(r.cond.A - exact) <= 1e-6 * exact;
      if (mine) own++;
      else assert.equal(r.cond.A, recs[r.step - 2].cond.A, `step ${r.step}: its own κ estimated (${exact}) or the previous step's held, not ${r.cond.A}`);
      assert.equal(r.condEstimated, true, `step ${r.step}'s κ is marked as an estimate`);
      const k = kappaOf(r.step, { record: r });
      assert.ok(k?.estimated, `the views print step ${r.step}'s κ with ≈`);
      const f = shownCondFacts(mujocoShownSource({ initial: s.initial, records: recs, shown: r.step, rowsAt: (k: number) => s.rowsAt(k) }, undefined));
      assert.ok(f);
      assert.equal(statusText(f).split(' · ')[0], `κ ${formatCond(r.cond.A, { estimated: true, rows: f.rows })}`, `the status bar at step ${r.step}`);
      last = r;
    }
    assert.ok(own >= 1, `${own} of ${between.length} steps between samples carry their own κ`);
  } finally {
    s.dispose();
  }
});
