// The status bar item of the active scene: `κ 1.2e3 · rank 5/6`, with a warning background when
// A is singular or ill-conditioned. Click: open the inspector.
import * as vscode from 'vscode';
import type { SystemSnapshot } from '../engine';
import { CommandIds } from './commandIds';
import type { Config } from './config';
import { condBand, condBandDescription, DEFAULT_CONDITION_WARNING, formatCond, isIllConditioned, type CondBand } from '../shared';
import { Disposable } from './dispose';
import { countProblems, problemsText, statusText, type CondFacts } from './logic/format';
import type { SceneManager, SceneState } from './scenes';
import { isSceneDocument } from './util';

export function condFacts(snap: SystemSnapshot): CondFacts {
  return { cond: snap.cond.A, condEstimated: snap.condEstimated, rank: snap.rank.J, rows: snap.rank.rows };
}

/** The κ warning threshold for a scene: the setting's override, else the scene's solver.conditionWarning. */
export function conditionWarningOf(s: SceneState | undefined, cfg: Config): number {
  return cfg.conditionWarning ?? s?.result?.parse.scene?.solver.conditionWarning ?? DEFAULT_CONDITION_WARNING;
}

export class SceneStatusBar extends Disposable {
  private readonly item = this._register(vscode.window.createStatusBarItem('constraintLens.status', vscode.StatusBarAlignment.Right, 100));

  constructor(
    private readonly scenes: SceneManager,
    private readonly config: () => Config,
  ) {
    super();
    this.item.name = 'Constraint Lens';
    this._register(scenes.onDidChangeActive(() => this.update()));
    this._register(
      scenes.onDidChange((e) => {
        if (e.state === scenes.active && e.kind !== 'stepped') this.update();
      }),
    );
    this._register(vscode.window.onDidChangeActiveTextEditor(() => this.update()));
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
    const snap = r?.snapshot;
    let text: string;
    let band: CondBand | undefined;
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = false;
    if (!snap) {
      text = r ? '$(error) κ –' : '$(loading~spin) κ …';
      band = undefined;
      md.appendMarkdown(r ? `**${s.fileName}** could not be analysed (${problemsText(countProblems(r.diagnostics))}).` : `Analysing **${s.fileName}**…`);
    } else {
      const f = condFacts(snap);
      const warning = conditionWarningOf(s, this.config());
      band = condBand(f.cond, { warning, rows: f.rows, rankDeficient: f.rank < f.rows });
      const icon = isIllConditioned(band) ? '$(warning)' : '$(pulse)';
      text = `${icon} ${statusText(f)}`;
      md.appendMarkdown(`**Constraint Lens** · ${s.fileName}\n\n`);
      md.appendMarkdown(`κ(A) = ${formatCond(f.cond, { rows: f.rows })}${f.condEstimated ? ' (estimated)' : ''} · κ(scaled) = ${formatCond(snap.cond.scaled, { rows: f.rows })}\n\n`);
      md.appendMarkdown(`rank ${f.rank} of ${f.rows} rows · ${snap.rank.dofs} DOFs · ${snap.method}\n\n`);
      md.appendMarkdown(`${condBandDescription(band, warning)} · ${problemsText(countProblems(s.allDiagnostics()))}\n\n`);
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
