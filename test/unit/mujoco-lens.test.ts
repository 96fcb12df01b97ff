// Step, Run and Play/Pause from the CodeLens (and the palette) on a model whose panel runs MuJoCo drive
// that panel's MuJoCo session (src/extension/logic/mujocoLens.ts, commands.ts), and the Run lens
// prints the session's count and its Pause while MuJoCo plays; with no session they stay the engine's.
// The session's answers carry MuJoCo's iterations of their new steps only; the session has the run's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { loadModel, nodeFileAccess } from '../../src/import';
import { loadMujoco } from '../../src/import/mujoco';
import { MujocoRun } from '../../src/import/mujocoRun';
import { mujocoRunInfo } from '../../src/mujocoPanelModel';
import { handleMujoco } from '../../src/extension/mujocoWorker';
import { MujocoPanelSession, type MujocoPanelHooks } from '../../src/extension/logic/mujocoPanelSession';
import { lensRun, mujocoSceneCommand } from '../../src/extension/logic/mujocoLens';
import { codeLensTitles } from '../../src/extension/logic/format';
import { FIXTURES } from './import-helpers';

let ids = 0;

function session(file: string, plannedSteps: number) {
  const path = join(FIXTURES, 'mujoco', file);
  const text = readFileSync(path, 'utf8');
  let timer: (() => void) | undefined;
  const running: boolean[] = [];
  const hooks: MujocoPanelHooks = {
    request: (m) => handleMujoco({ ...m, id: ++ids } as Parameters<typeof handleMujoco>[0]),
    source: () => ({ path, fileName: file, text, plannedSteps, conditionWarning: 1e8, maxSteps: 100_000 }),
    playRate: () => 500,
    modelChanged: () => undefined,
    stepped: () => undefined,
    running: (r) => void running.push(r),
    diagnostics: () => undefined,
    error: (m) => assert.fail(m),
    // Play's ticks run when the test says (no wall clock)
    timers: { now: () => 0, setTimeout: (fn) => void (timer = fn), clearTimeout: () => undefined },
  };
  const s = new MujocoPanelSession(`lens:${file}:${ids}`, hooks);
  return { s, running, tick: () => timer?.() };
}

const noProblems = { errors: 0, warnings: 0, infos: 0 };

test('the Run lens: the engine’s count and state without a MuJoCo session, the session’s with one', async () => {
  const engine = { planned: 250, running: true };
  assert.deepEqual(lensRun(engine, undefined), engine);
  const { s, tick } = session('weld-offset.xml', 37);
  try {
    assert.ok(await s.open());
    assert.deepEqual(lensRun(engine, s), { planned: 37, running: false }, 'the session’s planned steps, not playing (the engine’s run is not shown)');
    assert.equal(codeLensTitles(lensRun(engine, s).planned, undefined, noProblems, lensRun(engine, s).running).run, '$(run-all) Run 37 steps');
    await mujocoSceneCommand(s, 'playPause');
    assert.equal(lensRun(engine, s).running, true, 'MuJoCo plays: the lens pauses it');
    assert.equal(codeLensTitles(37, undefined, noProblems, lensRun(engine, s).running).run, '$(debug-pause) Pause');
    tick();
    await mujocoSceneCommand(s, 'playPause');
    assert.equal(lensRun(engine, s).running, false);
  } finally {
    s.dispose();
  }
});

test('Step, Run and Play/Pause on a MuJoCo session take MuJoCo’s steps', async () => {
  const { s, running } = session('weld-offset.xml', 12);
  const path = join(FIXTURES, 'mujoco', 'weld-offset.xml');
  try {
    assert.ok(await s.open());
    assert.equal(s.total, 0);
    assert.equal(await mujocoSceneCommand(s, 'step'), 1, 'Step: one mj_step');
    assert.equal(await mujocoSceneCommand(s, 'run', 5), 6, 'Run 5');
    assert.equal(await mujocoSceneCommand(s, 'run'), 18, 'Run without a count: the planned steps');
    assert.equal(await mujocoSceneCommand(s, 'run', -3), 30, 'a count that is not a positive integer: the planned steps');
    assert.equal(await mujocoSceneCommand(s, 'run', 2.5), 42);
    // the records are MuJoCo's steps 1…42 in order
    assert.deepEqual(
      s.records.map((r) => r.step),
      Array.from({ length: 42 }, (_, i) => i + 1),
    );
    assert.ok(running.includes(true) && running.at(-1) === false, 'a run reports running, then its end');
    // MuJoCo's iterations per step, sent by each answer for its new steps only, are the whole run's
    const parse = await loadModel(path, readFileSync(path, 'utf8'), { files: nodeFileAccess(dirname(path)) });
    assert.ok(parse.model);
    const run = MujocoRun.open(await loadMujoco(), parse.model);
    assert.ok(!('error' in run));
    run.step(42);
    assert.deepEqual(s.model()?.mujocoRun?.iterations, mujocoRunInfo(run).iterations);
    run.dispose();
    await mujocoSceneCommand(s, 'playPause');
    assert.equal(s.running, true);
    await mujocoSceneCommand(s, 'playPause');
    assert.equal(s.running, false);
  } finally {
    s.dispose();
  }
});
