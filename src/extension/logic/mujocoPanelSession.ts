// The inspector of an MJCF or URDF model switched to MuJoCo: Step, Run, Play and Reset take MuJoCo's
// own mj_steps in the MuJoCo worker's live session of the model, never on the extension host's thread.
// The host keeps the panel's mirror of the run (its history records, one column per run element, and
// MuJoCo's diagnostics) and hands it to the panel's feed like an engine run; a step's analysed system
// is asked of the worker when the panel shows it. Play asks for the steps due at its rate, each request
// bounded by a time budget, and the next only when the last was answered, so no work queues up and
// Pause or Reset take effect at the next answer. A reply from before a Reset or a switch is dropped.
// Pure: no vscode (test/unit/mujoco-panel-session.test.ts drives it with the worker's code in-thread).
import type { Diagnostic, StepRecord, SystemSnapshot } from '../../engine';
import type { MujocoRunInfo, PanelCommand, PanelModel } from '../../protocol';
import type { MujocoRequestBody, MujocoStepResult, MujocoWorkerResponse } from './mujocoWorkerProtocol';
import { realTimers, type Timers } from './schedule';

export interface MujocoPanelHooks {
  request(m: MujocoRequestBody): Promise<MujocoWorkerResponse>;
  /** The model file as the editor holds it, and the panel's settings. */
  source(): { path: string; fileName: string; text: string; keyframe?: string; plannedSteps: number; conditionWarning: number; maxSteps: number };
  /** Play's steps per second (read every tick). */
  playRate(): number;
  /** The model changed (opened, reset, columns grew): the panel gets it anew with the history streamed after it. */
  modelChanged(): void;
  /** Records were appended (`settled`: the run paused or ended). */
  stepped(settled: boolean): void;
  running(running: boolean): void;
  /** MuJoCo's diagnostics changed: the Problems panel and the panel's list. */
  diagnostics(ds: readonly Diagnostic[]): void;
  /** The step the panel shows changed (the status bar, CodeLens and tree follow it). */
  shown?(): void;
  error(message: string): void;
  timers?: Timers;
}

/** Most work one request asks of the worker while playing or running (ms): the panel hears of the run this often. */
const SLICE_MS = 40;
/** Shortest time between two play requests (ms). */
const TICK_MS = 16;

export class MujocoPanelSession {
  /** The run's records as the panel's history (index k: step k + 1). */
  readonly records: StepRecord[] = [];
  /** rows[k]: the rows (nefc) of the system step k + 1 solved. */
  private readonly rows: number[] = [];
  private columns: string[] = [];
  private base: PanelModel | undefined;
  private info: MujocoRunInfo | undefined;
  private diags: Diagnostic[] = [];
  /** Bumped by Reset and dispose: answers to older requests are dropped. */
  private generation = 0;
  private playing = false;
  /** The requests of steps, one after the other. */
  private chain: Promise<unknown> = Promise.resolve();
  private ended = false;
  private disposed = false;
  private readonly timers: Timers;
  private shownStep: number | undefined;

  /** The step the panel last showed (undefined: the run's end); a model sent again goes back there. */
  get shown(): number | undefined {
    return this.shownStep;
  }

  set shown(step: number | undefined) {
    if (step === this.shownStep) return;
    this.shownStep = step;
    this.hooks.shown?.();
  }

  constructor(
    readonly key: string,
    private readonly hooks: MujocoPanelHooks,
  ) {
    this.timers = hooks.timers ?? realTimers;
  }

  get running(): boolean {
    return this.playing;
  }

  /** Steps taken. */
  get total(): number {
    return this.records.length;
  }

  /** The run cannot go on (blow-up, failure, the step cap): Step and Play do nothing until Reset. */
  get stopped(): boolean {
    return this.ended;
  }

  get diagnostics(): readonly Diagnostic[] {
    return this.diags;
  }

  /** MuJoCo's analysed system of the initial state; undefined until the session is open. */
  get initial(): SystemSnapshot | undefined {
    return this.base?.snapshot;
  }

  /** Rows (nefc) of the system step k solved (k ≥ 1 taken); step 0's are the initial analysis's. */
  rowsAt(k: number): number | undefined {
    return k >= 1 ? this.rows[k - 1] : this.base?.snapshot.rank.rows;
  }

  /** The run's element names: the records' columns. */
  get elements(): readonly string[] {
    return this.columns;
  }

  /** Open the model in the worker at its initial state (also Reset, and an edit of the model). */
  async open(): Promise<boolean> {
    this.stop();
    const gen = ++this.generation;
    const src = this.hooks.source();
    const res = await this.hooks.request({ kind: 'open', key: this.key, path: src.path, fileName: src.fileName, text: src.text, plannedSteps: src.plannedSteps, conditionWarning: src.conditionWarning, ...(src.keyframe ? { keyframe: src.keyframe } : {}) });
    if (gen !== this.generation) return false;
    if (!res.ok || res.kind !== 'open') {
      this.hooks.error(`MuJoCo could not open ${src.fileName}: ${res.ok ? 'unexpected answer' : res.error.split('\n')[0]}`);
      return false;
    }
    this.records.length = 0;
    this.rows.length = 0;
    this.shown = undefined;
    this.ended = !res.model;
    this.base = res.model;
    this.columns = res.model?.historyColumns?.rows ?? [];
    this.info = res.model?.mujocoRun && { ...res.model.mujocoRun, iterations: [...res.model.mujocoRun.iterations] };
    this.setDiagnostics(res.diagnostics);
    this.hooks.modelChanged();
    if (!res.model) this.hooks.error(`MuJoCo could not run ${src.fileName}: see the Problems panel.`);
    return res.model !== undefined;
  }

  /** The panel's model (its history streamed after it); undefined until the session is open. */
  model(): PanelModel | undefined {
    const b = this.base;
    if (!b) return undefined;
    return { ...b, history: [], steps: this.records.length, diagnostics: [...this.diags], historyColumns: { constraints: this.columns, rows: this.columns }, ...(this.info ? { mujocoRun: this.info } : {}), solver: 'mujoco' };
  }

  /** MuJoCo's analysed system of step k (the worker reads it again from the run's checkpoints). */
  async snapshot(k: number): Promise<SystemSnapshot | undefined> {
    if (!this.base) return undefined;
    if (k === 0) return this.base.snapshot;
    const gen = this.generation;
    const res = await this.hooks.request({ kind: 'snapshot', key: this.key, step: k });
    if (gen !== this.generation) return undefined;
    if (!res.ok) throw new Error(res.error);
    return res.kind === 'snapshot' ? res.snapshot : undefined;
  }

  /** Take n steps (Step: 1; Run: the planned count) in budgeted slices; resolves with the number taken. */
  async step(n: number): Promise<number> {
    this.stop();
    const start = this.records.length;
    const goal = start + n;
    const gen = this.generation;
    // a run follows its end, as the engine's (a step chosen before it is let go)
    this.shown = undefined;
    this.hooks.running(true);
    try {
      while (!this.ended && this.records.length < goal && gen === this.generation) {
        const done = await this.slice(goal - this.records.length, true);
        if (!done) break;
        if (this.records.length < goal && !this.ended) this.hooks.stepped(false);
      }
    } finally {
      if (gen === this.generation) {
        this.hooks.running(false);
        this.hooks.stepped(true);
      }
    }
    return this.records.length - start;
  }

  /** Play or pause; true when now playing. */
  playPause(): boolean {
    if (this.playing) {
      this.stop();
      void this.findings();
      return false;
    }
    if (this.ended || !this.base) return false;
    this.playing = true;
    this.shown = undefined;
    this.hooks.running(true);
    const gen = this.generation;
    let last = this.timers.now();
    const tick = async (): Promise<void> => {
      if (!this.playing || gen !== this.generation) return;
      const now = this.timers.now();
      // the steps due since the last request, at least one, capped by the slice's budget in the worker
      const due = Math.max(1, Math.min(1_000_000, Math.round((this.hooks.playRate() * (now - last)) / 1000)));
      last = now;
      const ok = await this.slice(due, false);
      if (gen !== this.generation) return;
      this.hooks.stepped(!ok || this.ended);
      if (!ok || this.ended) {
        this.playing = false;
        this.hooks.running(false);
        return;
      }
      if (this.playing) this.timers.setTimeout(() => void tick(), TICK_MS);
    };
    this.timers.setTimeout(() => void tick(), 0);
    return true;
  }

  /** Back to the initial state (the history cleared): the worker opens the model again. */
  async reset(): Promise<void> {
    await this.open();
  }

  /** Stop playing (Pause): no more requests go; the one in flight is still taken in. */
  stop(): void {
    if (!this.playing) return;
    this.playing = false;
    this.hooks.running(false);
  }

  /** Close the worker's session (the panel switched back to the engine, or closed). */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.stop();
    this.generation++;
    void this.hooks.request({ kind: 'close', key: this.key });
  }

  /** MuJoCo's diagnostics of the run so far (after a pause): a request of no steps. */
  private async findings(): Promise<void> {
    if (this.base) await this.slice(0, true);
  }

  /**
   * One request of up to n steps, after the one in flight (Step pressed while Play's request is out
   * waits for it); false when it failed or was superseded by a Reset.
   */
  private slice(n: number, findings: boolean): Promise<boolean> {
    const gen = this.generation;
    const next = this.chain.then(async () => {
      if (gen !== this.generation) return false;
      const res = await this.hooks.request({ kind: 'step', key: this.key, steps: n, budgetMs: SLICE_MS, maxSteps: this.hooks.source().maxSteps, findings });
      if (gen !== this.generation) return false;
      if (!res.ok || res.kind !== 'step') {
        this.hooks.error(`MuJoCo's step failed: ${res.ok ? 'unexpected answer' : res.error.split('\n')[0]}`);
        this.ended = true;
        return false;
      }
      this.take(res);
      return true;
    });
    this.chain = next.catch(() => false);
    return next;
  }

  /** Append a step answer's records (padding the earlier ones when new elements appeared). */
  private take(res: MujocoStepResult): void {
    if (res.from !== this.records.length + 1 && res.records.length) {
      this.hooks.error(`MuJoCo's steps arrived out of order (${res.from} after ${this.records.length}); resetting the run.`);
      void this.open();
      return;
    }
    const grew = res.columns.length > this.columns.length;
    if (grew) {
      const extra = res.columns.length - this.columns.length;
      for (const r of this.records) {
        for (let i = 0; i < extra; i++) {
          r.C.push(0);
          r.lambda.push(0);
        }
      }
      this.columns = res.columns;
    }
    this.records.push(...res.records);
    for (let i = 0; i < res.records.length; i++) this.rows.push(res.rows[i] ?? 0);
    // the answer's iterations are its new steps' (mujocoWorkerProtocol.ts): after the ones the session has
    const iterations = this.info?.iterations ?? [];
    for (const it of res.info.iterations) iterations.push(it);
    this.info = { ...res.info, iterations };
    this.ended = res.stopped;
    if (res.diagnostics) this.setDiagnostics(res.diagnostics);
    if (grew) this.hooks.modelChanged();
  }

  private setDiagnostics(ds: Diagnostic[]): void {
    this.diags = ds;
    this.hooks.diagnostics(ds);
  }
}

/** A panel button on a model run by MuJoCo; false when the button is not the run's (Compare, Keyframe). */
export async function mujocoCommand(session: MujocoPanelSession, command: PanelCommand, step?: number): Promise<boolean> {
  switch (command) {
    case 'step':
      await session.step(1);
      return true;
    case 'run':
      await session.step(session.model()?.plannedSteps ?? 1);
      return true;
    case 'playPause': {
      const wasPlaying = session.running;
      session.playPause();
      // Pause lands on the step the panel showed when the user pressed it (the worker's answer in
      // flight may take the run further): every view then shows the step that was seen.
      if (wasPlaying && step !== undefined) session.shown = Math.min(step, session.total);
      return true;
    }
    case 'reset':
      await session.reset();
      return true;
    default:
      return false;
  }
}
