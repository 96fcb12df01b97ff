// The Explorer view "Constraint Lens": the active scene's bodies and constraints with their state
// (ok / redundant / violated / conflicting / ill-conditioned), λ and |C| in the tooltips. Selecting
// an item reveals it in the editor and in the inspector.
import * as vscode from 'vscode';
import type { BodyReport, ConstraintReport, SystemSnapshot } from '../engine/result';
import type { BodySpec, ConstraintSpec } from '../engine/scene/types';
import type { Config } from './config';
import { STATE_ICONS, bodyDescription, bodyState, bodyTooltip, constraintDescription, constraintState, constraintTooltip, specDescription, type ItemState } from './logic/tree';
import type { SceneManager } from './scenes';
import { conditionWarningOf } from './statusBar';

export type SceneNode =
  | { kind: 'group'; group: 'bodies' | 'constraints'; key: string; count: number }
  | { kind: 'body'; key: string; name: string; fileIndex: number; report?: BodyReport; spec: BodySpec }
  | { kind: 'constraint'; key: string; name: string; fileIndex: number; report?: ConstraintReport; spec: ConstraintSpec; state: ItemState; snapshot?: SystemSnapshot };

/** Argument of the internal `constraintLens.revealItem` command. */
export interface RevealArg {
  uri: string;
  kind: 'body' | 'constraint';
  fileIndex: number;
  name: string;
}

const icon = (s: ItemState): vscode.ThemeIcon => {
  const i = STATE_ICONS[s];
  return new vscode.ThemeIcon(i.id, i.color ? new vscode.ThemeColor(i.color) : undefined);
};

export class SceneTreeProvider implements vscode.TreeDataProvider<SceneNode>, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<SceneNode | undefined | void>();
  readonly onDidChangeTreeData = this.emitter.event;
  private readonly subs: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  view: vscode.TreeView<SceneNode> | undefined;

  constructor(
    private readonly scenes: SceneManager,
    private readonly config: () => Config,
  ) {
    this.subs.push(
      scenes.onDidChangeActive(() => this.refresh()),
      scenes.onDidChange((e) => {
        if (e.state !== scenes.active) return;
        // Only analysis results change the tree (it shows step 0); runs change nothing here.
        if (e.kind === 'inspected' || e.kind === 'closed') this.refresh();
      }),
    );
  }

  refresh(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.emitter.fire();
      this.updateMessage();
    }, 50);
  }

  private updateMessage(): void {
    if (!this.view) return;
    const s = this.scenes.active;
    this.view.description = s ? s.fileName : undefined;
    this.view.message = s && s.result && !s.result.parse.scene ? 'The scene could not be read: see the Problems view.' : undefined;
  }

  getChildren(node?: SceneNode): SceneNode[] {
    const s = this.scenes.active;
    const scene = s?.result?.parse.scene;
    if (!s || !scene) return [];
    if (!node) {
      return [
        { kind: 'group', group: 'bodies', key: s.key, count: scene.bodies.length },
        { kind: 'group', group: 'constraints', key: s.key, count: scene.constraints.length },
      ];
    }
    if (node.kind !== 'group' || node.key !== s.key) return [];
    const snap = s.result?.snapshot;
    if (node.group === 'bodies') {
      return scene.bodies.map((b) => ({ kind: 'body', key: s.key, name: b.name, fileIndex: b.index, spec: b, report: snap?.bodyStates.find((r) => r.name === b.name) }));
    }
    const warning = conditionWarningOf(s, this.config());
    return scene.constraints.map((c) => {
      const report = snap?.constraints.find((r) => r.fileIndex === c.index);
      const state: ItemState = report && snap ? constraintState(report, snap, warning) : 'unknown';
      return { kind: 'constraint', key: s.key, name: c.name, fileIndex: c.index, spec: c, report, state, snapshot: snap };
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
    const arg: RevealArg = { uri: node.key, kind: node.kind, fileIndex: node.fileIndex, name: node.name };
    const t = new vscode.TreeItem(node.name, vscode.TreeItemCollapsibleState.None);
    t.id = `${node.key}#${node.kind}:${node.fileIndex}:${node.name}`;
    t.command = { title: 'Reveal', command: 'constraintLens.revealItem', arguments: [arg] };
    if (node.kind === 'body') {
      const state = bodyState(node.spec);
      t.iconPath = icon(state);
      t.description = bodyDescription(node.report ?? node.spec);
      t.tooltip = node.report ? new vscode.MarkdownString(bodyTooltip(node.report)) : node.name;
      t.contextValue = 'constraintLens.body';
      t.accessibilityInformation = { label: `body ${node.name}, ${t.description}` };
    } else {
      t.iconPath = icon(node.state);
      t.description = node.report ? `${node.state === 'ok' ? '' : `${node.state} · `}${constraintDescription(node.report)}` : specDescription(node.spec);
      t.tooltip = node.report && node.snapshot ? new vscode.MarkdownString(constraintTooltip(node.report, node.state, node.snapshot)) : `${node.name} (not analysed)`;
      t.contextValue = `constraintLens.constraint.${node.state}`;
      t.accessibilityInformation = { label: `constraint ${node.name}, ${node.state}, ${t.description}` };
    }
    return t;
  }

  getParent(node: SceneNode): SceneNode | undefined {
    if (node.kind === 'group') return undefined;
    const s = this.scenes.active;
    const scene = s?.result?.parse.scene;
    if (!s || !scene) return undefined;
    return node.kind === 'body'
      ? { kind: 'group', group: 'bodies', key: s.key, count: scene.bodies.length }
      : { kind: 'group', group: 'constraints', key: s.key, count: scene.constraints.length };
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const d of this.subs) d.dispose();
    this.emitter.dispose();
  }
}
