// The small API `activate()` returns, for tests of the real extension host:
//   const api = vscode.extensions.getExtension<ConstraintLensApi>('constraint-lens.constraint-lens')!.exports;
// URIs are given as strings: `uri.toString()` of a scene document (a plain file path is accepted too).
import type { InspectResult } from '../engine';
import type { MujocoSection, WebviewMessage } from '../protocol';
import type { TraceEditorProbe } from './traceEditor';

export type { TraceEditorProbe };

export interface PanelProbe {
  /** Number of messages the host posted to this scene's inspector webview. */
  postedToWebview: number;
  /** The last valid message received from the webview. */
  lastMessageFromWebview?: WebviewMessage;
  /** Types of the messages posted so far, oldest first (at most the last 200). */
  postedTypes: string[];
  /** The last `select` the host sent the panel (from the tree or the editor's cursor). */
  lastSelect?: { constraint?: string; body?: string };
  /** Whether the panel is currently visible. */
  visible: boolean;
  /** The flow-controlled feed (model, history, snapshots): what it posted, and whether a message awaits its acknowledgement. */
  flow?: { posted: number; historyBytes: number; historyRecords: number; maxInFlight: number; waiting: boolean };
  /**
   * The panel's start-up (epoch ms): the host made the panel, the page started loading, its script
   * started running and posted `ready`, and the host received it.
   */
  startup?: { createdAt: number; navigationStart: number; scriptStart: number; readyAt: number; receivedAt: number };
  /** Who steps the panel's model (the header's switch) and how far its run is. */
  solver?: { solver: 'engine' | 'mujoco'; steps: number; running: boolean; stopped: boolean };
}

export interface ConstraintLensApi {
  /** The latest inspection of that document (matching its newest analysed version), if any. */
  inspect(uri: string): InspectResult | undefined;
  /**
   * Resolves once the document's current version has been analysed (schedules an analysis when
   * none is pending) — use after opening or editing a scene instead of sleeping.
   */
  whenInspected(uri: string): Promise<InspectResult | undefined>;
  /** The inspector panel of that scene, if one is open. */
  panelFor(uri: string): PanelProbe | undefined;
  /** Steps taken by that scene's simulation (0 when none). */
  currentStep(uri: string): number;
  /** Number of step records kept by that scene's simulation. */
  records(uri: string): number;
  /** True while a Run N Steps or Play is in progress for that scene. */
  isRunning(uri: string): boolean;
  /** Resolves when no run is in progress for that scene. */
  whenIdle(uri: string): Promise<void>;
  /** The status bar text shown for the active scene ('' when hidden). */
  statusText(): string;
  /** What the Explorer tree view selects: `body:NAME`, `constraint:NAME` or a group's name. */
  treeSelection(): string[];
  /**
   * Hands `message` to the scene's inspector as if its webview had posted it (validated the same
   * way); resolves when it was handled — for `{ type: 'command' }`, when the command finished.
   * False when the scene has no inspector open.
   */
  receiveFromWebview(uri: string, message: unknown): Promise<boolean>;
  /**
   * When the extension last set that document's diagnostics (the Problems panel's markers):
   * `performance.now()` of the extension host, and how many. VS Code's own
   * `languages.onDidChangeDiagnostics` follows up to 50 ms later (its event is debounced).
   * `analysisMs`: how long the document's last analysis took (request to result, worker included).
   */
  lastPublished(uri: string): { at: number; count: number; analysisMs?: number } | undefined;
  /** The trace editor open on that file (.npz, Axion or FCLib HDF5), if one is: what it read and sent its webview. */
  traceEditor(uri: string): TraceEditorProbe | undefined;
  /** Hands `message` to that trace editor as if its webview had posted it; false when none is open. */
  traceReceiveFromWebview(uri: string, message: unknown): boolean;
  /** An MJCF or URDF model's MuJoCo section, as its inspector shows it (undefined for scenes and unknown documents). */
  mujocoSection(uri: string): MujocoSection | undefined;
}
