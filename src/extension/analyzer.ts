// Runs the engine's inspection of a scene: in the extension host for small scenes, in a worker
// thread (dist/worker.js) for large ones, so typing in a 100-body scene never blocks the host.
// Requests are versioned per document: a result for a superseded version is dropped, and a long
// stale computation in the worker is cancelled by terminating the worker.
import { existsSync } from 'node:fs';
import type * as vscode from 'vscode';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { emptySourceMap, inspectParsed, parseScene, internalError } from '../engine';
import type { InspectOptions, InspectResult, ParseResult, SceneSpec, SystemSnapshot } from '../engine';
import { analyseInWorker, sceneWorkload } from './logic/workload';
import { SingleLane, VersionTracker, type Ticket } from './logic/schedule';
import { workerWire, type WorkerInspectResult, type WorkerMethods, type WorkerParse, type WorkerSnapshotResult } from './logic/workerProtocol';
import { lazySourceMap } from './logic/lazySourceMap';
import { createRpcClient, type RpcClient } from '../shared/rpc';
import { withoutFixes } from './logic/fileKind';
import { EDITOR_BUDGET } from './logic/budget';

/** The part of vscode.LogOutputChannel used here (keeps this module free of vscode at run time). */
export type Log = Pick<vscode.LogOutputChannel, 'trace' | 'debug' | 'info' | 'warn' | 'error'>;

import { errorMessage } from './logic/errors';

/** How long a stale request may keep the worker busy before the worker is restarted (ms). */
const STALE_ABORT_MS = 400;
/** Terminate an idle worker after this long (ms); it restarts on the next large scene. */
const IDLE_MS = 120_000;

export class InspectWorker {
  private worker: Worker | undefined;
  /** The request/reply channel to the current worker (src/shared/rpc.ts over the worker's message shapes). */
  private client: RpcClient<WorkerMethods> | undefined;
  private failures = 0;
  private idleTimer: ReturnType<typeof setTimeout> | undefined;
  restarts = 0;

  constructor(
    private readonly scriptPath: string,
    private readonly log: Log,
    /** Extra options of the Worker (tests run the TypeScript source through tsx). */
    private readonly workerOptions: WorkerOptions = {},
  ) {}

  /** The script was found once (a synchronous file check on every analysis showed in the host's profile). */
  private scriptFound = false;

  /** False when the script is missing or the worker keeps failing (the host then inspects inline). */
  get available(): boolean {
    if (this.failures >= 3) return false;
    // Looked for until found; a script removed later fails to start, which counts as a failure.
    return (this.scriptFound ||= existsSync(this.scriptPath));
  }

  inspect(text: string, opts?: InspectOptions): Promise<WorkerInspectResult> {
    return this.request((c) => c.request('inspect', { text, opts }));
  }

  snapshot(key: string, version: number, text: string, step: number): Promise<WorkerSnapshotResult> {
    return this.request((c) => c.request('snapshot', { key, version, text, step }));
  }

  private async request<R>(send: (c: RpcClient<WorkerMethods>) => Promise<R>): Promise<R> {
    let c: RpcClient<WorkerMethods>;
    try {
      c = this.ensure();
    } catch (e) {
      this.failures++;
      throw e instanceof Error ? e : new Error(String(e));
    }
    if (this.idleTimer) clearTimeout(this.idleTimer);
    try {
      const r = await send(c);
      this.failures = 0;
      return r;
    } finally {
      if (this.client === c && c.pending().length === 0) this.armIdle();
    }
  }

  private ensure(): RpcClient<WorkerMethods> {
    if (this.worker && this.client) return this.client;
    const w = new Worker(this.scriptPath, { name: 'constraint-lens-inspect', ...this.workerOptions });
    w.unref();
    this.client = createRpcClient<WorkerMethods, unknown, unknown>(
      (m) => w.postMessage(m),
      (listener) => {
        w.on('message', listener);
        return () => w.off('message', listener);
      },
      { wire: workerWire },
    );
    w.on('error', (e) => {
      this.failures++;
      this.log.error(`analysis worker failed: ${errorMessage(e)}`);
      this.drop(w, e);
    });
    w.on('exit', (code) => {
      if (this.worker === w && code !== 0) this.log.warn(`analysis worker exited with code ${code}`);
      this.drop(w, new Error(`worker exited (${code})`));
    });
    this.worker = w;
    return this.client;
  }

  private armIdle(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.terminate('idle'), IDLE_MS);
    this.idleTimer.unref?.();
  }

  private drop(w: Worker, e: Error): void {
    if (this.worker !== w) return;
    this.worker = undefined;
    this.client?.dispose(e.message);
    this.client = undefined;
  }

  /** Stop the worker now (cancels whatever it is computing); pending requests reject. */
  terminate(reason: string): void {
    const w = this.worker;
    if (!w) return;
    if (reason !== 'idle') this.restarts++;
    this.log.debug(`analysis worker terminated (${reason})`);
    this.drop(w, new Error(`cancelled: ${reason}`));
    void w.terminate();
  }

  dispose(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.terminate('idle');
  }
}

/** A scene's parse as the worker sent it, with a SourceMap made from the text on first use. */
export function parseFromWorker(text: string, p: WorkerParse): ParseResult {
  return { scene: p.scene, diagnostics: p.diagnostics, hasErrors: p.hasErrors, sourceMap: lazySourceMap(text, p) };
}

interface AnalyzerOptions {
  inlineMaxBodies: number;
  /** Scenes whose estimated work (logic/workload.ts) is above this go to the worker too (default DEFAULT_INLINE_MAX_WORK). */
  inlineMaxWork?: number;
  useWorker: boolean;
}

interface AnalysisStats {
  inline: number;
  worker: number;
  stale: number;
  lastMs: number;
  lastWhere: 'host' | 'worker' | undefined;
}

export class Analyzer {
  readonly tracker = new VersionTracker();
  private readonly lane = new SingleLane<WorkerInspectResult | WorkerSnapshotResult>(this.tracker);
  /** Whether each document's last analysis belonged in the worker: predicts where the next one runs. */
  private readonly lastInWorker = new Map<string, boolean>();
  private abortTimer: ReturnType<typeof setTimeout> | undefined;
  readonly stats: AnalysisStats = { inline: 0, worker: 0, stale: 0, lastMs: 0, lastWhere: undefined };
  /** How long each document's last completed scene analysis took (ms): when to start the next one early. */
  private readonly lastMsOf = new Map<string, number>();

  constructor(
    private readonly worker: InspectWorker,
    private readonly log: Log,
    private readonly options: () => AnalyzerOptions,
  ) {}

  /**
   * Inspect `text` (version `version` of document `key`). Resolves with undefined when a newer
   * request for the same document superseded this one. Never rejects. `loadModel` (MJCF and URDF
   * documents) replaces the scene parser; a model is analysed in the extension host, never in the
   * worker (loading it reads the workspace's files), and keeps no quick fixes (they edit JSON).
   */
  async analyze(key: string, version: number, text: string, loadModel?: () => Promise<ParseResult>): Promise<InspectResult | undefined> {
    if (loadModel) return this.analyzeModel(key, version, text, loadModel);
    const ticket = this.tracker.begin(key, version);
    const t0 = performance.now();
    const opt = this.options();
    const workerOk = opt.useWorker && this.worker.available;
    // A scene that was large last time goes to the worker, and the host does not parse it: the
    // worker sends its parse back as plain data (a SourceMap is made from the text when asked for).
    let pending: Promise<WorkerInspectResult | WorkerSnapshotResult | undefined> | undefined;
    let parse: ParseResult | undefined;
    if (workerOk && this.lastInWorker.get(key) === true) pending = this.submit(key, ticket, () => this.worker.inspect(text, { budget: EDITOR_BUDGET }));
    else {
      try {
        parse = parseScene(text);
      } catch (e) {
        this.log.error(`parseScene failed: ${errorMessage(e)}`);
        return this.internalFailure(e);
      }
      // by the work (rows × columns and rows² per island), not only the body count: one body with
      // thousands of constraints never blocks the extension host
      const large = analyseInWorker(sceneWorkload(parse.scene), opt);
      this.lastInWorker.set(key, large);
      if (workerOk && parse.scene !== undefined && large) pending = this.submit(key, ticket, () => this.worker.inspect(text, { budget: EDITOR_BUDGET }));
    }
    let result: InspectResult | undefined;
    if (pending) {
      const r = (await pending) as WorkerInspectResult | undefined;
      if (!this.tracker.isCurrent(ticket)) {
        this.stats.stale++;
        return undefined;
      }
      const p = parse ?? (r?.parse ? parseFromWorker(text, r.parse) : undefined);
      if (r && p) {
        if (!parse) this.lastInWorker.set(key, analyseInWorker(sceneWorkload(p.scene), opt));
        result = { parse: p, snapshot: r.snapshot, diagnostics: r.diagnostics, hasErrors: r.hasErrors };
        this.stats.worker++;
        this.stats.lastWhere = 'worker';
      } else {
        this.log.warn(`worker analysis of ${key} failed; analysing in the extension host`);
      }
    }
    if (!result) {
      try {
        parse ??= parseScene(text);
        result = inspectParsed(text, parse, { budget: EDITOR_BUDGET });
      } catch (e) {
        this.log.error(`inspectScene failed: ${errorMessage(e)}`);
        result = parse ? { ...this.internalFailure(e), parse } : this.internalFailure(e);
      }
      this.stats.inline++;
      this.stats.lastWhere = 'host';
    }
    this.stats.lastMs = performance.now() - t0;
    if (!this.tracker.isCurrent(ticket)) {
      this.stats.stale++;
      return undefined;
    }
    this.lastMsOf.set(key, this.stats.lastMs);
    this.log.trace(`analysed ${key} v${version} in ${this.stats.lastMs.toFixed(1)} ms (${this.stats.lastWhere})`);
    return result;
  }

  private async analyzeModel(key: string, version: number, text: string, loadModel: () => Promise<ParseResult>): Promise<InspectResult | undefined> {
    const ticket = this.tracker.begin(key, version);
    const t0 = performance.now();
    let result: InspectResult;
    try {
      const parse = await loadModel();
      if (!this.tracker.isCurrent(ticket)) {
        this.stats.stale++;
        return undefined;
      }
      result = withoutFixes(inspectParsed(text, parse, { budget: EDITOR_BUDGET }));
    } catch (e) {
      this.log.error(`analysing the model ${key} failed: ${errorMessage(e)}`);
      result = this.internalFailure(e);
    }
    this.stats.inline++;
    this.stats.lastWhere = 'host';
    this.stats.lastMs = performance.now() - t0;
    if (!this.tracker.isCurrent(ticket)) {
      this.stats.stale++;
      return undefined;
    }
    this.log.trace(`analysed model ${key} v${version} in ${this.stats.lastMs.toFixed(1)} ms`);
    return result;
  }

  private submit(key: string, ticket: Ticket, run: () => Promise<WorkerInspectResult | WorkerSnapshotResult>): Promise<WorkerInspectResult | WorkerSnapshotResult | undefined> {
    const p = this.lane.submit(key, ticket, run);
    this.checkStaleRunning();
    return p;
  }

  /** How long the document's last scene analysis took (ms), if it had one. */
  lastMsFor(key: string): number | undefined {
    return this.lastMsOf.get(key);
  }

  /** True when past steps of this scene are analysed in the worker (large scene: logic/workload.ts). */
  usesWorkerFor(scene: SceneSpec | undefined): boolean {
    const opt = this.options();
    return opt.useWorker && this.worker.available && analyseInWorker(sceneWorkload(scene), opt);
  }

  /**
   * The analysed system at `step` of a run of `text` (version `version` of `key`), computed in the
   * worker on a replica simulation. 'superseded' when a newer request for the same document was
   * made meanwhile; undefined on failure.
   */
  async snapshotInWorker(key: string, version: number, text: string, step: number): Promise<SystemSnapshot | 'superseded' | undefined> {
    const k = `snapshot:${key}`;
    const ticket = this.tracker.begin(k, version);
    const r = (await this.submit(k, ticket, () => this.worker.snapshot(key, version, text, step))) as WorkerSnapshotResult | undefined;
    if (!this.tracker.isCurrent(ticket)) return 'superseded';
    return r?.snapshot;
  }

  /** Forget a document: outstanding requests for it become stale. */
  forget(key: string): void {
    this.tracker.invalidate(key);
    this.tracker.invalidate(`snapshot:${key}`);
    this.lastInWorker.delete(key);
    this.lastMsOf.delete(key);
    this.checkStaleRunning();
  }

  /** When the worker's current job went stale, terminate the worker once it has run long enough. */
  private checkStaleRunning(): void {
    const job = this.lane.current;
    if (!job || !this.lane.runningIsStale()) return;
    const ran = performance.now() - job.ticket.startedAt;
    const abort = (): void => {
      if (this.lane.current === job && this.lane.runningIsStale()) this.worker.terminate(`stale request for ${job.key}`);
    };
    if (ran >= STALE_ABORT_MS) abort();
    else {
      if (this.abortTimer) clearTimeout(this.abortTimer);
      this.abortTimer = setTimeout(abort, STALE_ABORT_MS - ran);
    }
  }

  private internalFailure(e: unknown): InspectResult {
    const d = internalError(e, 'analysing the scene');
    return { parse: { scene: undefined, diagnostics: [d], hasErrors: true, sourceMap: emptySourceMap() }, diagnostics: [d], hasErrors: true };
  }

  dispose(): void {
    if (this.abortTimer) clearTimeout(this.abortTimer);
    this.lane.clear();
  }
}
