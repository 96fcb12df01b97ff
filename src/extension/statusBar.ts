// The status bar item of the active scene: `κ 1.2e3 · rank 5/6 · step 0`, the κ of the step the
// inspector shows (the run's current step, or the one chosen by Go to Step), with a warning
// background when A is singular or ill-conditioned. It follows a run (throttled like the tree).
// Click: open the inspector.
import * as vscode from 'vscode';
import { CommandIds } from './commandIds';
import type { Config } from './config';
import { condBand, condBandDescription, formatCond, isIllConditioned, type CondBand } from '../shared';
import { Disposable, toDisposable } from './dispose';
import { countProblems, problemsText, statusText } from './logic/format';
import { conditionWarningOf, shownCondFacts, shownRecord } from './logic/shown';
import { Throttle, VIEW_REFRESH } from './logic/throttle';
import type { SceneManager, SceneState } from './scenes';
import type { SolverViews } from './solverViews';
import { isSceneDocument } from './util';

/** The κ warning threshold for a scene: the setting's override, else the scene's solver.conditionWarning. */
export function sceneConditionWarning(s: SceneState | undefined, cfg: Config): number {
  return conditionWarningOf(s?.result?.parse.scene, cfg.conditionWarning);
}

export class SceneStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('constraintLens.status', vscode.StatusBarAlignment.Right, 100));
  private readonly throttle = new Throttle(() => this.update(), VIEW_REFRESH);

  constructor(
    private readonly scenes: SceneManager,
    private readonly config: () => Config,
    private readonly views: SolverViews,
  ) {
    super();
    this.item.name = 'Constraint Lens';
    this._register(toDisposable(() => this.throttle.dispose()));
    this._register(scenes.onDidChangeActive(() => this.update()));
    this._register(
      scenes.onDidChange((e) => {
        if (e.state !== scenes.active) return;
        // Steps of a run: throttled (the last one always shows); anything else at once.
        if (e.kind === 'stepped' && !e.settled) this.throttle.trigger();
        else {
          this.throttle.cancel();
          this.update();
        }
      }),
    );
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
    // a panel switched to MuJoCo: its run's steps, throttled like the engine's
    this._register(views.onDidChange((s) => s === scenes.active && this.throttle.trigger()));
  }

  /** The text currently shown ('' when hidden). */
  text = '';

  update(): void {
    const s = this.scenes.active;
    const ed = vscode.window.activeTextEditor;
    // Shown for the active scene editor, or while an inspector (no text editor) has focus.
    const relevant = s && (ed === undefined ? true : isSceneDocument(ed.document) && ed.document.uri.toString() === s.key);
    if (!this.config().statusBar || !s || !relevant) {
      this.item.hide();
      this.text = '';
      return;
    }
    const r = s.result;
    const view = this.views.of(s);
    const snap = view.source.result?.snapshot;
    const f = shownCondFacts(view.source);
    const mujoco = view.solver === 'mujoco';
    let text: string;
    let band: CondBand | undefined;
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = false;
    if (!snap || !f) {
      text = r ? '$(error) κ –' : '$(loading~spin) κ …';
      band = undefined;
      md.appendMarkdown(r ? `**${s.fileName}** could not be analysed (${problemsText(countProblems(view.diagnostics))}).` : `Analysing **${s.fileName}**…`);
    } else {
      const warning = sceneConditionWarning(s, this.config());
      band = condBand(f.cond, { warning, rows: f.rows, rankDeficient: f.rank !== undefined && f.rank < f.rows });
      const icon = isIllConditioned(band) ? '$(warning)' : '$(pulse)';
      text = `${icon} ${statusText(f)}`;
      const rec = shownRecord(view.source);
      md.appendMarkdown(`**Constraint Lens** · ${s.fileName} · ${mujoco ? "MuJoCo's run · " : ''}step ${f.step}${f.step === 0 ? ' (initial state)' : ''}\n\n`);
      if (rec) {
        md.appendMarkdown(`κ(A) = ${formatCond(f.cond, { rows: f.rows })}${f.condEstimated ? ' (estimated)' : ''} · ${mujoco ? 'mj_step' : rec.method}\n\n`);
        md.appendMarkdown(`${f.rank === undefined ? '' : `rank ${f.rank} of `}${f.rows} rows · ${snap.rank.dofs} DOFs\n\n`);
      } else {
        md.appendMarkdown(`κ(A) = ${formatCond(f.cond, { rows: f.rows })}${f.condEstimated ? ' (estimated)' : ''} · κ(scaled) = ${formatCond(snap.cond.scaled, { rows: f.rows })}\n\n`);
        md.appendMarkdown(`rank ${f.rank ?? '–'} of ${f.rows} rows · ${snap.rank.dofs} DOFs · ${snap.method}\n\n`);
      }
      md.appendMarkdown(`${condBandDescription(band, warning)} · ${problemsText(countProblems(view.diagnostics))}${mujoco ? " (MuJoCo's)" : ''}\n\n`);
      md.appendMarkdown('Click to open the inspector.');
    }
    this.item.text = text;
    this.text = text;
    this.item.tooltip = md;
    this.item.backgroundColor = band && isIllConditioned(band) ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    this.item.command = { title: 'Open Inspector', command: CommandIds.openInspector, arguments: [s.uri] };
    this.item.accessibilityInformation = { label: `Constraint Lens: ${text.replace(/\$\([^)]*\)\s*/g, '').replace('κ', 'condition number')}` };
    this.item.show();
  }
}
