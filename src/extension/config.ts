// The `constraintLens.*` settings (declared in package.json `contributes.configuration`).
import * as vscode from 'vscode';

export interface Config {
  /** Delay after the last edit before a scene is re-analysed (ms). */
  debounceMs: number;
  /** Play: simulation steps per second. */
  playRate: number;
  /** κ(A) at or above which the status bar and tree flag ill-conditioning; undefined = the scene's `solver.conditionWarning`. */
  conditionWarning: number | undefined;
  /** Scenes with more bodies than this are analysed in a worker thread. */
  inlineMaxBodies: number;
  inlineMaxWork: number;
  /** Use the worker thread at all. */
  useWorker: boolean;
  codeLens: boolean;
  statusBar: boolean;
  /** Upper bound of a run's history length (Play stops there). */
  maxSteps: number;
  /** MJCF/URDF models start from the <key> of this name when they have one (undefined: qpos0). */
  importKeyframe: string | undefined;
  /** MJCF/URDF models: what Run N Steps runs — the engine's formulation, or MuJoCo's own mj_step (mujocoRunner.ts). */
  importSolver: 'engine' | 'mujoco';
  /** Open Inspector shows another model in the inspector already open (false: a panel per model). */
  inspectorReuse: boolean;
}

const num = (v: unknown, def: number, min: number, max: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : def;

export function readConfig(): Config {
  const c = vscode.workspace.getConfiguration('constraintLens');
  const cw = c.get<number | null>('conditionWarning', null);
  return {
    debounceMs: num(c.get('diagnostics.debounceMs'), 250, 0, 10_000),
    playRate: num(c.get('play.stepsPerSecond'), 30, 1, 1000),
    conditionWarning: typeof cw === 'number' && Number.isFinite(cw) && cw > 1 ? cw : undefined,
    inlineMaxBodies: num(c.get('analysis.inlineMaxBodies'), 20, 0, 100_000),
    inlineMaxWork: num(c.get('analysis.inlineMaxWork'), 20_000, 0, 1e12),
    useWorker: c.get<boolean>('analysis.useWorker', true) !== false,
    codeLens: c.get<boolean>('codeLens.enabled', true) !== false,
    statusBar: c.get<boolean>('statusBar.enabled', true) !== false,
    maxSteps: num(c.get('run.maxSteps'), 100_000, 1, 10_000_000),
    importKeyframe: ((k) => (typeof k === 'string' && k.trim() !== '' ? k.trim() : undefined))(c.get<string>('import.keyframe', '')),
    importSolver: c.get<string>('import.solver', 'engine') === 'mujoco' ? 'mujoco' : 'engine',
    inspectorReuse: c.get<boolean>('inspector.reuse', true) !== false,
  };
}
