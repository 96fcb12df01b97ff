// The inspector's header under MuJoCo as the solver, in headless Chromium: MuJoCo's step is in
// joint space, so the subtitle names mj_step, MuJoCo's integrator, the DOFs and the step's
// constraint rows, not the engine's formulation and moving bodies (its snapshot has no bodies: the
// header once read "acceleration formulation · none stabilisation · 0 moving bodies" for a chain).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import type { PanelModel } from '../../src/protocol';
import { ROOT } from './fixtures';
import { mujocoRun } from './mujocoFixture';
import { requireChromium, ensureBuilt, launch, openPanel } from './harness';

requireChromium();
const PATH = join(ROOT, 'test', 'fixtures', 'import', 'mujoco', 'falling-brick.xml');
const N = 150;

describe('the header under MuJoCo (Chromium)', () => {
  let browser: Browser;
  let close: () => Promise<void>;
  before(async () => {
    ensureBuilt();
    ({ browser, close } = await launch());
  });
  after(async () => {
    await close?.();
  });

  test("names MuJoCo's step, integrator, DOFs and constraint rows, never the engine's formulation or 0 moving bodies", async () => {
    const run = await mujocoRun(PATH, N);
    const last = run.last;
    const model: PanelModel = { ...run.model, snapshot: last, history: run.records };
    assert.equal(last.producer?.kind, 'mujoco');
    assert.ok(model.mujocoRun, 'the model says MuJoCo runs it');
    assert.ok(last.rank.rows > 0, 'the brick rests on the floor: constraint rows at the last step');
    const p = await openPanel(browser, { model, snapshotAt: () => last });
    const text = (await p.page.textContent('.cl-subtitle')) ?? '';
    const rows = last.rank.rows;
    const dofs = last.rank.dofs;
    const integrator = model.mujocoRun.integrator.replace(/[^A-Za-z0-9]/g, '');
    assert.match(text, new RegExp(`^MuJoCo's mj_step · dt = [0-9.e-]+ s · ${integrator} integrator · ${dofs} DOFs?, ${rows} constraint rows? at this step$`));
    assert.doesNotMatch(text, /formulation|moving bod/);
    await p.page.context().close();
  });
});
