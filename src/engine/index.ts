// The engine's only door: code outside src/engine/ imports from here and nowhere else (ESLint
// `no-restricted-imports` enforces it; white-box unit tests of the internals are the exception).
// Also the published library entry `constraint-lens/engine` (dist/engine.js, docs/engine-api.md).
// Pure TypeScript: runs in Node, the extension host, workers and browsers.

// Scene text → validated scene, diagnostics and the source map.
export { parseScene } from './scene/parse';
export { emptySourceMap } from './scene/text';
export { DEFAULT_SOLVER } from './scene/fields';
// Which closed form a chain of hinges and slides has (the importer checks MuJoCo's joints with it).
export { classifyJointChain, type ChainJointInput, type ChainPattern } from './model/chainPattern';
export type {
  BodySpec,
  ChainJointSpec,
  ConstraintSpec,
  ConstraintType,
  CoupledJoint,
  CouplingSpec,
  Formulation,
  JsonPath,
  NotSimulatedCategory,
  ParseResult,
  SceneSpec,
  SolverSettings,
  SourceMap,
  Stabilization,
} from './scene/types';

// The pipeline (inspect step 0, run N steps) and the stepping simulation with its history.
export { inspectScene, inspectParsed, simulateScene, simulateInspected, internalError, type SimulateOutput } from './pipeline';
export { Simulation, type SimulationOptions } from './simulation';
export type { InspectOptions, InspectResult, SimulationApi } from './api';
// Limits on any input: text length, bodies, constraints, steps, history (docs/cli.md "Limits").
export { DEFAULT_LIMITS, LIMIT_NAMES, parseLimits, resolveLimits, type Limits } from './limits';

// The linear stability of the stabilised constraint error (docs/divergence.md).
export { recurrenceOf, stableRanges, stableGains, spectralRadius2, type Recurrence, type StableRanges } from './stability';

// What the engine produces, its diagnostics and their stable codes.
export { Codes, CodeDescriptions, type Code } from './codes';
export type * from './result';
export type * from './types';

// Contacts: shapes, detection and what the contact solvers report.
export { detectContacts } from './collision/detect';
export type * from './collision/types';
export { stepNonlinear, solveContactsPgs, stepVelocity, defaultNonlinearSettings, defaultVelocitySettings, type NewtonReport, type PgsReport, type NonlinearSettings, type VelocitySettings } from './contact';
// Contacts in a run: the finite cone-ratio convention of ContactReport.
export { CONE_RATIO_MAX, finiteConeRatio } from './contactReports';
