// The commands of MJCF and URDF models (ids in commandIds.ts; registered with the others by
// commands.ts, whose `withScene` gives them their target document):
//   Compare with MuJoCo — run MuJoCo and the engine side by side; the inspector's MuJoCo section
//   Choose Keyframe…    — start the model from one of its <key>s (or qpos0); re-analyses it
//   Export as Scene     — the converted model as a *.scene.json, through the save dialog
//   Run with MuJoCo     — N of MuJoCo's own mj_steps in a worker, its diagnostics and its run (mujocoRunner.ts)
// Each returns a small result for tests and shows what it did; none throws.
import * as vscode from 'vscode';
import type { MujocoSection } from '../protocol';
import { exportedSceneName, isModelPath } from './logic/fileKind';
import { validateStepCount } from './logic/format';
import { modelParseOf, type ModelService } from './models';
import type { MujocoRunner, MujocoRunResult } from './mujocoRunner';
import type { PanelManager } from './panel';
import type { SceneManager, SceneState } from './scenes';
import { fileNameOf } from './util';

interface ModelCommandDeps {
  scenes: SceneManager;
  models: ModelService;
  panels: PanelManager;
  mujoco: MujocoRunner;
  maxSteps: () => number;
  /** Where to write (the save dialog, or a caller's target that is never overwritten without consent). */
  destination(s: SceneState, defaultName: string, filters: Record<string, string[]>, target: unknown, opts: unknown): Promise<vscode.Uri | undefined>;
}

/** The scene a model command acts on: its document and its analysed state. */
interface ModelTarget {
  doc: vscode.TextDocument;
  state: SceneState;
}

/** The label of qpos0 in the keyframe list. */
const QPOS0 = 'qpos0';

export class ModelCommands {
  constructor(private readonly d: ModelCommandDeps) {}

  /** A model that converted (else a message saying why not, and undefined). */
  private converted(t: ModelTarget) {
    if (!isModelPath(t.state.uri.path)) {
      void vscode.window.showWarningMessage(`Constraint Lens: ${t.state.fileName} is a scene file; this command is for MJCF (.xml) and URDF (.urdf) models.`);
      return undefined;
    }
    const parse = modelParseOf(t.state);
    if (!parse?.scene || !parse.model) {
      void vscode.window.showErrorMessage(`Constraint Lens: ${t.state.fileName} could not be converted: fix the errors shown in the Problems view first.`);
      return undefined;
    }
    return parse;
  }

  /** Run the comparison, with the inspector open to show it. Resolves with the section. */
  async compare(t: ModelTarget): Promise<MujocoSection | undefined> {
    if (!this.converted(t)) return undefined;
    if (!this.d.panels.get(t.state.uri)) await this.d.panels.open(t.state.uri, { preserveFocus: true });
    const section = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Constraint Lens: running MuJoCo on ${t.state.fileName}` },
      () => this.d.models.compare(t.state),
    );
    if (section?.status === 'failed') void vscode.window.showErrorMessage(`Constraint Lens: the comparison with MuJoCo failed: ${section.error ?? 'unknown error'}`);
    return section;
  }

  /**
   * Start the model from a <key> (`name`; `null` or 'qpos0': the reference configuration), asked
   * for with a quick pick when not given. Resolves with the keyframe in use after re-analysis.
   */
  async chooseKeyframe(t: ModelTarget, name: unknown): Promise<string | undefined> {
    const parse = this.converted(t);
    if (!parse?.model) return undefined;
    const keys = parse.model.compiled.keys.map((k) => k.name);
    let choice: string | undefined;
    if (typeof name === 'string' || name === null) {
      choice = name === null || name === QPOS0 ? undefined : name;
      if (choice !== undefined && !keys.includes(choice)) {
        void vscode.window.showErrorMessage(`Constraint Lens: ${t.state.fileName} has no <key> named ${JSON.stringify(choice)}.`);
        return undefined;
      }
    } else {
      const current = parse.model.keyframe;
      const items: (vscode.QuickPickItem & { key?: string })[] = [
        { label: QPOS0, description: current === undefined ? 'current' : undefined, detail: "The model's reference configuration, at rest." },
        ...keys.map((k, i) =>
          k === ''
            ? { label: `key ${i}`, description: 'unnamed: give it a name to choose it', key: undefined, kind: vscode.QuickPickItemKind.Default }
            : { label: k, key: k, description: k === current ? 'current' : undefined, detail: `<key name="${k}">: its qpos and qvel` },
        ),
      ];
      const picked = await vscode.window.showQuickPick(
        items.filter((it) => it.label === QPOS0 || it.key !== undefined),
        { title: `Initial state of ${t.state.fileName}`, placeHolder: keys.some((k) => k !== '') ? 'Start from qpos0 or one of the model’s keyframes' : 'The model has no named <key>: qpos0 only' },
      );
      if (!picked) return undefined;
      choice = picked.key;
    }
    this.d.models.chooseKeyframe(t.state.uri, choice);
    this.d.scenes.reanalyze(t.doc);
    const r = await this.d.scenes.whenInspected(t.doc);
    return (r ? modelParseOf(t.state)?.model?.keyframe : undefined) ?? QPOS0;
  }

  /**
   * Run `count` mj_steps of the model with MuJoCo as the solver (asked for when not given; default 1 s
   * of simulated time): MuJoCo's diagnostics in the Problems panel, its run in a read-only inspector.
   */
  async runWithMujoco(t: ModelTarget, count: unknown): Promise<MujocoRunResult | undefined> {
    const parse = this.converted(t);
    if (!parse?.model) return undefined;
    let n = typeof count === 'number' && Number.isInteger(count) && count >= 0 ? count : undefined;
    if (n === undefined) {
      const planned = Math.max(1, Math.round(1 / (parse.model.compiled.timestep || 0.002)));
      const input = await vscode.window.showInputBox({
        title: `Run ${t.state.fileName} with MuJoCo`,
        prompt: `Number of mj_steps from the initial state (timestep ${parse.model.compiled.timestep} s)`,
        value: String(planned),
        validateInput: (v) => validateStepCount(v, this.d.maxSteps()),
      });
      if (input === undefined) return undefined;
      n = Number(input.trim());
    }
    return this.d.mujoco.run(t.doc, Math.min(n, this.d.maxSteps()), parse.model.keyframe);
  }

  /** Write the converted scene (save dialog; a given target is never overwritten without `{ overwrite: true }`). */
  async exportScene(t: ModelTarget, target: unknown, opts: unknown): Promise<string | undefined> {
    const parse = this.converted(t);
    if (!parse?.scene || !parse.model) return undefined;
    const dest = await this.d.destination(t.state, exportedSceneName(t.state.fileName), { 'Scene (JSON with comments)': ['json'] }, target, opts);
    if (!dest) return undefined;
    const { exportScene, exportErrors } = await import('../import');
    const text = exportScene({ scene: parse.scene, path: t.state.fileName, keyframe: parse.model.keyframe });
    // Never a file the scene parser would reject (the round trip would lose the model).
    const errors = exportErrors(text);
    if (errors.length) {
      void vscode.window.showErrorMessage(`Constraint Lens: ${t.state.fileName} cannot be exported: the scene would not read back (${errors[0].code}: ${errors[0].message}).`);
      return undefined;
    }
    await vscode.workspace.fs.writeFile(dest, new TextEncoder().encode(text));
    if (target === undefined) {
      void vscode.window.showInformationMessage(`Constraint Lens: ${t.state.fileName} exported as ${fileNameOf(dest)}.`, 'Open').then((b) => {
        if (b) void vscode.window.showTextDocument(dest);
      });
    }
    return dest.toString();
  }
}
