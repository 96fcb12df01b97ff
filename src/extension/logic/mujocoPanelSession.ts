// The inspector of an MJCF or URDF model switched to MuJoCo: Step, Run, Play and Reset take MuJoCo's
// own mj_steps in the MuJoCo worker's live session of the model, never on the extension host's thread.
// The host keeps the panel's mirror of the run (its history records, one column per run element, and
// MuJoCo's diagnostics) and hands it to the panel's feed like an engine run; a step's analysed system
// is asked of the worker when the panel shows it. Play asks for the steps due at its rate, each request
// bounded by a time budget, and the next only when the last was answered, so no work queues up and
// Pause or Reset take effect at the next answer. A reply from before a Reset or a switch is dropped.
// Pure: no vscode (test/unit/mujoco-panel-session.test.ts drives it with the worker's code in-thread).
import type { Diagnostic, StepRecord, SystemSnapshot } from '../../engine';
import type { MujocoRunInfo, PanelModel } from '../../protocol';
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
  /** The step the panel last showed (undefined: the run's end); a model sent again goes back there. */
  shown: number | undefined;

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
    this.shown = undefined;
    this.ended = !res.model;
    this.base = res.model;
    this.columns = res.model?.historyColumns?.rows ?? [];
    this.info = res.model?.mujocoRun;
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
    this.info = res.info;
    this.ended = res.stopped;
    if (res.diagnostics) this.setDiagnostics(res.diagnostics);
    if (grew) this.hooks.modelChanged();
  }

  private setDiagnostics(ds: Diagnostic[]): void {
    this.diags = ds;
    this.hooks.diagnostics(ds);
  }
}
