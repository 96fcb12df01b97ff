// Which solver's analysis the status bar, the CodeLens and the tree show for a scene: the engine's
// (the scene manager's state), or MuJoCo's when the model's inspector is switched to MuJoCo, so that
// every view prints the κ, rank and step of the run the panel shows. `onDidChange` fires when a
// MuJoCo session opens, steps, is shown at another step, or when the panel goes back to the engine.
import * as vscode from 'vscode';
import type { Diagnostic } from '../engine';
import { Disposable } from './dispose';
import { lensRun, type LensRun } from './logic/mujocoLens';
import type { MujocoPanelSession } from './logic/mujocoPanelSession';
import { mujocoShownSource, type ShownSource } from './logic/shown';
import type { SceneState } from './scenes';

/** A scene as the views show it: the source of its step and κ, the solver and its diagnostics. */
export interface SolverView {
  solver: 'engine' | 'mujoco';
  source: ShownSource;
  /** The diagnostics of the shown solver (the engine's: every one in the Problems panel). */
  diagnostics: readonly Diagnostic[];
  /** MuJoCo's run elements (the records' columns); absent for the engine. */
  elements?: readonly string[];
  /** MuJoCo's Run count and whether its session plays (the Step and Run lenses drive it); absent for the engine. */
  run?: LensRun;
}

export class SolverViews extends Disposable {
  private readonly emitter = this._register(new vscode.EventEmitter<SceneState>());
  readonly onDidChange = this.emitter.event;
  /** The MuJoCo session of a scene's panel, when it is switched to MuJoCo (set by the context). */
  sessionOf: (s: SceneState) => MujocoPanelSession | undefined = () => undefined;

  /** The shown solver of `s` changed, or its run or shown step did. */
  changed(s: SceneState): void {
    this.emitter.fire(s);
  }

  of(s: SceneState): SolverView {
    const mj = this.sessionOf(s);
    const source = mj && mujocoShownSource(mj, s.result?.parse.scene);
    if (mj && source) return { solver: 'mujoco', source, diagnostics: mj.diagnostics, elements: mj.elements, run: lensRun({ planned: 1, running: false }, mj) };
    return { solver: 'engine', source: s, diagnostics: s.allDiagnostics() };
  }
}
