// A trace file in the inspector panel (headless Chromium), fed as the extension's trace editor feeds
// it (src/extension/traceEditor.ts: the PanelFeed with the trace's model, records and snapshots):
// κ, rank and rows shown at a step against numpy's numbers for the fixture, the timeline over the
// trace's steps, Axion's κ per Newton iteration, and no simulation controls.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { analyseTrace, readTrace } from '../../src/engine';
import { loadHdf5Open } from '../../src/import/hdf5';
import { formatCond } from '../../src/shared';
import { buildTracePanelModel, traceSnapshotAt } from '../../src/traceModel';
import { ROOT, type Fixture } from './fixtures';
import { launch, openPanel, requireChromium, settle, shotPath } from './harness';

requireChromium();

const DIR = join(ROOT, 'test', 'fixtures', 'trace');
const expected = (f: string) => JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { steps: { cond: number; rank: number; rows: number; iterations?: { cond: number; storedCond: number }[] }[] };

async function traceFixture(file: string): Promise<Fixture> {
  const openHdf5 = await loadHdf5Open();
  const read = readTrace(new Uint8Array(readFileSync(join(DIR, file))), file, { ...(openHdf5 ? { openHdf5 } : {}) });
  assert.ok(read.source, file);
  const source = read.source;
  const run = analyseTrace(source);
  const diagnostics = [...read.diagnostics, ...run.diagnostics];
  const model = buildTracePanelModel(file, source, run, diagnostics);
  return { model, snapshotAt: (k) => traceSnapshotAt(source, k, { diagnostics }) };
}

/** Moves the timeline slider as a user drags it, and waits until the matrices show that step. */
async function slideTo(page: Page, step: number): Promise<void> {
  await page.$eval(
    '#cl-step-slider',
    (el, k) => {
      const s = el as HTMLInputElement;
      s.value = String(k);
      s.dispatchEvent(new Event('input', { bubbles: true }));
    },
    step,
  );
  await page.waitForFunction((k) => document.body.dataset.clSnapshotStep === String(k) && document.body.dataset.clConsistent === '1', step, { timeout: 10_000 });
  await settle(page);
}

describe('a trace in the inspector panel', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  before(async () => {
    ({ browser, close } = await launch());
  });
  after(async () => {
    await close();
  });

  test("the writer's round trip: κ, rank and rows at each step as numpy computes them; the trace card moves the timeline", async () => {
    const fixture = await traceFixture('writer-roundtrip.npz');
    const want = expected('writer-roundtrip.expected.json').steps;
    const p = await openPanel(browser, fixture);
    const page = p.page;
    await p.hostIdle();
    await page.waitForSelector('#cl-trace:not([hidden])');
    // no simulation on a trace: the badge instead of Step / Run / Play / Reset
    assert.equal(await page.locator('.cl-controls [data-command]').count(), 0);
    assert.match((await page.textContent('.cl-controls'))!, /Trace · read-only/);
    assert.equal(await page.getAttribute('#cl-step-slider', 'max'), String(want.length - 1));
    for (const k of [1, 2, 3, 0]) {
      await slideTo(page, k);
      const e = want[k];
      assert.match((await page.textContent('[data-stat="step"]'))!, new RegExp(`${k} / ${want.length - 1}`));
      assert.match((await page.textContent('[data-stat="cond"]'))!, new RegExp(formatCond(e.cond, { rows: e.rows }).replace(/[.()]/g, '\\$&')), `step ${k}: κ shown`);
      assert.match((await page.textContent('[data-stat="rank"]'))!, new RegExp(`${e.rank} / ${e.rows} rows`), `step ${k}: rank`);
      // the trace card's row of the shown step carries κ in full
      const cond = Number(await page.getAttribute(`.cl-trace-row[data-step="${k}"] .cl-trace-cond`, 'data-cond'));
      assert.ok(Math.abs(cond - e.cond) <= 1e-6 * e.cond, `step ${k}: κ ${cond} vs numpy ${e.cond}`);
      assert.equal(await page.getAttribute(`.cl-trace-row[data-step="${k}"]`, 'aria-current'), 'step');
      // the rows the step has, by the trace's row names (the forces table lists them)
      const names = await page.$$eval('#cl-forces tbody tr', (trs) => trs.map((tr) => tr.querySelector('td, th')?.textContent?.trim()));
      assert.deepEqual(names, e.rows === 2 ? ['rod', 'floor'] : ['rod'], `step ${k}: rows`);
    }
    // a click on a step of the trace card goes there
    await page.click('.cl-trace-row[data-step="3"]');
    await page.waitForFunction(() => document.body.dataset.clSnapshotStep === '3');
    await settle(page);
    await page.screenshot({ path: shotPath('trace-writer-roundtrip'), fullPage: true });
    assert.deepEqual(p.invalidPosts, []);
    assert.deepEqual(p.consoleErrors, []);
    assert.deepEqual(p.externalRequests, []);
    await page.context().close();
  });

  test("an Axion log: κ of each Newton iteration beside Axion's stored κ", async () => {
    const fixture = await traceFixture('axion-newton.h5');
    const want = expected('axion-newton.expected.json').steps;
    const p = await openPanel(browser, fixture);
    const page = p.page;
    await p.hostIdle();
    await slideTo(page, 1);
    const cells = await page.$$eval('.cl-trace-iterations tbody tr', (trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')));
    const its = want[1].iterations!;
    assert.equal(cells.length, its.length);
    its.forEach((it, i) => {
      assert.equal(cells[i][1], formatCond(it.cond, { rows: 6 }), `iteration ${i}: κ analysed`);
      assert.ok(Math.abs(Number(cells[i][2]) - it.storedCond) <= 1e-5 * it.storedCond, `iteration ${i}: κ stored ${cells[i][2]} vs ${it.storedCond}`);
    });
    assert.match((await page.textContent('#cl-trace'))!, /κ\(A \+ R\)/);
    await page.screenshot({ path: shotPath('trace-axion'), fullPage: true });
    assert.deepEqual(p.consoleErrors, []);
    await page.context().close();
  });
});
