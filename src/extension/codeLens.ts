// CodeLens at the top of a scene: Inspect · Step · Run N steps · κ(A), rank and step (the step the
// inspector shows, as the status bar) and the number of problems. Follows a run, throttled (once a
// second, so that VS Code's debounce lets the lenses be asked for while the run goes on).
import * as vscode from 'vscode';
import { CommandIds } from './commandIds';
import type { Config } from './config';
import { Disposable, toDisposable } from './dispose';
import { codeLensTitles, countProblems, notSimulatedLens } from './logic/format';
import { shownCondFacts } from './logic/shown';
import { Throttle } from './logic/throttle';
import type { SceneManager } from './scenes';
import type { SolverViews } from './solverViews';
import { isSceneDocument, toVsRange } from './util';

/**
 * How often the CodeLens hears of a run's steps: once a second. VS Code asks for the lenses again
 * only after `onDidChangeCodeLenses` has been quiet for its debounce (at least 250 ms, the provider's
 * average time when longer; 375 ms in an extension development host), and each event restarts that
 * wait: at the status bar's 4 a second the lenses were never asked for while a run went on.
 */
export const LENS_RUN_REFRESH = { intervalMs: 1000, delayMs: 50 };

export class SceneCodeLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly throttle = new Throttle(() => this.emitter.fire(), LENS_RUN_REFRESH);

  constructor(
    private readonly scenes: SceneManager,
    private readonly config: () => Config,
    private readonly views: SolverViews,
  ) {
    super();
    this._register(toDisposable(() => this.throttle.dispose()));
    // a panel switched to MuJoCo: its run's steps, throttled like the engine's
    this._register(views.onDidChange(() => this.throttle.trigger()));
    this._register(
      scenes.onDidChange((e) => {
        // Steps of a run: throttled (the last one always shows); anything else at once.
        if (e.kind === 'stepped' && !e.settled && !e.diagnosticsChanged) this.throttle.trigger();
        else if (e.kind !== 'invalidated' && e.kind !== 'closed') this.refresh();
      }),
    );
  }

  refresh(): void {
    this.throttle.cancel();
    this.emitter.fire();
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.config().codeLens || !isSceneDocument(doc)) return [];
    const s = this.scenes.get(doc.uri);
    const r = s?.result;
    let range = new vscode.Range(0, 0, 0, 0);
    if (r?.parse.sourceMap) {
      try {
        const root = toVsRange(r.parse.sourceMap.rangeOf([]));
        range = new vscode.Range(root.start, root.start);
      } catch {
        // keep line 0
      }
    }
    range = doc.validateRange(range);
    const uri = doc.uri;
    const planned = r?.parse.scene?.solver.steps ?? 100;
    if (!r) {
      return [new vscode.CodeLens(range, { title: '$(loading~spin) Constraint Lens: analysing…', command: CommandIds.openInspector, arguments: [uri] })];
    }
    const view = this.views.of(s);
    const facts = shownCondFacts(view.source);
    // under MuJoCo, Step and Run drive the panel's MuJoCo session (commands.ts): its count, its run
    const run = view.run ?? { planned, running: s.running };
    const t = codeLensTitles(run.planned, facts, countProblems(view.diagnostics), run.running);
    const lenses = [new vscode.CodeLens(range, { title: t.inspect, tooltip: 'Open the Constraint Lens inspector', command: CommandIds.openInspector, arguments: [uri] })];
    if (r.snapshot && r.parse.scene) {
      lenses.push(
        new vscode.CodeLens(range, { title: t.step, tooltip: view.run ? "Take one of MuJoCo's steps" : 'Take one simulation step', command: CommandIds.step, arguments: [uri] }),
        new vscode.CodeLens(range, {
          title: t.run,
          tooltip: run.running ? 'Stop the run' : view.run ? `Run ${run.planned} of MuJoCo's steps (1 s of the model's time)` : `Run ${run.planned} steps (solver.steps)`,
          command: run.running ? CommandIds.playPause : CommandIds.runSteps,
          arguments: run.running ? [uri] : [uri, run.planned],
        }),
      );
    }
    lenses.push(new vscode.CodeLens(range, { title: t.summary, tooltip: 'κ(A) of A = J·M⁻¹·Jᵀ and rank; click for the inspector', command: CommandIds.openInspector, arguments: [uri] }));
    const missing = notSimulatedLens(r.parse.notSimulated);
    if (missing) lenses.push(new vscode.CodeLens(range, { ...missing, command: CommandIds.openInspector, arguments: [uri] }));
    return lenses;
  }
}
