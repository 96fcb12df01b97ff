// The one table of the extension's command ids (and of the context keys its `when` clauses use).
// Every registerCommand, executeCommand, CodeLens, tree item, status bar item and test takes its ids
// from here; test/unit/extension-commands.test.ts checks the table against package.json. Pure: no
// vscode, so the e2e suite and the unit tests import it too.
import type { PanelCommand } from '../protocol';

export const CommandIds = {
  openInspector: 'constraintLens.openInspector',
  openInspectorToSide: 'constraintLens.openInspectorToSide',
  step: 'constraintLens.step',
  runSteps: 'constraintLens.runSteps',
  playPause: 'constraintLens.playPause',
  reset: 'constraintLens.reset',
  goToStep: 'constraintLens.goToStep',
  exportStepData: 'constraintLens.exportStepData',
  exportReport: 'constraintLens.exportReport',
  newScene: 'constraintLens.newScene',
  showOutput: 'constraintLens.showOutput',
  revealItem: 'constraintLens.revealItem',
  // MJCF and URDF models (models.ts, modelCommands.ts)
  compareWithMujoco: 'constraintLens.compareWithMujoco',
  chooseKeyframe: 'constraintLens.chooseKeyframe',
  exportScene: 'constraintLens.exportScene',
  runWithMujoco: 'constraintLens.runWithMujoco',
} as const;

export type CommandKey = keyof typeof CommandIds;
type CommandId = (typeof CommandIds)[CommandKey];

/** The command each button of the inspector panel runs (with the panel's scene URI). */
export const PanelCommandIds: Readonly<Record<PanelCommand, CommandId>> = {
  step: CommandIds.step,
  run: CommandIds.runSteps,
  playPause: CommandIds.playPause,
  reset: CommandIds.reset,
  compareMujoco: CommandIds.compareWithMujoco,
  chooseKeyframe: CommandIds.chooseKeyframe,
};

/** Context keys set with `setContext` (used by package.json `when`/`enablement` clauses). */
export const ContextKeys = {
  sceneActive: 'constraintLens.sceneActive',
  /** The active scene (of the active editor or the focused inspector) is an MJCF or URDF model. */
  modelActive: 'constraintLens.modelActive',
  playing: 'constraintLens.playing',
  running: 'constraintLens.running',
  inspectorActive: 'constraintLens.inspectorActive',
} as const;

/** The Explorer view and the inspector's webview type (contributed / restored by these ids). */
export const ViewIds = {
  sceneTree: 'constraintLens.sceneTree',
  inspector: 'constraintLens.inspector',
  /** The read-only custom editor of trace files (.npz, .h5, .hdf5). */
  traceInspector: 'constraintLens.traceInspector',
} as const;
