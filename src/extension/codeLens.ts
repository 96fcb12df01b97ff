// CodeLens at the top of a scene: Inspect · Step · Run N steps · κ(A) and the number of problems.
import * as vscode from 'vscode';
import { CommandIds } from './commandIds';
import type { Config } from './config';
import { Disposable } from './dispose';
import { codeLensTitles, countProblems } from './logic/format';
import type { SceneManager } from './scenes';
import { isSceneDocument, toVsRange } from './util';
import { condFacts } from './statusBar';

export class SceneCodeLensProvider extends Disposable implements vscode.CodeLensProvider {
  private readonly emitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeCodeLenses = this.emitter.event;

  constructor(
    private readonly scenes: SceneManager,
    private readonly config: () => Config,
  ) {
    super();
    this._register(
      scenes.onDidChange((e) => {
        if (e.kind === 'inspected' || e.kind === 'running' || e.kind === 'reset' || e.diagnosticsChanged) this.emitter.fire();
      }),
    );
  }

  refresh(): void {
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
    const facts = r.snapshot ? condFacts(r.snapshot) : undefined;
    const t = codeLensTitles(planned, facts, countProblems(s.allDiagnostics()), s.running);
    const lenses = [new vscode.CodeLens(range, { title: t.inspect, tooltip: 'Open the Constraint Lens inspector', command: CommandIds.openInspector, arguments: [uri] })];
    if (r.snapshot && r.parse.scene) {
      lenses.push(
        new vscode.CodeLens(range, { title: t.step, tooltip: 'Take one simulation step', command: CommandIds.step, arguments: [uri] }),
        new vscode.CodeLens(range, {
          title: t.run,
          tooltip: s.running ? 'Stop the run' : `Run ${planned} steps (solver.steps)`,
          command: s.running ? CommandIds.playPause : CommandIds.runSteps,
          arguments: s.running ? [uri] : [uri, planned],
        }),
      );
    }
    lenses.push(new vscode.CodeLens(range, { title: t.summary, tooltip: 'κ(A) of A = J·M⁻¹·Jᵀ and rank; click for the inspector', command: CommandIds.openInspector, arguments: [uri] }));
    return lenses;
  }
}
