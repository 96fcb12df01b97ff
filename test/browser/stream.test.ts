// A long run streamed into the panel as the host sends it: history appends in columns, the current
// step's snapshot now and then, every flow-controlled message acknowledged. After 20 000 steps the
// charts still draw at most 2000 points a series, the header, forces, matrices and scene show the
// same step, and the panel's heap stays small. Reports the time per append and the heap.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { HostMessage, StepRecord, SystemSnapshot } from '../../src/protocol';
import { encodeHistory } from '../../src/shared/history';
import { buildFixture, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openPanel, settle, shotPath } from './harness';

requireChromium();
const STEPS = 20_000;
const CHUNK = 500;

/** `n` records: a real short run repeated, with steps, times and energies of a long one. */
function longRun(base: readonly StepRecord[], n: number, dt: number): StepRecord[] {
  return Array.from({ length: n }, (_, k) => {
    const r = base[k % base.length];
    const drift = 1e-3 * Math.sin(k / 900) + (k === 12_345 ? 0.5 : 0); // one spike the decimation must keep
    return { ...r, step: k + 1, t: (k + 1) * dt, energy: { ...r.energy, total: r.energy.total + drift } };
  });
}

describe('a long run streamed into the panel (Chromium)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let fx: Fixture;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    fx = buildFixture('hanging-mass', 200);
  });
  after(async () => {
    await close?.();
  });

  test('20 000 steps in appends: bounded chart points, one step everywhere, every message acknowledged', async () => {
    const records = longRun(fx.model.history, STEPS, fx.model.dt);
    const live = { ...fx.model, history: [], steps: 0, snapshot: fx.snapshotAt(0) };
    const p = await openPanel(browser, { model: live, snapshotAt: fx.snapshotAt });
    const page = p.page;
    // the host's own messages (the model) were acknowledged before openPanel returned
    const opened = p.posted.length;
    // The heap after a full collection (gc() is there with --js-flags=--expose-gc).
    const used = (): Promise<number> =>
      page.evaluate(() => {
        (globalThis as unknown as { gc?: () => void }).gc?.();
        return (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;
      });
    const heap0 = await used();
    const snapshotOf = (k: number): SystemSnapshot => ({ ...fx.snapshotAt(200), step: k, t: k * fx.model.dt });
    let seq = 1;
    const times: number[] = [];
    for (let from = 0; from < STEPS; from += CHUNK) {
      const to = Math.min(STEPS, from + CHUNK);
      const t0 = Date.now();
      // As the host sends a run: records, every other time with the current step's snapshot.
      const withSnapshot = (to / CHUNK) % 2 === 0;
      await p.send({ type: 'historyAppend', chunk: encodeHistory(records, from, to), total: to, ...(withSnapshot ? { snapshot: snapshotOf(to) } : {}), seq: seq++ } satisfies HostMessage);
      times.push(Date.now() - t0);
      if (to % 5000 === 0) console.log(`# heap at ${to}: ${((await used()) / 1e6).toFixed(1)} MB`);
    }
    await page.waitForFunction((n) => document.querySelector('[data-stat="step"]')?.textContent?.includes(`${n} / ${n}`), STEPS);
    await settle(page);
    // The charts: at most 2000 points a series, and the spike at step 12 346 is drawn.
    for (const id of ['violation', 'lambda', 'cond', 'energy', 'drift']) {
      const pts = Number(await page.getAttribute(`[data-chart="${id}"]`, 'data-points'));
      assert.ok(pts > 0 && pts <= 2000, `${id}: ${pts} points`);
    }
    // Header, forces, matrices and scene at the same step.
    for (const card of ['forces', 'matrices', 'scene']) assert.equal(await page.getAttribute(`#cl-${card}`, 'data-step'), String(STEPS), card);
    assert.equal(await page.getAttribute('body', 'data-cl-consistent'), '1');
    // Every flow-controlled message acknowledged exactly once.
    await p.waitForPost((m) => m.type === 'ack' && m.seq === seq - 1, 5000);
    const acks = p.posted.slice(opened).filter((m) => m.type === 'ack').map((m) => (m as { seq: number }).seq);
    assert.deepEqual(acks, Array.from({ length: seq - 1 }, (_, i) => i + 1));
    // Every 2D canvas of the panel is drawn by the CPU: redrawn with each update of a run, GPU-backed
    // ones stalled the page for seconds where the GPU is a software renderer on a loaded machine.
    const canvases = (await page.evaluate(`[...document.querySelectorAll('canvas')].map((c) => {
      const where = (c.closest('[id]') || {}).id + ' ' + (c.getAttribute('aria-roledescription') || (c.closest('[data-chart]') || { dataset: {} }).dataset.chart || '');
      if (c.getContext('webgl2') || c.getContext('webgl')) return { where, gl: true };
      const ctx = c.getContext('2d');
      return { where, gl: false, cpu: !!ctx && ctx.getContextAttributes().willReadFrequently === true };
    })`)) as { where: string; gl: boolean; cpu?: boolean }[];
    const twoD = canvases.filter((c) => !c.gl);
    assert.ok(twoD.length >= 10, `${twoD.length} 2D canvases`);
    assert.deepEqual(twoD.filter((c) => !c.cpu).map((c) => c.where), [], 'GPU-backed 2D canvases');
    const heap1 = await used();
    // Time the panel took to apply each message and render it (synchronous part, in the page).
    const applyMs = (await page.evaluate('window.__clApplyMs')) as number[];
    const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const appendMs = applyMs.filter((_, i) => i % 2 === 0);
    const withSnapMs = applyMs.filter((_, i) => i % 2 === 1);
    console.log(`# the panel applied records alone in ${med(appendMs.slice(0, 5)).toFixed(1)} ms (first ones) → ${med(appendMs.slice(-5)).toFixed(1)} ms (last ones), records with the snapshot in ${med(withSnapMs.slice(0, 5)).toFixed(1)} → ${med(withSnapMs.slice(-5)).toFixed(1)} ms (medians)`);
    const first = times.slice(0, 5).reduce((a, b) => a + b) / 5;
    const last = times.slice(-5).reduce((a, b) => a + b) / 5;
    console.log(`# ${STEPS} steps in ${times.length} appends of ${CHUNK}: first appends ${first.toFixed(0)} ms, last ${last.toFixed(0)} ms (send + apply + render); panel heap ${(heap0 / 1e6).toFixed(1)} → ${(heap1 / 1e6).toFixed(1)} MB`);
    assert.ok(heap1 - heap0 < 60e6, `the panel heap grew by ${((heap1 - heap0) / 1e6).toFixed(1)} MB for ${STEPS} steps`);
    await page.screenshot({ path: shotPath('stream-20000'), fullPage: true });
    // Reset: the run is empty again, everything at step 0.
    await p.send({ type: 'historyReset', length: 0, seq: seq++ } satisfies HostMessage);
    await page.waitForFunction(() => document.querySelector('[data-stat="step"]')?.textContent?.includes('0 / 0'));
    await settle(page);
    for (const card of ['forces', 'matrices', 'scene']) assert.equal(await page.getAttribute(`#cl-${card}`, 'data-step'), '0', card);
    assert.deepEqual(p.consoleErrors, []);
    await page.context().close();
  });
});
