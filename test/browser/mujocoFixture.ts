// MuJoCo's run of a model as the panel's host holds it (the worker's handler called in-process):
// the model after `n` steps, its records and the last step's snapshot, for the browser tests.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { handleMujoco } from '../../src/extension/mujocoWorker';
import { MujocoPanelSession } from '../../src/extension/logic/mujocoPanelSession';
import type { PanelModel, StepRecord, SystemSnapshot } from '../../src/protocol';

export async function mujocoRun(path: string, n: number): Promise<{ model: PanelModel; records: StepRecord[]; last: SystemSnapshot }> {
  const text = readFileSync(path, 'utf8');
  let id = 0;
  const errors: string[] = [];
  const s = new MujocoPanelSession(`browser:${basename(path)}`, {
    request: (m) => handleMujoco({ ...m, id: ++id }),
    source: () => ({ path, fileName: basename(path), text, plannedSteps: n, conditionWarning: 1e8, maxSteps: 100_000 }),
    playRate: () => 1e6,
    modelChanged: () => undefined,
    stepped: () => undefined,
    running: () => undefined,
    diagnostics: () => undefined,
    error: (m) => void errors.push(m),
  });
  try {
    assert.ok(await s.open());
    assert.equal(await s.step(n), n);
    const last = await s.snapshot(n);
    const model = s.model();
    assert.ok(last && model);
    assert.deepEqual(errors, []);
    return { model, records: s.records.slice(), last };
  } finally {
    s.dispose();
  }
}
