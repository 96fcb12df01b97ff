// The Explorer view "Constraint Lens": the active scene's bodies and constraints with their state
// (ok / redundant / violated / conflicting / ill-conditioned), λ and |C| in the tooltips. An item's
// icon has the severity of its diagnostics in the Problems panel. The constraints follow the step
// the inspector shows (the run's current step, or Go to Step's: its StepRecord on top of the
// step-0 analysis; refreshes throttled to 4 per second while it runs); the view's header shows the
// step and κ(A). Selecting an item reveals it in the editor and in the inspector.
import * as vscode from 'vscode';
import type { BodyReport, BodySpec, ConstraintReport, ConstraintSpec, Severity, StepRecord, SystemSnapshot } from '../engine';
import { CommandIds } from './commandIds';
import type { Config } from './config';
import { Disposable, toDisposable } from './dispose';
import { Throttle, VIEW_REFRESH } from './logic/throttle';
import {
  bodyDescription,
  bodyState,
  bodyTooltip,
  constraintAt,
  constraintDescriptionAt,
  constraintTooltipAt,
  itemIcon,
  severityOfItem,
  specDescription,
  stepHeader,
  type ConstraintAtStep,
  type ItemState,
} from './logic/tree';
import { shownCondFacts, shownRecord } from './logic/shown';
import type { SceneManager, SceneState } from './scenes';
import type { SolverView, SolverViews } from './solverViews';
import { formatNumber } from '../shared';
import { sceneConditionWarning } from './statusBar';

type SceneNode =
  | { kind: 'group'; group: 'bodies' | 'constraints'; key: string; count: number }
  | { kind: 'body'; key: string; name: string; fileIndex: number; report?: BodyReport; spec: BodySpec; severity?: Severity }
  | {
      kind: 'constraint';
      key: string;
      name: string;
      fileIndex: number;
      report?: ConstraintReport;
      spec: ConstraintSpec;
      state: ItemState;
      /** The highest severity of its diagnostics and its state (the icon's). */
      severity?: Severity;
      /** The constraint at the shown step (the run's current one, else 0). */
      at?: ConstraintAtStep;
      violationTolerance?: number;
      snapshot?: SystemSnapshot;
    }
  /** A MuJoCo run's element (equality, limit, friction loss, contact pair) at the shown step, when the panel runs MuJoCo. */
  | { kind: 'element'; key: string; name: string; column: number; lambda: number; violation: number; step: number };

/** Argument of the internal Reveal in Editor command (CommandIds.revealItem). */
export interface RevealArg {
  uri: string;
  kind: 'body' | 'constraint';
  fileIndex: number;
  name: string;
}

/** The record of the step the tree shows (the inspector's step); none at step 0 (Reset and edits bring it back there). */
function currentRecord(s: SceneState | undefined): StepRecord | undefined {
  return shownRecord(s);
}

const icon = (s: ItemState, severity: Severity | undefined): vscode.ThemeIcon => {
  const i = itemIcon(s, severity);
  return new vscode.ThemeIcon(i.id, i.color ? new vscode.ThemeColor(i.color) : undefined);
};

export class SceneTreeProvider extends Disposable implements vscode.TreeDataProvider<SceneNode> {
  private readonly emitter = this._register(new vscode.EventEmitter<SceneNode | undefined | void>());
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly throttle = new Throttle(
    () => {
      this.emitter.fire();
      this.updateMessage();
    },
    VIEW_REFRESH,
  );
  view: vscode.TreeView<SceneNode> | undefined;

  constructor(
    private readonly scenes: SceneManager,
    private readonly config: () => Config,
    private readonly views: SolverViews,
  ) {
    super();
    this._register(toDisposable(() => this.throttle.dispose()));
    this._register(scenes.onDidChangeActive(() => this.refresh()));
    // a panel switched to MuJoCo (or back): its run's steps and shown step
    this._register(views.onDidChange((s) => s === scenes.active && this.refresh()));
    this._register(
      scenes.onDidChange((e) => {
        if (e.state !== scenes.active) return;
        // New analyses, the run's steps and Go to Step (the constraints show the inspector's step);
        // 'invalidated': the run was dropped with the old text, so back to step 0 until the new analysis.
        if (e.kind !== 'running' || e.diagnosticsChanged) this.refresh();
      }),
    );
  }

  /** Refresh the whole tree and its header soon (throttled). */
  refresh(): void {
    this.throttle.trigger();
  }

  /** The view's header: `file.scene.json · step 120 · κ 1.2e3` (step 0: the analysis). */
  headerText(s: SceneState | undefined = this.scenes.active): string | undefined {
    if (!s) return undefined;
    const view = this.views.of(s);
    const f = shownCondFacts(view.source);
    if (!f) return s.fileName;
    return `${s.fileName} · ${view.solver === 'mujoco' ? 'MuJoCo · ' : ''}${stepHeader({ step: f.step, cond: f.cond, condEstimated: f.condEstimated, rows: f.rows })}`;
  }

  private updateMessage(): void {
    if (!this.view) return;
    const s = this.scenes.active;
    // Each assignment is a message to the workbench: only what changed (the header after most edits stays).
    const description = this.headerText(s);
    const message = s && s.result && !s.result.parse.scene ? 'The scene could not be read: see the Problems view.' : undefined;
    if (this.view.description !== description) this.view.description = description;
    if (this.view.message !== message) this.view.message = message;
  }

  getChildren(node?: SceneNode): SceneNode[] {
    const s = this.scenes.active;
    const scene = s?.result?.parse.scene;
    if (!s || !scene) return [];
    if (!node) {
      return [
        { kind: 'group', group: 'bodies', key: s.key, count: scene.bodies.length },
        { kind: 'group', group: 'constraints', key: s.key, count: this.views.of(s).elements?.length ?? scene.constraints.length },
      ];
    }
    if (node.kind !== 'group' || node.key !== s.key) return [];
    const view = this.views.of(s);
    if (node.group === 'constraints' && view.solver === 'mujoco') return mujocoElements(s.key, view);
    const snap = s.result?.snapshot;
    // Every diagnostic the Problems panel shows for the file (the JSON service's syntax errors included).
    const diagnostics = s.allDiagnostics();
    if (node.group === 'bodies') {
      return scene.bodies.map((b) => ({
        kind: 'body',
        key: s.key,
        name: b.name,
        fileIndex: b.index,
        spec: b,
        report: snap?.bodyStates.find((r) => r.name === b.name),
        severity: severityOfItem(bodyState(b), diagnostics, s.result?.parse.sourceMap, 'bodies', b.index),
      }));
    }
    const th = { violationTolerance: scene.solver.violationTolerance, conditionWarning: sceneConditionWarning(s, this.config()) };
    const record = currentRecord(s);
    return scene.constraints.map((c) => {
      const index = snap ? snap.constraints.findIndex((r) => r.fileIndex === c.index) : -1;
      const report = snap && index >= 0 ? snap.constraints[index] : undefined;
      const at = report && snap ? constraintAt(report, index, snap, record, th) : undefined;
      const state = at?.state ?? 'unknown';
      const severity = severityOfItem(state, diagnostics, s.result?.parse.sourceMap, 'constraints', c.index);
      return { kind: 'constraint', key: s.key, name: c.name, fileIndex: c.index, spec: c, report, state, severity, at, violationTolerance: th.violationTolerance, snapshot: snap };
    });
  }

  getTreeItem(node: SceneNode): vscode.TreeItem {
    if (node.kind === 'group') {
      const t = new vscode.TreeItem(node.group === 'bodies' ? 'Bodies' : 'Constraints', vscode.TreeItemCollapsibleState.Expanded);
      t.id = `${node.key}#${node.group}`;
      t.description = String(node.count);
      t.iconPath = new vscode.ThemeIcon(node.group === 'bodies' ? 'symbol-class' : 'link');
      t.contextValue = `constraintLens.${node.group}`;
      return t;
    }
    if (node.kind === 'element') return elementItem(node);
    const arg: RevealArg = { uri: node.key, kind: node.kind, fileIndex: node.fileIndex, name: node.name };
    const t = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
    t.id = `${node.key}#${node.kind}:${node.fileIndex}:${node.name}`;
    t.command = { title: 'Reveal', command: CommandIds.revealItem, arguments: [arg] };
    if (node.kind === 'body') {
      t.iconPath = icon(bodyState(node.spec), node.severity);
      t.description = bodyDescription(node.report ?? node.spec);
      t.tooltip = node.report ? new vscode.MarkdownString(bodyTooltip(node.report)) : node.name;
      t.contextValue = 'constraintLens.body';
      t.accessibilityInformation = { label: `body ${node.name}${node.severity ? `, ${node.severity}` : ''}, ${t.description}` };
    } else {
      t.iconPath = icon(node.state, node.severity);
      t.description = node.report && node.at ? constraintDescriptionAt(node.report, node.at) : specDescription(node.spec);
      t.tooltip = node.report && node.at && node.snapshot ? new vscode.MarkdownString(constraintTooltipAt(node.report, node.at, node.snapshot, node.violationTolerance)) : `${node.name} (not analysed)`;
      t.contextValue = `constraintLens.constraint.${node.state}`;
      t.accessibilityInformation = { label: `constraint ${node.name}, ${node.state}${node.severity ? ` (${node.severity})` : ''}, ${t.description}` };
    }
    return t;
  }

  /**
   * Selects a body or a constraint in the view (the inspector revealed it), when the view is
   * visible and shows that scene; never opens the view nor takes the focus.
   */
  revealItem(key: string, kind: 'body' | 'constraint', fileIndex: number): void {
    const view = this.view;
    if (!view?.visible || this.scenes.active?.key !== key) return;
    const group = this.getChildren().find((g) => g.kind === 'group' && g.group === (kind === 'body' ? 'bodies' : 'constraints'));
    const node = group && this.getChildren(group).find((n) => n.kind === kind && n.fileIndex === fileIndex);
    if (node) view.reveal(node, { select: true, focus: false }).then(undefined, () => undefined);
  }

  getParent(node: SceneNode): SceneNode | undefined {
    if (node.kind === 'group') return undefined;
    const s = this.scenes.active;
    const scene = s?.result?.parse.scene;
    if (!s || !scene) return undefined;
    return node.kind === 'body'
      ? { kind: 'group', group: 'bodies', key: s.key, count: scene.bodies.length }
      : { kind: 'group', group: 'constraints', key: s.key, count: this.views.of(s).elements?.length ?? scene.constraints.length };
  }
}

/** MuJoCo's run elements with ‖λ‖ and max |violation| of their rows at the shown step (0 where an element had no rows then). */
function mujocoElements(key: string, view: SolverView): SceneNode[] {
  const rec = shownRecord(view.source);
  const step = rec?.step ?? 0;
  return (view.elements ?? []).map((name, column) => ({ kind: 'element', key, name, column, lambda: rec?.lambda[column] ?? 0, violation: rec?.C[column] ?? 0, step }));
}

function elementItem(node: Extract<SceneNode, { kind: 'element' }>): vscode.TreeItem {
  const t = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
  t.id = `${node.key}#element:${node.column}:${node.name}`;
  t.iconPath = new vscode.ThemeIcon('link');
  t.description = node.step === 0 ? 'MuJoCo · step 0' : `‖λ‖ ${formatNumber(node.lambda)} · |C| ${formatNumber(node.violation)}`;
  t.tooltip = `${node.name}: MuJoCo's rows of this element at step ${node.step}: ‖λ‖₂ = ${formatNumber(node.lambda)}, max |violation| = ${formatNumber(node.violation)}`;
  t.contextValue = 'constraintLens.mujocoElement';
  t.accessibilityInformation = { label: `MuJoCo element ${node.name}, ${t.description}` };
  return t;
}
