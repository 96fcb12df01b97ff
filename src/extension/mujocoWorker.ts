// The MuJoCo worker (bundled to dist/mujocoWorker.js): runs MuJoCo's WebAssembly off the extension
// host's thread. One request at a time: read the MJCF/URDF model (its includes and meshes from disk
// beside it), run N mj_steps from qpos0 or the keyframe, analyse every step's system through the seam
// and answer with the panel's model of the run (src/mujocoPanelModel.ts) and the diagnostics (CL701 …)
// with their ranges on the XML; or keep a live session per inspector switched to MuJoCo
// (mujocoSessions.ts): Step, Run and Play take its next steps.
import { dirname } from 'node:path';
import { parentPort } from 'node:worker_threads';
import { DEFAULT_CONDITION_WARNING } from '../engine';
import { loadModel, nodeFileAccess } from '../import';
import { solveWithMujoco } from '../import/mujocoSolver';
import { mujocoReportModel } from '../mujocoPanelModel';
import { isMujocoWorkerRequest, type MujocoRunRequest, type MujocoWorkerRequest, type MujocoWorkerResponse } from './logic/mujocoWorkerProtocol';
import { MujocoSessions } from './mujocoSessions';

/** The worker's live sessions (the inspectors switched to MuJoCo). */
const sessions = new MujocoSessions();

/** Handle one request (exported for tests; the worker calls it for each message). */
export async function handleMujoco(m: MujocoWorkerRequest): Promise<MujocoWorkerResponse> {
  switch (m.kind) {
    case 'open':
      return sessions.open(m);
    case 'step':
      return sessions.step(m);
    case 'snapshot':
      return sessions.snapshot(m);
    case 'close':
      sessions.close(m.key);
      return { id: m.id, ok: true, kind: 'close' };
    default:
      return runOnce(m);
  }
}

/** A one-shot run: N steps from the initial state, every step analysed into the run's panel model. */
async function runOnce(m: MujocoRunRequest): Promise<MujocoWorkerResponse> {
  const t0 = performance.now();
  const parse = await loadModel(m.path, m.text, { files: nodeFileAccess(dirname(m.path)), ...(m.keyframe ? { keyframe: m.keyframe } : {}) });
  const out = await solveWithMujoco(parse, m.steps, m.keyframe ? { keyframe: m.keyframe } : {});
  try {
    if (!out.run || !out.snapshot) return { id: m.id, ok: true, kind: 'run', diagnostics: out.diagnostics, steps: 0, ms: performance.now() - t0 };
    const model = mujocoReportModel(out.run, {
      sceneName: parse.scene?.name ?? m.fileName,
      fileName: m.fileName,
      snapshot: out.snapshot,
      diagnostics: out.diagnostics,
      plannedSteps: m.steps,
      conditionWarning: parse.scene?.solver.conditionWarning ?? DEFAULT_CONDITION_WARNING,
      generator: 'MuJoCo run (Constraint Lens)',
    });
    return { id: m.id, ok: true, kind: 'run', diagnostics: out.diagnostics, steps: out.run.currentStep, model, ms: performance.now() - t0 };
  } finally {
    out.run?.dispose();
  }
}

const port = parentPort;
if (port) {
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (m: unknown) => {
    if (!isMujocoWorkerRequest(m)) return;
    queue = queue.then(async () => {
      let res: MujocoWorkerResponse;
      try {
        res = await handleMujoco(m);
      } catch (e) {
        res = { id: m.id, ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
      }
      port.postMessage(res);
    });
  });
}
