// The inspector's header under MuJoCo as the solver, in headless Chromium: MuJoCo's step is in
// joint space, so the subtitle names mj_step, MuJoCo's integrator, the DOFs and the step's
// constraint rows, not the engine's formulation and moving bodies (its snapshot has no bodies: the
// header once read "acceleration formulation · none stabilisation · 0 moving bodies" for a chain).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { handleMujoco } from '../../src/extension/mujocoWorker';
import { MujocoPanelSession } from '../../src/extension/logic/mujocoPanelSession';
import type { PanelModel, SystemSnapshot } from '../../src/protocol';
import { ROOT } from './fixtures';
import { requireChromium, ensureBuilt, launch, openPanel } from './harness';

requireChromium();
const PATH = join(ROOT, 'test', 'fixtures', 'import', 'mujoco', 'falling-brick.xml');
const N = 150;

/** MuJoCo's run of the model after N steps, as the host sends it, with the last step's snapshot. */
async function mujocoRun(): Promise<{ model: PanelModel; last: SystemSnapshot }> {
  const text = readFileSync(PATH, 'utf8');
  let id = 0;
  const errors: string[] = [];
  const s = new MujocoPanelSession('browser:header', {
    request: (m) => handleMujoco({ ...m, id: ++id }),
    source: () => ({ path: PATH, fileName: 'falling-brick.xml', text, plannedSteps: N, conditionWarning: 1e8, maxSteps: 100_000 }),
    playRate: () => 1e6,
    modelChanged: () => undefined,
    stepped: () => undefined,
    running: () => undefined,
    diagnostics: () => undefined,
    error: (m) => void errors.push(m),
  });
  try {
    assert.ok(await s.open());
    assert.equal(await s.step(N), N);
    const last = await s.snapshot(N);
    const m = s.model();
    assert.ok(last && m);
    assert.deepEqual(errors, []);
    return { model: { ...m, snapshot: last, history: s.records.slice() }, last };
  } finally {
    s.dispose();
  }
}

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
    const { model, last } = await mujocoRun();
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
