// The inspector's MuJoCo card in headless Chromium, fed with a real model: the four-bar MJCF,
// converted and analysed by the engine, compared with MuJoCo by the importer. The card is hidden for
// scene files; for a model its button posts the compareMujoco command, the running state disables
// it, and the finished comparison shows efc_force next to λ, R and A_ii, both violations (table and
// sparkline) and MuJoCo's iterations; keyboard operable; a report shows it read-only. For models without
// equalities (a pendulum and a rail, Gymnasium's ant) it compares the runs in joint space.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { inspectParsed, Simulation } from '../../src/engine';
import { toPanelComparison } from '../../src/extension/logic/mujocoSection';
import { compareWithMujoco, loadModel, nodeFileAccess } from '../../src/import/index';
import { buildPanelModel } from '../../src/panelModel';
import type { MujocoSection, PanelModel, SystemSnapshot } from '../../src/protocol';
import { buildReportHtml } from '../../src/report';
import { buildFixture, ROOT, type Fixture } from './fixtures';
import { requireChromium, ensureBuilt, launch, openFile, openPanel, settle, shotPath } from './harness';

requireChromium();
const FIXTURES = join(ROOT, 'test', 'fixtures', 'import');

/** The four-bar model as the extension host would send it (step 0, no run yet), with its comparison. */
async function fourBar(): Promise<{ fixture: Fixture; done: MujocoSection }> {
  const path = join(FIXTURES, 'four-bar.xml');
  const text = readFileSync(path, 'utf8');
  const parse = await loadModel(path, text, { files: nodeFileAccess(FIXTURES) });
  const inspect = inspectParsed(text, parse);
  const sim = new Simulation(parse.scene!, parse.sourceMap);
  const model = buildPanelModel('four-bar.xml', inspect, sim, 0)!;
  const snapshotAt = (k: number): SystemSnapshot => sim.snapshotAt(k);
  const comparison = toPanelComparison(await compareWithMujoco(parse, 200));
  return {
    fixture: { model: { ...model, mujoco: { status: 'idle', keyframes: [] } }, snapshotAt },
    done: { status: 'done', comparison, keyframes: [] },
  };
}

describe('MuJoCo card (Chromium)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  let fx: Fixture;
  let done: MujocoSection;

  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
    ({ fixture: fx, done } = await fourBar());
  });
  after(async () => {
    await close?.();
  });

  test('hidden for a scene file', async () => {
    const p = await openPanel(browser, buildFixture('redundant-rods', 5));
    assert.equal(await p.page.isVisible('#cl-mujoco'), false);
    await p.page.context().close();
  });

  test('the header’s solver switch: hidden for a scene; on a model it posts the other solver and shows the one the host runs', async () => {
    const scene = await openPanel(browser, buildFixture('redundant-rods', 5));
    assert.equal(await scene.page.isVisible('.cl-solver-switch'), false);
    await scene.page.context().close();
    const p = await openPanel(browser, { ...fx, model: { ...fx.model, solver: 'engine' } }, { theme: 'dark' });
    const page = p.page;
    const sw = page.getByRole('radiogroup', { name: 'Solver' });
    assert.equal(await sw.isVisible(), true);
    const engine = sw.getByRole('radio', { name: 'Engine' }), mujoco = sw.getByRole('radio', { name: 'MuJoCo' });
    assert.equal(await engine.getAttribute('aria-checked'), 'true');
    assert.equal(await mujoco.getAttribute('aria-checked'), 'false');
    // pressing the solver that runs asks for nothing
    await engine.click();
    await mujoco.click();
    const m = await p.waitForPost((x) => x.type === 'solver');
    assert.deepEqual(m, { type: 'solver', solver: 'mujoco' });
    assert.equal(p.posted.filter((x) => x.type === 'solver').length, 1);
    // the host answers with MuJoCo's model: the switch shows MuJoCo
    await p.send({ type: 'model', model: { ...fx.model, solver: 'mujoco' } });
    await page.waitForFunction(() => document.querySelector('.cl-solver-switch [data-solver="mujoco"]')?.getAttribute('aria-checked') === 'true');
    assert.equal(await engine.getAttribute('aria-checked'), 'false');
    await settle(page);
    await page.locator('.cl-header').screenshot({ path: shotPath('mujoco-solver-switch-dark') });
    assert.deepEqual(p.consoleErrors, []);
    await page.context().close();
  });

  for (const theme of ['light', 'dark'] as const) {
    test(`a model (${theme}): Compare posts the command, running disables it, the result is shown`, async () => {
      const p = await openPanel(browser, fx, { theme, height: 1600 });
      const page = p.page;
      const card = page.locator('#cl-mujoco');
      assert.equal(await card.isVisible(), true);
      assert.match((await card.locator('.cl-card-title').textContent())!, /MUJOCO/);
      assert.match((await card.locator('.cl-mj-start').textContent())!, /Initial state: qpos0/);
      assert.match((await card.locator('.cl-mj-status').textContent())!, /Compare with MuJoCo runs MuJoCo/);
      // The button, by keyboard: focus it and press Enter.
      const compare = card.getByRole('button', { name: 'Compare with MuJoCo' });
      await compare.focus();
      await page.keyboard.press('Enter');
      await p.waitForPost((m) => m.type === 'command' && m.command === 'compareMujoco');
      await card.getByRole('button', { name: /Choose Keyframe/ }).click();
      await p.waitForPost((m) => m.type === 'command' && m.command === 'chooseKeyframe');
      // The host says it is running, then done.
      await p.send({ type: 'mujoco', mujoco: { status: 'running', keyframes: [] } });
      await page.waitForFunction(() => document.querySelector('#cl-mujoco')?.getAttribute('aria-busy') === 'true');
      assert.equal(await compare.isDisabled(), true);
      assert.match((await card.locator('.cl-mj-status').textContent())!, /Running MuJoCo and the engine for \d+ steps/);
      await p.send({ type: 'mujoco', mujoco: done }, theme === 'dark' ? 'json' : 'object');
      await page.waitForSelector('#cl-mujoco .cl-mj-table');
      assert.equal(await card.getAttribute('aria-busy'), 'false');
      assert.equal(await card.getByRole('button', { name: 'Compare Again' }).isEnabled(), true);
      const status = (await card.locator('.cl-mj-status').textContent())!;
      assert.match(status, /^200 steps of 0\.002 s \(t = 0\.4 s\) from qpos0\. MuJoCo: soft constraints \(solref\/solimp\), \d+–\d+ solver iterations per step/);
      // The table: one row per connect row, MuJoCo's force next to our λ.
      const head = await card.locator('.cl-mj-table thead th').allTextContents();
      assert.deepEqual(head, ['ROW', 'MuJoCo efc_force', 'our λ', 'MuJoCo R', 'MuJoCo A_ii', 'our A_ii']);
      const rows = await card.locator('.cl-mj-table tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent ?? '')));
      assert.deepEqual(rows.map((r) => r[0]), ['close.x', 'close.y', 'close.z']);
      const e = done.comparison!.equalities[0];
      const z = Number(rows[2][2]);
      assert.ok(Math.abs(z - (e.ourLambda[2] as number)) < 1e-4 * Math.abs(e.ourLambda[2] as number), `our λ_z shown: ${rows[2][2]}`);
      assert.match((await card.locator('.cl-mj-title').textContent())!, /connect close → close\s+solref \(0\.02, 1\)/);
      assert.match((await card.locator('.cl-mj-violation .cl-desc').textContent())!, /Violation ‖C‖: MuJoCo max .*; ours max /);
      // The sparkline: two lines over the run, drawn in the theme's series colours.
      const lines = await card.locator('.cl-mj-spark polyline').evaluateAll((ps) => ps.map((p) => ({ n: (p.getAttribute('points') ?? '').split(' ').length, stroke: getComputedStyle(p).stroke })));
      assert.equal(lines.length, 2);
      assert.ok(lines.every((l) => l.n === 201), JSON.stringify(lines));
      assert.notEqual(lines[0].stroke, lines[1].stroke);
      assert.match((await card.locator('.cl-mj-spark').getAttribute('aria-label'))!, /connect close → close: Violation/);
      assert.match((await card.textContent())!, /Why they differ: MuJoCo's equality constraints are soft/);
      assert.match((await card.textContent())!, /MuJoCo's WebAssembly loaded in/);
      // A failure is shown as such.
      await p.send({ type: 'mujoco', mujoco: { status: 'failed', error: 'MuJoCo: something broke', keyframes: [] } });
      await page.waitForFunction(() => document.querySelector('#cl-mujoco .cl-mj-status')?.textContent?.startsWith('The comparison failed'));
      assert.equal(await card.locator('.cl-mj-table').count(), 0);
      await p.send({ type: 'mujoco', mujoco: done });
      await page.waitForSelector('#cl-mujoco .cl-mj-table');
      await card.scrollIntoViewIfNeeded();
      await settle(page);
      await card.screenshot({ path: shotPath(`mujoco-card-${theme}`) });
      assert.deepEqual(p.invalidPosts, []);
      assert.deepEqual(p.consoleErrors, []);
      assert.deepEqual(p.cspViolations, []);
      await page.context().close();
    });
  }

  // A model without equalities (most robots): the card compares the runs in joint space.
  for (const [file, steps, theme] of [['swing-rail.xml', 300, 'light'], ['public/ant/ant.xml', 200, 'dark']] as const) {
    test(`joint space (${file}, ${theme}): per joint max |Δq| and |Δq̇| with when, q of both runs, bodies' distance`, async () => {
      const path = join(FIXTURES, file);
      const text = readFileSync(path, 'utf8');
      const parse = await loadModel(path, text, { files: nodeFileAccess(join(path, '..')) });
      const inspect = inspectParsed(text, parse);
      const sim = new Simulation(parse.scene!, parse.sourceMap);
      const model = buildPanelModel(file, inspect, sim, 0)!;
      const comparison = toPanelComparison(await compareWithMujoco(parse, steps));
      const traj = comparison.trajectory!;
      const p = await openPanel(browser, { model: { ...model, mujoco: { status: 'done', comparison, keyframes: [] } }, snapshotAt: (k) => sim.snapshotAt(k) }, { theme, height: 1800 });
      const page = p.page;
      const card = page.locator('#cl-mujoco');
      await page.waitForSelector('#cl-mujoco .cl-mj-joints');
      assert.match((await card.textContent())!, /Why they differ: this model has no equality constraints/);
      assert.match((await card.locator('.cl-mj-traj-summary').textContent())!, /^Over the run, MuJoCo vs ours: largest hinge \|Δq\| .* rad \(.*, t = .* s \(step \d+\)\)/);
      const rows = await card.locator('.cl-mj-joints tbody tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (c) => c.textContent ?? '')));
      assert.equal(rows.length, traj.joints.length);
      traj.joints.forEach((j, k) => {
        assert.equal(rows[k][0], `${j.name} (${j.type})`);
        if (!j.ours.q.length) return;
        if ((j.dq.max as number) <= 1e-9) {
          assert.equal(rows[k][1], '≈ 0', `${j.name}: round-off reads as zero`);
          return;
        }
        const shown = Number(rows[k][1].split(' ')[0]);
        assert.ok(Math.abs(shown - (j.dq.max as number)) <= 1e-2 * (j.dq.max as number) + 1e-300, `${j.name}: ${rows[k][1]} vs ${j.dq.max}`);
        assert.match(rows[k][2], new RegExp(`\\(step ${j.dq.step}\\)$`));
      });
      // q of both runs per joint held by its own constraint; one distance line per body
      const charts = await card.locator('.cl-mj-joints .cl-mj-mini').evaluateAll((svgs) => svgs.map((s) => Array.from(s.querySelectorAll('polyline'), (l) => ({ n: (l.getAttribute('points') ?? '').split(' ').length, stroke: getComputedStyle(l).stroke }))));
      traj.joints.forEach((j, k) => {
        assert.equal(charts[k].length, j.ours.q.length ? 2 : 1, j.name);
        assert.ok(charts[k].every((c) => c.n === traj.samples.length), `${j.name}: ${JSON.stringify(charts[k])}`);
        if (charts[k].length === 2) assert.notEqual(charts[k][0].stroke, charts[k][1].stroke);
      });
      assert.equal(await card.locator('.cl-mj-bodies tbody tr').count(), traj.bodies.length);
      assert.equal(await card.locator('.cl-mj-bodies polyline').count(), traj.bodies.length);
      // the tables fit the card or scroll inside it (no overflow of the panel)
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 1, `page overflows by ${overflow}px`);
      await card.locator('.cl-mj-traj').scrollIntoViewIfNeeded();
      await settle(page);
      await card.locator('.cl-mj-traj').screenshot({ path: shotPath(`mujoco-joints-${file.replace(/\W+/g, '-')}-${theme}`) });
      assert.deepEqual(p.consoleErrors, []);
      assert.deepEqual(p.cspViolations, []);
      await page.context().close();
    });
  }

  test('a report embeds a finished comparison, read-only (no buttons)', async () => {
    const model: PanelModel = { ...fx.model, mujoco: done, generator: 'browser test' };
    const html = buildReportHtml(model, { js: readFileSync(join(ROOT, 'dist', 'webview.js'), 'utf8'), css: readFileSync(join(ROOT, 'dist', 'webview.css'), 'utf8') });
    const dir = join(ROOT, 'test-results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'report-four-bar.html');
    writeFileSync(file, html);
    const p = await openFile(browser, file);
    const card = p.page.locator('#cl-mujoco');
    assert.equal(await card.isVisible(), true);
    assert.equal(await card.locator('button').count(), 0);
    assert.equal(await card.locator('.cl-mj-table tbody tr').count(), 3);
    assert.deepEqual(p.consoleErrors, []);
    await p.page.context().close();
  });
});
